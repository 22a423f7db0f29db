import {describe, expect, it} from 'vitest'
import {formatReplayOutcome, inferEra, type TaskReplay} from '../../../src/replay/index.js'
import {FIXTURES, findTask, load, replay} from './helpers.js'

/**
 * docs/guardkit-logic.md §10, "Replaying the five seed failures under legacy and fixed", on the authored fixtures
 * (docs/fixtures.md), under the profiles docs/guardkit-logic.md §10 and §0.3 name. Expected values come from docs/guardkit-logic.md §10, §8.1
 * (`loop_phase#6`), docs/guardkit-logic.md §0.3 and the fixtures' hand derivations (README.md), never from the tool.
 */
const sigs = (r: TaskReplay, turns: readonly number[]): (string | null)[] => turns.map((n) => r.turns.find((t) => t.turn === n)?.signature ?? null)
const counts = (r: TaskReplay): string[] => r.turns.map((t) => `${t.criteriaMet}/${t.criteriaTotal}`)

describe('seed 000: FEAT-AC1A run 2, TASK-SFT-001 (ac1a-run2-sft001)', async () => {
  const run = await load(`${FIXTURES}ac1a-run2-sft001`)
  const task = findTask(run, 'TASK-SFT-001')

  it('ran on legacy (§0.3: 98ee6962)', () => {
    expect(['legacy', 'as-run:98ee6962']).toContain(inferEra(run).profile)
  })

  it('legacy: 0/10 every turn, identical missing-criteria feedback, stall at turn 3 (§10)', () => {
    const r = replay(run, task, 'legacy')
    expect(r.outcome).toEqual({kind: 'replayed', outcome: 'unrecoverable_stall', turn: 3})
    expect(r.stallTurn).toBe(3)
    expect(counts(r)).toEqual(['0/10', '0/10', '0/10'])
    // The signature the run logged (run.log: "Feedback stall: … (sig=bbaba24c)").
    expect(sigs(r, [1, 2, 3])).toEqual(['bbaba24c', 'bbaba24c', 'bbaba24c'])
    expect(r.turns.every((t) => t.fidelity === 'exact' && !t.diverges)).toBe(true)
  })

  it('fixed: the agent promises are recovered and written back, so the 6 criteria are verified and turn 1 approves (§10)', () => {
    const r = replay(run, task, 'fixed')
    expect(formatReplayOutcome(r.outcome)).toBe('approved')
    expect(r.turns).toHaveLength(1)
    expect(counts(r)).toEqual(['6/6'])
    expect(r.turns[0]!.detail.player.source).toBe('pipeline-task-work')
    expect(r.turns[0]!.detail.player.events.some((e) => e.kind === 'recovered' && e.field === 'completion_promises')).toBe(true)
  })
})

describe('seed 001: TASK-RK01-003, direct mode (rk01-003-direct-mode)', async () => {
  const run = await load(`${FIXTURES}rk01-003-direct-mode`)
  const task = findTask(run, 'TASK-RK01-003')

  it('ran on c5a83a15 (§0.3)', () => {
    expect(inferEra(run).profile).toBe('as-run:c5a83a15')
  })

  it('as-run: synthetic report without _synthetic → text path 0/4 → stall at turn 3 (§10)', () => {
    const r = replay(run, task, 'as-run:c5a83a15')
    expect(r.outcome).toEqual({kind: 'replayed', outcome: 'unrecoverable_stall', turn: 3})
    expect(r.stallTurn).toBe(3)
    expect(counts(r)).toEqual(['0/4', '0/4', '0/4'])
  })

  it('legacy: the missing report fails the Player, the Coach short-circuits on missing results, and the pollution rule stops turn 3 (§10, §8.1)', () => {
    const r = replay(run, task, 'legacy')
    expect(r.outcome).toEqual({kind: 'replayed', outcome: 'unrecoverable_stall', turn: 3})
    expect(r.stallTurn).toBeNull()
    expect(r.turns.map((t) => t.detail.coach.step)).toEqual(['missing-results', 'missing-results', 'missing-results'])
    expect(r.turns[2]!.detail.loop.pollution?.kind).toBe('no-passing-checkpoint')
    // The feedback names the per-turn report file, so it never repeats.
    expect(new Set(r.turns.map((t) => t.signature)).size).toBe(3)
  })

  it('fixed: synthetic report with _synthetic and file-existence promises → promises path → approved (§10; fixture README: 4/4)', () => {
    const r = replay(run, task, 'fixed')
    expect(formatReplayOutcome(r.outcome)).toBe('approved')
    expect(counts(r)).toEqual(['4/4'])
    expect(r.turns[0]!.detail.player.source).toBe('pipeline-direct')
  })
})

