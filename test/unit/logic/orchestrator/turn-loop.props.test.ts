import {fc, test} from '../../../helpers/prop.js'
import {describe, expect} from 'vitest'
import {NULL_SINK} from '../../../../src/logic/log-sink.js'
import {initialLoopState, runLoop, stallTurn, stepLoop, type LoopEvent} from '../../../../src/logic/orchestrator/index.js'
import {approveTurn, FIXED, feedbackTurn, LEGACY} from './helpers.js'

const FEEDBACKS = ['- Not all acceptance criteria met:\n  • AC one', '- Coverage threshold not met', '', '- Independent test verification failed:\n  ==== 1 failed in 1.73s ====']
const turnArb = fc.oneof(
  {weight: 9, arbitrary: fc.record({feedback: fc.constantFrom(...FEEDBACKS), verified: fc.integer({min: 0, max: 3})})},
  {weight: 1, arbitrary: fc.constant('approve' as const)},
)
const eventsArb = fc.array(turnArb, {minLength: 1, maxLength: 12}).map((ts): LoopEvent[] =>
  ts.map((t) => ({kind: 'turn', outcome: t === 'approve' ? approveTurn() : feedbackTurn(t.feedback, t.verified, 3)})),
)
const flagsArb = fc.constantFrom(LEGACY, FIXED)
const config = (reset: boolean) => ({taskId: 'TASK-X', maxTurns: 12, enableCheckpoints: false, enablePerspectiveReset: reset})

// Properties stated by docs/guardkit-logic.md §8.1: resets only blank the Player's feedback; empty feedback skips the detector.
describe('_loop_phase properties (docs/guardkit-logic.md §8.1)', () => {
  test.prop([eventsArb, flagsArb], {numRuns: 300})('perspective resets never change the outcome or the stall turn', (events, flags) => {
    const withReset = runLoop(initialLoopState(config(true)), events, flags, NULL_SINK)
    const without = runLoop(initialLoopState(config(false)), events, flags, NULL_SINK)
    expect(withReset.result).toEqual(without.result)
    expect(stallTurn(withReset)).toBe(stallTurn(without))
    expect(withReset.stall).toEqual(without.stall)
  })

  test.prop([eventsArb, flagsArb], {numRuns: 300})('the detector sees exactly the executed feedback turns with non-empty feedback', (events, flags) => {
    const state = runLoop(initialLoopState(config(true)), events, flags, NULL_SINK)
    const fed = state.turns.filter((t) => t.outcome.decision === 'feedback' && t.outcome.feedback)
    expect(state.stall.history).toHaveLength(fed.length)
    expect(state.turns.filter((t) => t.stall).map((t) => t.turn)).toEqual(fed.map((t) => t.turn))
  })

  test.prop([eventsArb, flagsArb], {numRuns: 200})('an ended loop ignores further turns', (events, flags) => {
    const state = runLoop(initialLoopState(config(true)), events, flags, NULL_SINK)
    if (state.result) expect(stepLoop(state, {kind: 'turn', outcome: approveTurn()}, flags, NULL_SINK)).toBe(state)
    else expect(state.turns).toHaveLength(events.length)
  })
})
