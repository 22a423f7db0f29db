import {mkdirSync, mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {Readable} from 'node:stream'
import {fileURLToPath} from 'node:url'
import {afterEach, describe, expect, it} from 'vitest'
import {ReportSchema} from '../../../src/render/json/report.js'
import {runInspect} from '../../../src/services/inspect.js'
import {runCli} from '../../helpers/cli.js'

const fixtures = fileURLToPath(new URL('../ingest/log/fixtures/', import.meta.url))
const parallel = join(fixtures, 'parallel-wave.log')

afterEach(() => {
  process.exitCode = undefined
})

function tmp(): string {
  return mkdtempSync(join(tmpdir(), 'gr-inspect-'))
}

describe('inspect', () => {
  it('shows the attempts, tasks with outcomes and per-turn criteria, issues, logger coverage and what next', async () => {
    const {stdout, error} = await runCli(['inspect', parallel])
    expect(error).toBeUndefined()
    expect(stdout).toContain('Attempt 1  parallel-wave.log:1–115  feature FEAT-NFI (failed)')
    expect(stdout).toMatch(/TASK-NFI-001 +task-work +approved +2 turns/)
    expect(stdout).toMatch(/TASK-NFI-002 +direct +unrecoverable_stall +2 turns +stall at turn 2 sig=0123abcd/)
    expect(stdout).toContain('1:0/7 F  2:7/7 A')
    expect(stdout).toContain('Records per logger')
    expect(stdout).toMatch(/guardkit\.orchestrator\.autobuild +\d+ +0/)
    expect(stdout).toContain('guardkit-replay explain')
    // not a terminal: no colour codes
    expect(stdout).not.toContain('\x1b[')
  })

  it('--json prints the contract report without replay and findings', async () => {
    const {stdout, error} = await runCli(['inspect', parallel, '--json'])
    expect(error).toBeUndefined()
    const report = ReportSchema.parse(JSON.parse(stdout))
    expect(report.schemaVersion).toBe(1)
    expect(report.run.logs).toEqual(['parallel-wave.log'])
    expect(report.tasks.map((t) => [t.taskId, t.attempt, t.mode, t.recorded.outcome])).toEqual([
      ['TASK-NFI-001', 1, 'task-work', 'approved'],
      ['TASK-NFI-002', 1, 'direct', 'unrecoverable_stall'],
    ])
    const two = report.tasks[1]!
    expect(two.recorded.stall).toMatchObject({turn: 2, signature: '0123abcd'})
    expect(two.recorded.turns[0]).toMatchObject({turn: 1, decision: 'feedback', criteriaMet: 0, criteriaTotal: 8})
    expect(two.recorded.turns[0]!.evidence?.criteria[0]).toEqual({file: 'parallel-wave.log', line: 43})
    for (const t of report.tasks) {
      expect(t).not.toHaveProperty('replay')
      expect(t).not.toHaveProperty('findings')
    }
  })

  it('says how to capture a log when RUN has none, and exits 2 without a stack trace', async () => {
    const dir = tmp()
    writeFileSync(join(dir, 'notes.md'), '# just notes\n')
    const {error} = await runCli(['inspect', dir])
    expect(error?.oclif?.exit).toBe(2)
    expect(error?.message).toContain('tee run.log')
    expect(error?.message).toContain('live --record')
    expect(error?.message).not.toMatch(/\n\s+at /)
  })

  // docs/ingest.md: task files and feature files alone are a run's inputs, not a run (hasRunContent).
  it('exits 2 for a RUN holding only task files and a feature YAML (inspect and analyze), saying what it found', async () => {
    const dir = tmp()
    mkdirSync(join(dir, 'tasks/backlog'), {recursive: true})
    mkdirSync(join(dir, '.guardkit/features'), {recursive: true})
    writeFileSync(join(dir, 'tasks/backlog/TASK-A-001-x.md'), '---\nid: TASK-A-001\nstatus: backlog\n---\n## Acceptance Criteria\n- [ ] x\n')
    writeFileSync(join(dir, '.guardkit/features/FEAT-A.yaml'), 'id: FEAT-A\nname: a\ntasks:\n  - id: TASK-A-001\n')
    for (const command of ['inspect', 'analyze']) {
      const {error} = await runCli([command, dir])
      expect(error?.oclif?.exit).toBe(2)
      expect(error?.message).toContain('1 task file and 1 feature file')
      expect(error?.message).toContain('no AutoBuild log')
      expect(error?.message).toContain('tee run.log')
    }
  })

  it('reports an empty log once', async () => {
    const file = join(tmp(), 'empty.log')
    writeFileSync(file, '')
    const {error} = await runCli(['inspect', file])
    expect(error?.oclif?.exit).toBe(2)
    expect(error?.message.match(/empty\.log: the (file|log) is empty/g)).toHaveLength(1)
  })

  it('exits 2 when RUN does not exist, also with --json', async () => {
    const {error} = await runCli(['inspect', join(tmp(), 'missing.log')])
    expect(error?.oclif?.exit).toBe(2)
    await runCli(['inspect', join(tmp(), 'missing.log'), '--json'])
    expect(process.exitCode).toBe(2)
  })

  it('exits 2 for a log holding nothing recognisable (binary), naming the problem with file and line', async () => {
    const dir = tmp()
    const file = join(dir, 'blob.log')
    writeFileSync(file, Buffer.from([0x00, 0x01, 0x02, 0x0a, 0xff, 0x00, 0x0a]))
    const {error} = await runCli(['inspect', file])
    expect(error?.oclif?.exit).toBe(2)
    expect(error?.message).toContain('blob.log:1')
    expect(error?.message).toContain('binary')
  })

  it('reads a log from stdin with -', async () => {
    const lines = [
      'INFO:guardkit.orchestrator.autobuild:Starting orchestration for TASK-S (resume=False)',
      'INFO:guardkit.orchestrator.autobuild:Criteria Progress (Turn 1): 2/2 verified (100%)',
      'INFO:guardkit.orchestrator.autobuild:Orchestration complete: TASK-S, decision=approved, turns=1',
    ]
    const {report} = await runInspect('-', {name: 'guardkit-replay', version: 't'}, {stdin: Readable.from([Buffer.from(lines.join('\n'))])})
    expect(report.run.logs).toEqual(['-'])
    expect(report.tasks[0]).toMatchObject({taskId: 'TASK-S', recorded: {outcome: 'approved', turns: [{turn: 1, criteriaMet: 2, criteriaTotal: 2}]}})
  })
})
