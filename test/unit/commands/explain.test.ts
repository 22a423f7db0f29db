import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {afterEach, describe, expect, it} from 'vitest'
import {ReportSchema} from '../../../src/render/json/report.js'
import {runCli} from '../../helpers/cli.js'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const db003 = join(root, 'fixtures/runs/db-003-timeout')

afterEach(() => {
  process.exitCode = undefined
})

describe('explain', () => {
  it('one turn: the record, each profile’s signatures, the window and why the detector fired or not', async () => {
    const {stdout, error} = await runCli(['explain', db003, '--task', 'TASK-DB-003', '--turn', '5'])
    expect(error).toBeUndefined()
    expect(stdout).toMatch(/^explain TASK-DB-003 turn 5 · /)
    expect(stdout).toContain('── turn 5 ')
    // the log only kept an 80-code-point excerpt; it is labelled so
    expect(stdout).toContain('feedback as recorded (cut at 80 code points, run.log:')
    const flat = stdout.replace(/\s+/g, ' ')
    // the run's own profile signs its own text; fixed words it otherwise (README), so it shows each branch's detector instead
    expect(flat).toContain('signature raw 5ebda8f1 · normalised 82511af6 · used 5ebda8f1')
    expect(flat).not.toContain('used 82511af6')
    expect(flat).toMatch(/window \[t3 deaab5ff \(0\), t4 7e14c185 \(0\), t5 5ebda8f1 \(0\)\] · threshold 3 · does not fire: /)
    expect(flat).toMatch(/if fixed's own feedback \(not in the records\) repeated where the recorded feedback did → a stall at turn 5: turn 5 feedback · 0\/6 criteria · window \[t3 \(own text\?\) \(0\), t4 \(own text\?\) \(0\), t5 \(own text\?\) \(0\)\] · FIRES/)
    expect(flat).toMatch(/if fixed's own feedback \(not in the records\) never repeated → cancelled \(recorded\) at turn 18: turn 5 feedback · 0\/6 criteria · window \[[^\]]*\] · does not fire/)
    // every piece of evidence of the findings that name turn 5
    expect(stdout).not.toContain('more places')
    expect(stdout).toContain('STALL_DEFEATED_BY_VARIABLE_OUTPUT')
    expect(stdout).not.toContain('\x1b')
  })

  it('finds the task by its short id and --profile narrows the view', async () => {
    const {stdout, error} = await runCli(['explain', db003, '--task', 'db-003', '--turn', '2', '--profile', 'fixed'])
    expect(error).toBeUndefined()
    expect(stdout).toMatch(/^explain TASK-DB-003 turn 2 · /)
    expect(stdout).toMatch(/\n {2}fixed +feedback · 0\/6 criteria · sig f696a94c/)
    expect(stdout).not.toMatch(/\n {2}legacy +feedback/)
    expect(stdout).not.toMatch(/\n {2}as-run:\w+ +feedback/)
  })

  it('--json: one document narrowed to the task and turn, with the replay detail and the focus', async () => {
    const {stdout, error} = await runCli(['explain', db003, '--task', 'TASK-DB-003', '--turn', '5', '--json'])
    expect(error).toBeUndefined()
    const doc = ReportSchema.parse(JSON.parse(stdout))
    expect(doc.focus).toMatchObject({command: 'explain', taskId: 'TASK-DB-003', attempt: 1, turn: 5})
    expect(doc.tasks).toHaveLength(1)
    const t = doc.tasks[0]!
    expect(t.recorded.turns.map((u) => u.turn)).toEqual([5])
    expect(t.replay!.fixed!.turns).toHaveLength(1)
    // undetermined: the branches disagree on turn 5 (a stall in one), so it is insufficient and unsigned
    expect(t.replay!.fixed!.turns[0]).toMatchObject({turn: 5, signature: null, stall: null, fidelity: 'insufficient'})
    expect(t.replay!.fixed!.branches!.map((b) => b.stallTurn)).toEqual([null, 5])
    expect(t.replay!.fixed!.turns[0]!.detail?.coach).toMatchObject({step: 'independent-tests'})
  })

  it('exits 2 for an unknown task, listing the tasks, and for a turn the task does not have', async () => {
    const task = await runCli(['explain', db003, '--task', 'TASK-NOPE'])
    expect(task.error?.oclif?.exit).toBe(2)
    expect(task.error?.message).toContain('Tasks in this run: TASK-DB-001, TASK-DB-002, TASK-DB-003.')
    const turn = await runCli(['explain', db003, '--task', 'TASK-DB-003', '--turn', '40'])
    expect(turn.error?.oclif?.exit).toBe(2)
    expect(turn.error?.message).toContain('it has turns 1–18')
    const missing = await runCli(['explain', db003])
    expect(missing.error?.oclif?.exit).toBe(2)
  })
})