describe('seed 002: TASK-DB-003, 18 turns ended by the 2400 s timeout (db-003-timeout)', async () => {
  const run = await load(`${FIXTURES}db-003-timeout`)
  const task = findTask(run, 'TASK-DB-003')

  it('ran on 351c53fa/8a697b80 (§0.3)', () => {
    expect(['as-run:351c53fa', 'as-run:8a697b80']).toContain(inferEra(run).profile)
  })

  it('legacy: its own test-failure texts are not the recorded ones (other test detection, D21), so they are not signed; the loop runs on until the recorded cancellation either way (§10, loop_phase#6)', () => {
    const r = replay(run, task, 'legacy')
    expect(r.stallTurn).toBeNull()
    expect(['cancelled (recorded)', 'timeout (recorded)', 'undetermined after turn 18']).toContain(formatReplayOutcome(r.outcome))
    expect(r.turns.filter((t) => t.turn <= 17)).toHaveLength(17)
    // a signature comes from the profile's own feedback: only the coverage gate's text is worded alike by every version
    expect(sigs(r, [1, 2, 3])).toEqual([null, 'f696a94c', null])
    expect(r.turns.find((t) => t.turn === 3)!.detail.feedback.signatureBasis).toBe('withheld')
    expect(r.enumerated?.find((e) => e.id === 'feedbackRepeats')?.changesOutcome).toBe(false)
  })

  it('fixed: the recorded texts normalise to 82511af6 on turns 3-5, but fixed words test failures otherwise (§6.6, §6.7): a stall at turn 5 only if its own feedback repeats as the recorded one does', () => {
    const r = replay(run, task, 'fixed')
    expect(formatReplayOutcome(r.outcome)).toBe('undetermined')
    const branches = r.outcome.kind === 'branches' ? r.outcome.branches : []
    expect(branches.map((b) => [b.outcome, b.stallTurn, b.endTurn, b.values])).toEqual([
      ['cancelled (recorded)', null, 18, {feedbackRepeats: ['never']}],
      ['unrecoverable_stall', 5, 5, {feedbackRepeats: ['as-recorded']}],
    ])
    // No signature from the recorded (8a697b80) wording; turn 2, the coverage gate, is fixed's own: md5("- coverage threshold not met") (feedback_signature#0).
    expect(sigs(r, [1, 2, 3, 4])).toEqual([null, 'f696a94c', null, null])
  })

  it('log only: fixed is undetermined the same way, and names the missing feedback texts', async () => {
    const logOnly = await load(`${FIXTURES}db-003-timeout-log-only`)
    const r = replay(logOnly, findTask(logOnly, 'TASK-DB-003'), 'fixed')
    expect(r.outcome.kind === 'branches' ? r.outcome.branches.map((b) => [b.outcome, b.stallTurn]) : []).toEqual([['cancelled (recorded)', null], ['unrecoverable_stall', 5]])
    expect(r.turns.some((t) => t.fidelity === 'exact')).toBe(false)
    expect([...r.missingInputs, ...r.turns.flatMap((t) => t.missingInputs)].some((m) => m.includes('full feedback text'))).toBe(true)
  })

  it('log only: legacy cannot see a stall that the record shows did not happen', async () => {
    const logOnly = await load(`${FIXTURES}db-003-timeout-log-only`)
    const r = replay(logOnly, findTask(logOnly, 'TASK-DB-003'), 'legacy')
    expect(r.stallTurn).toBeNull()
    expect(formatReplayOutcome(r.outcome)).toBe('cancelled (recorded)')
  })
})

