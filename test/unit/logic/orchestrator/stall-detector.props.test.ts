import {fc, test} from '../../../helpers/prop.js'
import {describe, expect} from 'vitest'
import type {LogicFlags} from '../../../../src/logic/changes.js'
import {NULL_SINK} from '../../../../src/logic/log-sink.js'
import {feedbackSignature} from '../../../../src/logic/orchestrator/stall-signature.js'
import {runFeedbackStallSequence} from '../../../../src/logic/orchestrator/stall-detector.js'
import {feedbackTemplate, feedbackText, fillTemplate, flips, recase, runs, surroundingWhitespace} from '../../../helpers/arbitraries/index.js'
import {FIXED, LEGACY} from '../../../helpers/flags.js'

/** `_is_feedback_stalled` as docs/guardkit-logic.md §8.4 writes it, over already-computed signatures. */
function stalledBySpec(calls: readonly (readonly [string, number])[], threshold: number, fixed: boolean): boolean[] {
  const history: [string, number][] = []
  return calls.map(([sig, count]) => {
    history.push([sig, count])
    if (history.length < threshold) return false
    const recent = history.slice(history.length - threshold)
    if (new Set(recent.map(([s]) => s)).size !== 1) return false
    if (new Set(recent.map(([, c]) => c)).size !== 1) return false
    const count0 = recent[0]![1]
    if (!fixed || count0 === 0) return true
    const ext = threshold + 2
    if (history.length < ext) return false
    const window = history.slice(history.length - ext)
    return new Set(window.map(([s]) => s)).size === 1 && new Set(window.map(([, c]) => c)).size === 1
  })
}

const profile = fc.constantFrom(['legacy', LEGACY] as const, ['fixed', FIXED] as const)
const threshold = fc.integer({min: 1, max: 6})
const count = fc.oneof({weight: 3, arbitrary: fc.constant(0)}, {weight: 2, arbitrary: fc.integer({min: 1, max: 3})})
/** A small pool, so signatures repeat as they do in a stuck run. */
const pooledFeedback = fc.oneof(
  fc.constantFrom('- Coverage threshold not met', '- Not all acceptance criteria met:\n  \u2022 AC one', '  - COVERAGE threshold NOT met  \n', '\ufeff- Coverage threshold not met'),
  feedbackText,
)
const call = fc.tuple(pooledFeedback, count)
const calls = fc.array(call, {maxLength: 14})

/** Feedbacks that share one signature under the profile: fixed, different fillings of one template; legacy, one text recased and re-padded. */
function sameSignatureFeedbacks(flags: LogicFlags, n: number): fc.Arbitrary<string[]> {
  if (flags.stallNormalize) return feedbackTemplate.chain((t) => fc.array(fillTemplate(t), {minLength: n, maxLength: n}))
  return feedbackText.chain((text) =>
    fc.array(fc.tuple(surroundingWhitespace, flips, surroundingWhitespace).map(([lead, f, trail]) => lead + recase(text, f) + trail), {minLength: n, maxLength: n}),
  )
}

const run = (cs: readonly (readonly [string, number])[], flags: LogicFlags, t: number) => runFeedbackStallSequence(cs, flags, NULL_SINK, t)

// docs/guardkit-logic.md §8.4 `_is_feedback_stalled(feedback, count, threshold)`; the seed 002 (varying pytest
// output) and 004 (AE7E) incidents.
describe('the stall detector (docs/guardkit-logic.md §8.4)', () => {
  test.prop([calls, threshold, profile], runs(300))('never fires before `threshold` calls', (cs, t, [, flags]) => {
    const {results} = run(cs, flags, t)
    expect(results.slice(0, t - 1).every((r) => !r)).toBe(true)
  })

  test.prop([calls, threshold, profile], runs(300))('appends (signature, count) on every call, firing or not, and decides as the spec writes it', (cs, t, [name, flags]) => {
    const {results, state} = run(cs, flags, t)
    const sigs = cs.map(([f, c]) => [feedbackSignature(f, flags), c] as const)
    expect(state.history.map((e) => [e.signature, e.count])).toEqual(sigs)
    expect(results).toEqual(stalledBySpec(sigs, t, name === 'fixed'))
  })

  const zeroCountStall = fc
    .tuple(profile, threshold)
    .chain(([[, flags], t]) => fc.record({flags: fc.constant(flags), t: fc.constant(t), prefix: calls, feedbacks: sameSignatureFeedbacks(flags, t)}))
  test.prop([zeroCountStall], runs(300))('fires once history holds `threshold` identical signatures with count 0 (legacy and fixed)', ({flags, t, prefix, feedbacks}) => {
    const {results} = run([...prefix, ...feedbacks.map((f) => [f, 0] as const)], flags, t)
    expect(results[results.length - 1]).toBe(true)
  })

  test.prop([calls, threshold, fc.integer({min: 1, max: 5}), fc.integer({min: 0, max: 4})], runs(300))(
    'under fixed a constant non-zero count needs `threshold + 2` identical calls; legacy fires at `threshold`',
    (prefix, t, c, extra) => {
      const fb = '- Not all acceptance criteria met:\n  \u2022 Config file exists'
      // The call before the run differs (here in its count), so no earlier entry can complete a window.
      const lead = [...prefix, [fb, c + 1] as const]
      const stuck = Array.from({length: t + 2 + extra}, () => [fb, c] as const)
      const first = (flags: LogicFlags) => run([...lead, ...stuck], flags, t).results.slice(lead.length).indexOf(true) + 1
      expect(first(FIXED)).toBe(t + 2)
      expect(first(LEGACY)).toBe(t)
    },
  )
})
