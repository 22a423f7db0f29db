// The conventions a user meets first, through the built CLI (bin/run.js rewrites argv before oclif,
// which the in-process tests do not see).
import {describe, expect, it} from 'vitest'
import {builtCli} from '../helpers/built-cli.js'

const RUN = 'fixtures/runs/db-003-timeout'
const COMMANDS = ['analyze', 'inspect', 'explain', 'whatif', 'gate', 'gate merge', 'compare', 'record', 'live', 'conformance', 'profiles']

/** No stack trace, and not the usage dump oclif prints after a parse error. */
function expectShort(stderr: string): void {
  expect(stderr).not.toMatch(/\n\s+at /)
  expect(stderr).not.toContain('USAGE')
  expect(stderr.trim().split('\n').length).toBeLessThanOrEqual(3)
}

describe('built CLI: mistyped commands get a suggestion, not "RUN not found"', () => {
  for (const [typed, meant] of [['gaet', 'gate'], ['insepct', 'inspect'], ['explian', 'explain']] as const) {
    it(`${typed} → ${meant}`, async () => {
      const r = await builtCli([typed, RUN, '--task', 'DB-003'])
      expect(r.code).toBe(2)
      expect(r.stderr).toContain(`\`${typed}\` is not a guardkit-replay command, nor a file or folder. Did you mean \`${meant}\`?`)
      expect(r.stderr).toContain(`Try: guardkit-replay ${meant} --help`)
      expectShort(r.stderr)
    })
  }

  it('`version` prints the version', async () => {
    const r = await builtCli(['version'])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^guardkit-replay\/\d+\.\d+\.\d+ /)
  })

  it('a mistyped flag names the flag meant, in two lines', async () => {
    const r = await builtCli([RUN, '--verbse'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('analyze has no flag --verbse. Did you mean `--verbose`?')
    expect(r.stderr).toContain('Try: guardkit-replay analyze --help')
    expectShort(r.stderr)
  })
})

describe('built CLI: -h, flags anywhere, --quiet', () => {
  it('-h prints the help of every command, and of the CLI', async () => {
    const results = await Promise.all([[], ...COMMANDS.map((c) => c.split(' '))].map((words) => builtCli([...words, '-h'])))
    for (const [i, r] of results.entries()) {
      expect(r.code, COMMANDS[i - 1] ?? '(none)').toBe(0)
      expect(r.stdout).toContain('USAGE')
    }
  })

  it('flags before RUN, or before the command', async () => {
    const [before, after, beforeCommand] = await Promise.all([builtCli(['--json', RUN]), builtCli([RUN, '--json']), builtCli(['--json', 'inspect', RUN])])
    expect(before.code).toBe(0)
    expect(JSON.parse(before.stdout)).toEqual(JSON.parse(after.stdout))
    expect(beforeCommand.code).toBe(0)
    expect(JSON.parse(beforeCommand.stdout).tasks.map((t: {taskId: string}) => t.taskId)).toContain('TASK-DB-003')
  })

  it('--quiet prints nothing; the exit code says how it went', async () => {
    const [ok, bad] = await Promise.all([builtCli([RUN, '--quiet']), builtCli(['no/such/run', '-q'])])
    expect(ok).toEqual({code: 0, stdout: '', stderr: ''})
    expect(bad.code).toBe(2)
    expect(bad.stdout).toBe('')
  })

  it('--json errors: one document on stdout, the message on stderr', async () => {
    const r = await builtCli(['explain', RUN, '--task', 'NOPE', '--json'])
    expect(r.code).toBe(2)
    expect(JSON.parse(r.stdout).error.code).toBe('usage')
    expect(r.stderr).toMatch(/^Error: /)
  })
})
