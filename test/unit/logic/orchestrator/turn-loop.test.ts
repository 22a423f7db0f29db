import {describe, expect, it} from 'vitest'
import {collectingSink, type LogRecord} from '../../../../src/logic/log-sink.js'
import {
  initialLoopState,
  recordedOutcome,
  runLoop,
  stallTurn,
  type LoopConfig,
  type LoopEvent,
  type TurnOutcome,
} from '../../../../src/logic/orchestrator/index.js'
import type {LogicFlags} from '../../../../src/logic/changes.js'
import {approveTurn, db003Feedback, FIXED, feedbackTurn, LEGACY, flagsOfProfile} from './helpers.js'

const AC = '- Not all acceptance criteria met:\n  • AC one'
const turns = (outcomes: readonly TurnOutcome[]): LoopEvent[] => outcomes.map((outcome) => ({kind: 'turn', outcome}))
const warnings = (records: readonly LogRecord[]) => records.filter((r) => r.level === 'WARNING' || r.level === 'ERROR').map((r) => `${r.level}: ${r.message}`)

function replay(config: Partial<LoopConfig>, events: readonly LoopEvent[], flags: LogicFlags) {
  const log = collectingSink()
  const state = runLoop(initialLoopState({taskId: 'TASK-X', maxTurns: 5, enableCheckpoints: false, ...config}), events, flags, log)
  return {state, log: log.records}
}

// Expected values: docs/guardkit-logic.md §8.1, §8.4, §8.5, §8.7 and the seed 002 and 004 incidents (§10).
describe('_loop_phase as a reducer (docs/guardkit-logic.md §8.1)', () => {
  it('seed 002: legacy runs the 18 turns out; fixed stops at turn 5 on signature 82511af6', () => {
    const events = turns(db003Feedback(18).map((f) => feedbackTurn(f, 0, 6, true)))
    // Checkpoints on, as in the real run: the task-work gates passed, so the pollution rule stays quiet.
    const legacy = replay({maxTurns: 18, enableCheckpoints: true}, events, LEGACY)
    expect(legacy.state.result?.outcome).toBe('max_turns_exceeded')
    expect(legacy.state.turns).toHaveLength(18)
    expect(stallTurn(legacy.state)).toBeNull()
    const fixed = replay({maxTurns: 18, enableCheckpoints: true}, events, FIXED)
    expect(fixed.state.result).toMatchObject({outcome: 'unrecoverable_stall', turn: 5, cause: 'feedback-stall'})
    expect(fixed.state.turns.at(-1)!.stall!.window.map((e) => e.signature)).toEqual(['82511af6', '82511af6', '82511af6'])
    expect(warnings(fixed.log)).toEqual([
      'WARNING: Feedback stall: identical feedback (sig=82511af6) for 3 turns with 0 criteria passing',
      'ERROR: Feedback stall detected for TASK-X: identical feedback with no criteria progress (0 criteria passing). Exiting loop early.',
    ])
  })

  it('seed 004: a turn-1 peak keeps fixed on the extended threshold after the count drops to 0 (D29)', () => {
    const events = turns([feedbackTurn(AC, 6, 6), ...Array.from({length: 9}, () => feedbackTurn(AC, 0, 6))])
    const legacy = replay({maxTurns: 10}, events, LEGACY)
    expect(legacy.state.result).toMatchObject({outcome: 'unrecoverable_stall', turn: 4})
    // The as-run commit of seed 004 (51222879) has the extended threshold but feeds the current count: stall at 4.
    expect(replay({maxTurns: 10}, events, flagsOfProfile('as-run:51222879')).state.result?.turn).toBe(4)
    const fixed = replay({maxTurns: 10}, events, FIXED)
    expect(fixed.state.result).toMatchObject({outcome: 'unrecoverable_stall', turn: 5})
    expect(fixed.state.turns.map((t) => t.stall?.count)).toEqual([6, 6, 6, 6, 6])
    expect(fixed.state.turns.map((t) => t.criteriaPassed)).toEqual([6, 0, 0, 0, 0])
    // The ERROR prints the current count, not the peak.
    expect(warnings(fixed.log)).toEqual([
      'WARNING: Feedback stall: identical feedback (sig=7c2fd91d) for 5 turns with 6 criteria passing (extended threshold for partial progress)',
      'ERROR: Feedback stall detected for TASK-X: identical feedback with no criteria progress (0 criteria passing). Exiting loop early.',
    ])
  })

  it('perspective resets blank the feedback sent on turns 3 and 5 but keep the stall history', () => {
    const {state} = replay({maxTurns: 5}, turns(Array.from({length: 5}, () => feedbackTurn(AC, 0))), FIXED)
    expect(state.turns.map((t) => t.perspectiveReset)).toEqual([false, false, true])
    expect(state.turns.map((t) => t.previousFeedback)).toEqual([null, AC, null])
    expect(state.stall.history).toHaveLength(3)
    expect(state.result).toMatchObject({outcome: 'unrecoverable_stall', turn: 3})
  })

  it('approval is checked before stall detection, and empty feedback never reaches the detector', () => {
    const {state} = replay({maxTurns: 5}, turns([feedbackTurn(AC), feedbackTurn(AC), feedbackTurn(''), approveTurn()]), LEGACY)
    expect(state.result).toMatchObject({outcome: 'approved', turn: 4})
    expect(state.stall.history).toHaveLength(2)
    expect(state.turns[2]!.stallSkipped).toBe('empty-feedback')
  })

  it('ends on an error turn with "Critical error on turn N" and on an invalid decision', () => {
    const error: TurnOutcome = {decision: 'error', feedback: null, playerResult: {success: false, report: null, error: 'boom'}, coachResult: null}
    expect(warnings(replay({}, turns([feedbackTurn(AC), error]), FIXED).log)).toEqual(['ERROR: Critical error on turn 2'])
    const odd = replay({}, turns([{...feedbackTurn(AC), decision: 'reject'}]), FIXED)
    expect(odd.state.result).toMatchObject({outcome: 'error', cause: 'invalid-decision'})
    expect(warnings(odd.log)).toEqual(['ERROR: Invalid decision: reject'])
  })

  it('cancellation before the Player phase and after a turn (docs/guardkit-logic.md §8.7)', () => {
    const before = replay({}, [...turns([feedbackTurn(AC)]), {kind: 'cancel'}], FIXED)
    expect(before.state.result).toMatchObject({outcome: 'cancelled', turn: 2})
    expect(before.log.at(-1)!.message).toBe('Cancellation requested for TASK-X at turn 2 (before Player phase)')
    const between: TurnOutcome = {decision: 'error', feedback: null, playerResult: {success: true, report: {}, error: null}, coachResult: null}
    const after = replay({}, [{kind: 'turn', outcome: between, cancellation: 'between-player-and-coach'}], FIXED)
    expect(after.state.result).toMatchObject({outcome: 'cancelled', turn: 1})
    expect(after.log.slice(-2).map((r) => r.message)).toEqual([
      'Cancellation detected for TASK-X between Player and Coach at turn 1',
      'Cancellation detected after turn 1 for TASK-X',
    ])
  })

  it("FeatureOrchestrator's timeout is the recorded outcome even though the thread runs on", () => {
    const {state, log} = replay({maxTurns: 18, taskId: 'TASK-DB-003'}, [...turns([feedbackTurn(AC)]), {kind: 'timeout', seconds: 2400}, ...turns([feedbackTurn('x')])], LEGACY)
    expect(recordedOutcome(state)).toBe('timeout')
    expect(state.turns).toHaveLength(2)
    expect(log.find((r) => r.level === 'WARNING')).toEqual({
      level: 'WARNING',
      logger: 'guardkit.orchestrator.feature_orchestrator',
      message: 'Task TASK-DB-003 timed out after 2400s (40 min)',
    })
  })

  it('legacy crashes on a partial promise in the progress display; fixed goes on (D31)', () => {
    const rec: TurnOutcome = {...feedbackTurn(AC), playerResult: {success: true, report: {completion_promises: [{criterion_id: 'AC-001', status: 'partial'}]}, error: null}}
    const legacy = replay({acceptanceCriteria: ['a', 'b']}, turns([rec]), LEGACY)
    expect(legacy.state.result).toMatchObject({outcome: 'error', cause: 'exception', exception: {type: 'ValueError', message: "'partial' is not a valid CriterionStatus"}})
    expect(warnings(legacy.log)).toEqual(["ERROR: Orchestration failed for TASK-X: 'partial' is not a valid CriterionStatus"])
    const fixed = replay({acceptanceCriteria: ['a', 'b']}, turns([rec]), FIXED)
    expect(fixed.state.result).toBeNull()
    expect(fixed.state.nextTurn).toBe(2)
  })
})

