import {afterEach, describe, expect, it} from 'vitest'
import {runCli} from '../../helpers/cli.js'

const db003 = 'fixtures/runs/db-003-timeout'

afterEach(() => {
  process.exitCode = undefined
})

describe('oclif conventions: short errors with what to try, suggestions, -h, --quiet', () => {
  it('a mistyped flag: two lines naming the flag meant and the help to read, exit 2, no help dump', async () => {
    const {error, stdout} = await runCli(['analyze', db003, '--verbse'])
    expect(error?.oclif?.exit).toBe(2)
    expect(error?.message).toBe('analyze has no flag --verbse. Did you mean `--verbose`?\nTry: guardkit-replay analyze --help')
    expect(stdout).toBe('')
  })

  it('a flag of another command says which commands have it', async () => {
    const {error} = await runCli(['analyze', db003, '--task', 'DB-003'])
    expect(error?.oclif?.exit).toBe(2)
    expect(error?.message).toMatch(/^analyze has no flag --task\. \(--task belongs to .*`guardkit-replay explain`/)
  })

  it('a value outside a flag\'s options is named with the options and the closest one', async () => {
    const {error} = await runCli(['analyze', db003, '--format', 'jsno'])
    expect(error?.oclif?.exit).toBe(2)
    expect(error?.message).toBe('--format jsno: not one of text, md, json, html. Did you mean `json`?\nTry: guardkit-replay analyze --help')
  })

  it('a missing argument names it and what it is', async () => {
    const {error} = await runCli(['compare', db003])
    expect(error?.oclif?.exit).toBe(2)
    expect(error?.message).toBe('compare needs RUN_B: the second run (e.g. after the fix).\nTry: guardkit-replay compare --help')
  })

  it('gate and gate merge take free arguments, yet a mistyped flag is named as for every other command', async () => {
    const gate = await runCli(['gate', 'runs', '--baseline', 'legacy', '--candidate', 'fixed', '--junti=gate.xml'])
    expect(gate.error?.oclif?.exit).toBe(2)
    expect(gate.error?.message).toBe('gate has no flag --junti. Did you mean `--junit`?\nTry: guardkit-replay gate --help')
    const merge = await runCli(['gate', 'merge', 'a.json', '--task', 'DB-003'])
    expect(merge.error?.oclif?.exit).toBe(2)
    expect(merge.error?.message).toMatch(/^gate merge has no flag --task\. \(--task belongs to .*`guardkit-replay explain`.*\nTry: guardkit-replay gate merge --help$/s)
  })

  it('a mistyped subcommand of gate is named, not taken for a PATH', async () => {
    const {error} = await runCli(['gate', 'mrege', 'a.json', '--baseline', 'legacy', '--candidate', 'fixed'])
    expect(error?.oclif?.exit).toBe(2)
    expect(error?.message).toContain('Did you mean `guardkit-replay gate merge`?')
  })

  it('-h is --help on a command', async () => {
    const {stdout, error} = await runCli(['explain', '-h'])
    expect(error).toBeUndefined()
    expect(stdout).toContain('$ guardkit-replay explain RUN -t ID')
  })

  it('--quiet prints no report and no note; the exit code still says how it went', async () => {
    const quiet = await runCli(['analyze', db003, '--quiet'])
    expect(quiet.error).toBeUndefined()
    expect(quiet.stdout).toBe('')
    expect(quiet.stderr).toBe('')
    const missing = await runCli(['analyze', 'no/such/run', '-q'])
    expect(missing.error?.oclif?.exit).toBe(2)
  })

  it('--json: one error document on stdout, the message for a person on stderr, the same exit code', async () => {
    const {stdout, stderr} = await runCli(['explain', db003, '--task', 'TASK-NOPE', '--json'])
    expect(process.exitCode).toBe(2)
    const doc = JSON.parse(stdout) as {error: {code: string; exit: number; message: string; try: string | null}}
    expect(Object.keys(doc)).toEqual(['error'])
    expect(doc.error.code).toBe('usage')
    expect(doc.error.exit).toBe(2)
    expect(doc.error.message).toMatch(/TASK-NOPE/)
    expect(stderr).toContain(`Error: ${doc.error.message}`)
  })

  it('--json on a parse error also prints one clean document (no oclif internals)', async () => {
    const {stdout} = await runCli(['analyze', db003, '--json', '--verbse'])
    const doc = JSON.parse(stdout) as {error: Record<string, unknown>}
    expect(Object.keys(doc.error)).toEqual(['code', 'exit', 'message', 'try'])
    expect(doc.error['message']).toMatch(/Did you mean `--verbose`\?/)
  })
})
