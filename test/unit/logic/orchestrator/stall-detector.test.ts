import {describe, expect, it} from 'vitest'
import {collectingSink} from '../../../../src/logic/log-sink.js'
import {checkFeedbackStall, describeStallCheck, INITIAL_STALL_STATE, runFeedbackStallSequence} from '../../../../src/logic/orchestrator/index.js'
import {db003Feedback, FIXED, LEGACY, flagsOfProfile} from './helpers.js'

const AC = '- Not all acceptance criteria met:\n  • AC one'

// Expected values: docs/guardkit-logic.md §8.4 rules and examples, the TASK-DB-003 sequence of §8.1 (`loop_phase#6`).
describe('_is_feedback_stalled as a state machine (docs/guardkit-logic.md §8.4)', () => {
  it('appends (sig, count) on every call, including the call that fires', () => {
    const run = runFeedbackStallSequence([[AC, 0], [AC, 0], [AC, 0], [AC, 0]], FIXED, collectingSink())
    expect(run.results).toEqual([false, false, true, true])
    expect(run.state.history).toHaveLength(4)
  })

  it('reports the window examined and why each call fired or not', () => {
    const log = collectingSink()
    const run = runFeedbackStallSequence([[AC, 2], [AC, 2], [AC, 2], [AC, 1]], FIXED, log)
    const [first, , third, fourth] = run.checks
    expect(first!.reason).toEqual({code: 'history-too-short', have: 1, need: 3})
    expect(first!.window).toEqual([])
    expect(third!.reason.code).toBe('partial-progress-below-extended')
    expect(third!.window.map((e) => e.count)).toEqual([2, 2, 2])
    expect(fourth!.reason).toEqual({code: 'counts-differ', counts: [2, 2, 1]})
    expect(describeStallCheck(third!)).toContain('extended threshold needs 5 turns, 3 recorded')
    // Only the partial-progress INFO was logged, with the history length.
    expect(log.records.map((r) => `${r.level}: ${r.message}`)).toEqual([
      'INFO: Partial progress stall warning: 2 criteria passing but stuck for 3 turns. Extended threshold: 5 turns.',
    ])
  })

  it('legacy fires on any constant count; fixed needs the extended window once the count is non-zero (D28)', () => {
    const calls: [string, number][] = [[AC, 3], [AC, 3], [AC, 3]]
    expect(runFeedbackStallSequence(calls, LEGACY, collectingSink()).checks[2]!.reason).toEqual({code: 'identical', count: 3})
    expect(runFeedbackStallSequence(calls, FIXED, collectingSink()).results).toEqual([false, false, false])
  })

  it('fixed fires at the extended threshold with its own WARNING text', () => {
    const log = collectingSink()
    const run = runFeedbackStallSequence(Array.from({length: 5}, (): [string, number] => [AC, 1]), FIXED, log)
    expect(run.checks[4]!.reason).toEqual({code: 'identical-extended', count: 1, extended: 5})
    expect(run.checks[4]!.extendedWindow).toHaveLength(5)
    expect(log.records.at(-1)!.message).toBe(
      'Feedback stall: identical feedback (sig=7c2fd91d) for 5 turns with 1 criteria passing (extended threshold for partial progress)',
    )
  })

  it('a different kind of feedback breaks the window (seed 002 F5)', () => {
    const step = (state: typeof INITIAL_STALL_STATE, fb: string) => checkFeedbackStall(state, fb, 0, LEGACY, collectingSink())
    let s = step(INITIAL_STALL_STATE, AC).state
    s = step(s, '- Coverage threshold not met').state
    const third = step(s, AC).check
    expect(third.reason.code).toBe('signatures-differ')
    expect(third.window.map((e) => e.signature)).toEqual(['7c2fd91d', 'f696a94c', '7c2fd91d'])
  })

  it('seed 002 Appendix B: legacy never fires on 17 varying test failures; fixed fires at turn 5', () => {
    const calls = db003Feedback(17).map((f): [string, number] => [f, 0])
    expect(runFeedbackStallSequence(calls, LEGACY, collectingSink()).results.some(Boolean)).toBe(false)
    const fixed = runFeedbackStallSequence(calls, FIXED, collectingSink())
    expect(fixed.results.indexOf(true) + 1).toBe(5)
    expect(fixed.checks[4]!.signatures.used).toBe('82511af6')
    expect(fixed.checks[4]!.reason).toEqual({code: 'identical-zero-progress'})
  })

  it('the seed 002 as-run commit (351c53fa) has the extended threshold but not the normalisation, so it never fires either', () => {
    const calls = db003Feedback(17).map((f): [string, number] => [f, 0])
    expect(runFeedbackStallSequence(calls, flagsOfProfile('as-run:351c53fa'), collectingSink()).results.some(Boolean)).toBe(false)
  })

  it('honours a custom threshold (extended = threshold + 2)', () => {
    const run = runFeedbackStallSequence([[AC, 4], [AC, 4], [AC, 4], [AC, 4]], FIXED, collectingSink(), 2)
    expect(run.results).toEqual([false, false, false, true])
  })
})