describe('the context pollution rule (docs/guardkit-logic.md §8.1)', () => {
  it('three failing checkpoints with none passing end the run at turn 3, whatever the feedback', () => {
    const events = turns(['a', 'b', 'c', 'd'].map((f) => feedbackTurn(`- missing results for turn ${f}`)))
    const {state, log} = replay({enableCheckpoints: true}, events, FIXED)
    expect(state.result).toMatchObject({outcome: 'unrecoverable_stall', turn: 3, cause: 'context-pollution'})
    expect(state.stall.history).toHaveLength(2)
    expect(warnings(log)).toEqual([
      'WARNING: Context pollution detected: 3 consecutive test failures in turns [1, 2, 3]',
      'WARNING: No passing checkpoints found in history',
      'ERROR: Unrecoverable stall detected for TASK-X: context pollution detected but no passing checkpoint exists. Exiting loop early to avoid wasting turns.',
    ])
  })

  it('identical feedback on failing-gate turns stops at 3 through this rule, not the stall detector', () => {
    const {state} = replay({enableCheckpoints: true}, turns(Array.from({length: 5}, () => feedbackTurn(AC, 0, 4, false))), FIXED)
    expect(state.result).toMatchObject({outcome: 'unrecoverable_stall', turn: 3, cause: 'context-pollution'})
    expect(state.turns[2]!.stall).toBeNull()
  })

  it('rolls back to the newest passing checkpoint, sends its feedback on, and skips the stall detector that turn', () => {
    const outcomes = [feedbackTurn('f1', 0, 4, true), feedbackTurn('f2', 0, 4, false), feedbackTurn('f3', 0, 4, false), feedbackTurn('f4', 0, 4, false), feedbackTurn('f5', 0, 4, false)]
    const {state, log} = replay({maxTurns: 5, enablePerspectiveReset: false, enableCheckpoints: true}, turns(outcomes), FIXED)
    expect(state.turns[3]!.pollution).toMatchObject({kind: 'rollback', target: 1})
    expect(state.turns[4]!.previousFeedback).toBe('f1')
    expect(state.checkpoints.map((c) => c.turn)).toEqual([1, 5])
    expect(state.stall.history).toHaveLength(4)
    expect(warnings(log)).toContain('WARNING: Context pollution detected, rolling back from turn 4 to turn 1')
    expect(state.result?.outcome).toBe('max_turns_exceeded')
  })
})
