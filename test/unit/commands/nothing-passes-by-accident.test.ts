import {existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, afterEach, describe, expect, it} from 'vitest'
import {runCli} from '../../helpers/cli.js'

const dirs: string[] = []
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'gr-accident-'))
  dirs.push(d)
  return d
}
afterAll(() => {
  for (const d of dirs) rmSync(d, {recursive: true, force: true})
})
afterEach(() => {
  process.exitCode = undefined
})

describe('nothing passes by accident', () => {
  it('gate over a folder with no GuardKit run exits 2 saying nothing was gated; --allow-empty accepts it', async () => {
    const dir = tmp()
    writeFileSync(join(dir, 'notes.log'), 'npm install\nadded 12 packages\n')
    const refused = await runCli(['gate', dir, '--baseline', 'legacy', '--candidate', 'fixed', '--no-progress'])
    expect(refused.error?.oclif?.exit).toBe(2)
    expect(refused.error?.message).toMatch(/^Nothing was gated in .*: 1 run found, but no task loop ran in it\. An empty gate does not pass\./)
    expect(refused.error?.message).toContain('--allow-empty')
    const junit = join(tmp(), 'gate.xml')
    const json = await runCli(['gate', dir, '--baseline', 'legacy', '--candidate', 'fixed', '--no-progress', '--json', '--junit', junit])
    expect(process.exitCode).toBe(2)
    expect(JSON.parse(json.stdout).error.code).toBe('usage')
    // an input error writes no verdict file
    expect(existsSync(junit)).toBe(false)
    process.exitCode = undefined
    const allowed = await runCli(['gate', dir, '--baseline', 'legacy', '--candidate', 'fixed', '--no-progress', '--allow-empty'])
    expect(allowed.error).toBeUndefined()
    expect(process.exitCode ?? 0).toBe(0)
    expect(allowed.stdout).toContain('PASS')
  })

  it('a gate that gates tasks still passes as before', async () => {
    const {error, stdout} = await runCli(['gate', 'fixtures/runs/ok-approved-after-feedback', '--baseline', 'legacy', '--candidate', 'fixed', '--no-progress'])
    expect(error).toBeUndefined()
    expect(stdout).toMatch(/PASS|FAIL/)
  })

  it('compare of runs of two different features says so and exits 2; --force compares them', async () => {
    const a = 'fixtures/runs/db-003-timeout'
    const b = 'fixtures/runs/ae7e-promise-loss'
    const refused = await runCli(['compare', a, b])
    expect(refused.error?.oclif?.exit).toBe(2)
    expect(refused.error?.message).toContain(`${a} is a run of FEAT-BA28, ${b} of FEAT-E7B5: compare pairs the tasks of two runs of the same feature.`)
    expect(refused.error?.message).toContain('--force')
    const forced = await runCli(['compare', a, b, '--force'])
    expect(forced.error).toBeUndefined()
    expect(forced.stdout).toContain('FEAT-E7B5')
  })

  it('compare of two runs of the same feature is not refused', async () => {
    const {error} = await runCli(['compare', 'fixtures/runs/db-003-timeout', 'fixtures/runs/db-003-timeout-log-only'])
    expect(error).toBeUndefined()
  })

  it('live: a command that cannot start leaves no recording, and says so', async () => {
    const dir = tmp()
    const record = join(dir, 'rec')
    const {stderr, error} = await runCli(['live', '--no-dashboard', '--record', record, '--', join(dir, 'no-such-command')])
    expect(error).toBeUndefined()
    expect(process.exitCode).toBe(127)
    expect(existsSync(record)).toBe(false)
    expect(stderr).toContain(`the command could not start: no recording kept (${record} removed)`)
    expect(stderr).not.toContain('recording written')
    // an empty folder given for the recording is left as it was: empty
    mkdirSync(record)
    process.exitCode = undefined
    await runCli(['live', '--no-dashboard', '--record', record, '--', join(dir, 'no-such-command')])
    expect(readdirSync(record)).toEqual([])
  })
})
