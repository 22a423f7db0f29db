import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import type {CompareReport} from '../../../src/explain/compare/compare-runs.js'
import {runCli} from '../../helpers/cli.js'
import {CORPUS_LOGS as LOGS} from '../helpers.js'

afterEach(() => {
  process.exitCode = undefined
})

async function compareJson(...args: string[]): Promise<CompareReport> {
  const {stdout, error} = await runCli(['compare', ...args, '--json'])
  expect(error).toBeUndefined()
  return JSON.parse(stdout) as CompareReport
}

describe('compare: two corpus runs of TASK-DB-003 across fix attempts ("did my fix change anything?")', () => {
  it('db_stalled (stall on correct work) → db_finally_succeds (approved at turn 1): outcome, criteria and findings', async () => {
    const r = await compareJson(join(LOGS, 'db_stalled.log'), join(LOGS, 'db_finally_succeds.log'), '--task', 'DB-003')
    expect(r.pairs).toHaveLength(1)
    const p = r.pairs[0]!
    expect(p).toMatchObject({taskId: 'TASK-DB-003', outcomeChanged: true, different: true})
    expect(p.a).toMatchObject({outcome: 'unrecoverable_stall', endTurn: 6, stall: {turn: 6}})
    expect(p.b).toMatchObject({outcome: 'approved', endTurn: 1})
    expect(p.turns[0]).toMatchObject({turn: 1, a: {decision: 'feedback', criteriaMet: 0, criteriaTotal: 6}, b: {decision: 'approve', criteriaMet: 6, criteriaTotal: 6}})
    expect(p.turns[0]!.differs).toEqual(expect.arrayContaining(['decision', 'criteria']))
    expect(p.turns.slice(1).every((t) => t.b === null && t.differs.includes('turn'))).toBe(true)
    expect(p.findings.onlyInA.map((f) => f.code)).toEqual(expect.arrayContaining(['STALL_FIRED', 'STALL_ON_CORRECT_WORK']))
    expect(r.a.era.profile).not.toBe(r.b.era.profile)
    expect(r.onlyInA).toEqual([])
  })

  it('the text report shows both eras, the turn table and the findings only one run has', async () => {
    const {stdout} = await runCli(['compare', join(LOGS, 'db_stalled.log'), join(LOGS, 'db_finally_succeds.log')])
    expect(stdout).toMatch(/\n {2}A {3}\S*db_stalled\.log · FEAT-BA28 · era as-run:\w+ \(high\)/)
    expect(stdout).toMatch(/TASK-DB-003 {2}outcome changed\n/)
    // turn 1 of db_stalled has no signature its records can give: said so, not left blank
    expect(stdout).toMatch(/\n {5}1 {2}feedback 0\/6 {2}sig not in log +approve 6\/6 +decision, criteria, feedback\n/)
    const db3 = stdout.slice(stdout.indexOf('TASK-DB-003  outcome changed'))
    expect(db3.slice(db3.indexOf('only in A'), db3.indexOf('only in B')).replace(/\s+/g, ' ')).toContain('STALL_FIRED (t2–t6)')
    expect(stdout).toMatch(/only in B +TASK-DB-004 \(attempt 1\): approved, 1 turn/)
  })

  it('pairs the latest attempt with the latest when a task ran more than once', async () => {
    const r = await compareJson(join(LOGS, 'db_max_turns_1.log'), join(LOGS, 'db_max_turns_1.log'), '--task', 'TASK-DB-006')
    expect(r.pairs.map((p) => [p.a.attempt, p.b.attempt])).toEqual([[1, 1], [2, 2]])
    expect(r.summary.different).toBe(0)
  })

  it('--format md is for a pull request', async () => {
    const {stdout} = await runCli(['compare', join(LOGS, 'db_stalled.log'), join(LOGS, 'db_finally_succeds.log'), '--format', 'md'])
    expect(stdout).toContain('## guardkit-replay compare')
    expect(stdout).toContain('### TASK-DB-003: outcome changed')
    expect(stdout).toContain('| turn | A | B | differs |')
  })
})
