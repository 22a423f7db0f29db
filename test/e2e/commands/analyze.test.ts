import {execFile, spawnSync} from 'node:child_process'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {promisify} from 'node:util'
import {describe, expect, it} from 'vitest'
import {ReportSchema} from '../../../src/render/json/report.js'

// The built CLI (`node bin/run.js`) as a real process: the environment and stdin as a shell gives them (in-process
// runs of the same commands are in test/unit/commands/analyze.test.ts).
const root = fileURLToPath(new URL('../../..', import.meta.url))

describe('guardkit-replay RUN as a process', () => {
  const exec = promisify(execFile)
  const run = (args: string[], env: Record<string, string>) =>
    exec(process.execPath, [join(root, 'bin/run.js'), ...args], {cwd: root, env: {...process.env, ...env}, maxBuffer: 16 * 1024 * 1024})

  it('is analyze, and honours NO_COLOR over FORCE_COLOR', async () => {
    const coloured = await run(['fixtures/runs/db-003-timeout'], {FORCE_COLOR: '1', NO_COLOR: ''})
    expect(coloured.stdout).toContain('\x1b[')
    expect(coloured.stdout).toContain('TASK-DB-003')
    const plain = await run(['fixtures/runs/db-003-timeout'], {FORCE_COLOR: '1', NO_COLOR: '1'})
    expect(plain.stdout).not.toContain('\x1b')
    expect(plain.stdout).toContain('TASK-DB-003')
  })
})

describe('guardkit-replay - (a log on stdin) as a process', () => {
  it('reads the log from stdin and prints one JSON document', () => {
    const log = [
      'INFO:guardkit.orchestrator.autobuild:Starting orchestration for TASK-S (resume=False)',
      'INFO:guardkit.orchestrator.autobuild:Criteria Progress (Turn 1): 2/2 verified (100%)',
      'INFO:guardkit.orchestrator.autobuild:Orchestration complete: TASK-S, decision=approved, turns=1',
    ].join('\n')
    const child = spawnSync(process.execPath, [join(root, 'bin/run.js'), '-', '--json'], {cwd: root, input: log, encoding: 'utf8'})
    expect(child.status).toBe(0)
    const doc = ReportSchema.parse(JSON.parse(child.stdout))
    expect(doc.tasks.map((t) => [t.taskId, t.recorded.outcome])).toEqual([['TASK-S', 'approved']])
  })
})
