import {spawnSync} from 'node:child_process'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {FIXTURES, ROOT} from '../../helpers/gate.js'

// `node bin/run.js gate` (the built CLI) as a real process (in-process runs of gate are in test/unit/commands/gate.test.ts).
describe('gate as a process', () => {
  it('exits 1 on a regression with --json, stdout one document, stderr quiet for a short corpus', () => {
    const child = spawnSync(process.execPath, [join(ROOT, 'bin/run.js'), 'gate', FIXTURES, '--baseline', 'fixed', '--candidate', 'legacy', '--json'], {cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20, env: {...process.env, CI: 'true', GITHUB_ACTIONS: '', GITHUB_STEP_SUMMARY: ''}})
    expect(child.status).toBe(1)
    expect(JSON.parse(child.stdout)).toMatchObject({verdict: 'fail'})
    // 11 runs take less than the 10 s between progress lines: nothing on stderr
    expect(child.stderr).toBe('')
  })
})
