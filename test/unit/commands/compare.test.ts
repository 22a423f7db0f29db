import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import type {CompareReport} from '../../../src/explain/compare/compare-runs.js'
import {runCli} from '../../helpers/cli.js'
import {FIXTURES} from '../../helpers/gate.js'

afterEach(() => {
  process.exitCode = undefined
})

async function compareJson(...args: string[]): Promise<CompareReport> {
  const {stdout, error} = await runCli(['compare', ...args, '--json'])
  expect(error).toBeUndefined()
  return JSON.parse(stdout) as CompareReport
}

describe('compare: two fixtures of the same feature (db-003-timeout with its worktree, and the log alone)', () => {
  it('pairs the tasks by id and finds the same outcomes, turns and findings, with the era of each', async () => {
    const r = await compareJson(join(FIXTURES, 'db-003-timeout'), join(FIXTURES, 'db-003-timeout-log-only'))
    expect(r.pairs.map((p) => p.taskId).sort()).toEqual(['TASK-DB-001', 'TASK-DB-002', 'TASK-DB-003'])
    expect(r.summary).toMatchObject({pairs: 3, outcomeChanged: 0})
    for (const run of [r.a, r.b]) expect(['as-run:351c53fa', 'as-run:8a697b80']).toContain(run.era.profile)
    const db3 = r.pairs.find((p) => p.taskId === 'TASK-DB-003')!
    expect(db3.a).toMatchObject({outcome: 'cancelled', endTurn: 18})
    expect(db3.turns).toHaveLength(18)
    expect(db3.turns.slice(0, 17).every((t) => t.a?.criteriaMet === 0 && t.b?.criteriaMet === 0 && t.a.criteriaTotal === 6)).toBe(true)
    // the log-only run cannot rebuild most feedback: its signatures are unknown, never "different"
    expect(db3.turns.every((t) => !t.differs.includes('signature'))).toBe(true)
    expect(db3.findings.both).toEqual(expect.arrayContaining(['INFRA_TEST_FAILURE', 'STALL_DEFEATED_BY_VARIABLE_OUTPUT', 'ENDED_BY_TIMEOUT_NOT_STALL']))
  })
})

// Two runs of FEAT-AC1A's TASK-SFT-001 (fixtures/runs/*/expected.yaml): run 1 on pre-ACR code stalls at turn 5
// on c1ddd473 with a Player timeout in turn 2; run 2 (legacy) stalls at turn 3 on bbaba24c; run 1 also ran
// TASK-SFT-002 (approved at turn 1).
describe('compare: two runs of the same task with different histories (ac1a-run1-pre-acr → ac1a-run2-sft001)', () => {
  const A = join(FIXTURES, 'ac1a-run1-pre-acr')
  const B = join(FIXTURES, 'ac1a-run2-sft001')

  it('the text report shows both eras, the turn table and the findings only one run has', async () => {
    const {stdout} = await runCli(['compare', A, B])
    expect(stdout).toMatch(/\n {2}A {3}\S*ac1a-run1-pre-acr · FEAT-AC1A · era pre-acr \(\w+\)/)
    expect(stdout).toMatch(/\n {2}B {3}\S*ac1a-run2-sft001 · FEAT-AC1A · era legacy \(\w+\)/)
    expect(stdout).toMatch(/\nTASK-SFT-001 {2}differs\n/)
    expect(stdout).toMatch(/\n {5}1 {2}feedback 0\/10 {2}c1ddd473 +feedback 0\/10 {2}bbaba24c +signature\n/)
    expect(stdout).toMatch(/\n {5}4 {2}feedback 0\/10 {2}c1ddd473 +— +turn\n/)
    const sft1 = stdout.slice(stdout.indexOf('TASK-SFT-001  differs'))
    expect(sft1.slice(sft1.indexOf('only in A'), sft1.indexOf('only in B')).replace(/\s+/g, ' ')).toContain('PLAYER_TIMEOUT (t2)')
    expect(stdout).toMatch(/only in A +TASK-SFT-002 \(attempt 1\): approved, 1 turn/)
  })

  it('--format md is for a pull request', async () => {
    const {stdout} = await runCli(['compare', A, B, '--format', 'md'])
    expect(stdout).toContain('## guardkit-replay compare')
    expect(stdout).toContain('### TASK-SFT-001: differs')
    expect(stdout).toContain('| turn | A | B | differs |')
    expect(stdout).toContain('| 5 | feedback 0/10  c1ddd473 | — | turn |')
  })

  it('--json pairs the task and keeps the stall of each side', async () => {
    const r = await compareJson(A, B, '--task', 'SFT-001')
    expect(r.pairs).toHaveLength(1)
    expect(r.pairs[0]).toMatchObject({taskId: 'TASK-SFT-001', different: true})
    expect(r.pairs[0]!.a).toMatchObject({outcome: 'unrecoverable_stall', endTurn: 5, stall: {turn: 5}})
    expect(r.pairs[0]!.b).toMatchObject({outcome: 'unrecoverable_stall', endTurn: 3, stall: {turn: 3}})
    expect(r.a.era.profile).not.toBe(r.b.era.profile)
  })
})

describe('compare: usage and input errors exit 2', () => {
  it('a missing run, an unknown task, a missing argument', async () => {
    expect((await runCli(['compare', join(FIXTURES, 'db-003-timeout'), join(FIXTURES, 'nope')])).error?.oclif?.exit).toBe(2)
    const task = await runCli(['compare', join(FIXTURES, 'db-003-timeout'), join(FIXTURES, 'db-003-timeout-log-only'), '--task', 'DB-999'])
    expect(task.error?.oclif?.exit).toBe(2)
    expect(task.error?.message).toContain('TASK-DB-003')
    expect((await runCli(['compare', join(FIXTURES, 'db-003-timeout')])).error?.oclif?.exit).toBe(2)
    const json = await runCli(['compare', join(FIXTURES, 'db-003-timeout'), join(FIXTURES, 'nope'), '--json'])
    expect(process.exitCode).toBe(2)
    expect(() => JSON.parse(json.stdout)).not.toThrow()
  })
})