describe('seed 003: FEAT-AC1A run 1 on pre-ACR code (ac1a-run1-pre-acr)', async () => {
  const run = await load(`${FIXTURES}ac1a-run1-pre-acr`)
  const task = findTask(run, 'TASK-SFT-001')

  it('ran on pre-ACR code (§0.3: <= 28534d78)', () => {
    expect(inferEra(run).profile).toBe('pre-acr')
  })

  it('pre-acr: 0/10 without a dump, the SDK timeout turn in between, stall at turn 5 on sig c1ddd473 (the signature run_1.log logged)', () => {
    const r = replay(run, task, 'pre-acr')
    expect(r.stallTurn).toBe(5)
    expect(formatReplayOutcome(r.outcome)).toBe('unrecoverable_stall')
    expect(sigs(r, [1, 3, 4, 5])).toEqual(['c1ddd473', 'c1ddd473', 'c1ddd473', 'c1ddd473'])
  })

  it('legacy: ACR lists the missing criteria in the feedback (bbaba24c), still 0/10 → stall at turn 5 (§10 row 003)', () => {
    const r = replay(run, task, 'legacy')
    expect(r.stallTurn).toBe(5)
    expect(sigs(r, [1, 3, 4, 5])).toEqual(['bbaba24c', 'bbaba24c', 'bbaba24c', 'bbaba24c'])
  })

  it('fixed: depends on what the agent wrote, which this era does not record: undetermined, approved at 1 if complete, else a stall at 5', () => {
    const r = replay(run, task, 'fixed')
    expect(formatReplayOutcome(r.outcome)).toBe('undetermined')
    const branches = r.outcome.kind === 'branches' ? r.outcome.branches.map((b) => [b.outcome, b.stallTurn, b.endTurn]) : []
    expect(branches).toEqual([['approved', null, 1], ['undetermined after turn 5', null, null], ['unrecoverable_stall', 5, 5]])
    expect(r.turns.some((t) => t.fidelity === 'exact')).toBe(false)
    expect(r.missingInputs.some((m) => m.includes('the agent wrote in player_turn_N.json before the invoker replaced it'))).toBe(true)
  })
})

describe('seed 004: promises lost on the fix turns (ae7e-promise-loss)', async () => {
  const run = await load(`${FIXTURES}ae7e-promise-loss`)
  const task = findTask(run, 'TASK-USR-003')

  it('ran on 51222879 (§0.3: everything up to 02-18 except AE7E)', () => {
    expect(inferEra(run).profile).toBe('as-run:51222879')
  })

  it('as-run: no promises on turns 2-4 → text path 0/6 → identical feedback → stall at turn 4 (§10: "turn 3/4")', () => {
    const r = replay(run, task, 'as-run:51222879')
    expect(r.outcome).toEqual({kind: 'replayed', outcome: 'unrecoverable_stall', turn: 4})
    expect(sigs(r, [1, 2, 3, 4])).toEqual(['f696a94c', '4b645870', '4b645870', '4b645870'])
    expect(r.turns.every((t) => !t.diverges)).toBe(true)
  })

  it('fixed: turn 1\'s promises are recovered from player_turn_1.json → verified → approved on turn 2 (§10, D26)', () => {
    const r = replay(run, task, 'fixed')
    expect(r.outcome).toEqual({kind: 'replayed', outcome: 'approved', turn: 2})
    expect(counts(r)[1]).toBe('6/6')
    const requirements = r.turns[1]!.detail.coach.requirements as {promiseSource: {kind: string; turn: number}}
    expect(requirements.promiseSource).toMatchObject({kind: 'prior-report', turn: 1})
  })
})
