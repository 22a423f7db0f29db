import type {LogicFlags} from '../changes.js'
import {LOGGERS, type LogSink} from '../log-sink.js'
import {feedbackSignatures, type FeedbackSignatures} from './stall-signature.js'

/** `_is_feedback_stalled`'s default threshold (docs/guardkit-logic.md §8.1). */
export const STALL_THRESHOLD = 3
/** Fixed's extended threshold for partial progress: `threshold + 2` (D28). */
export const EXTENDED_THRESHOLD_EXTRA = 2

/** One `(sig, count)` pair of `_feedback_history`. */
export interface StallEntry {
  readonly signature: string
  readonly count: number
}

/** `_feedback_history`: appended on every call, never cleared (not even by perspective resets). */
export interface StallDetectorState {
  readonly history: readonly StallEntry[]
}

export const INITIAL_STALL_STATE: StallDetectorState = {history: []}

/** Why one call fired or not, in the order `_is_feedback_stalled` decides. */
export type StallReason =
  | {readonly code: 'history-too-short'; readonly have: number; readonly need: number}
  | {readonly code: 'signatures-differ'; readonly signatures: readonly string[]}
  | {readonly code: 'counts-differ'; readonly counts: readonly number[]}
  /** legacy: `threshold` identical signatures with one count, whatever its value. */
  | {readonly code: 'identical'; readonly count: number}
  /** fixed: identical signatures, count 0. */
  | {readonly code: 'identical-zero-progress'}
  /** fixed: identical signatures and counts over the extended window. */
  | {readonly code: 'identical-extended'; readonly count: number; readonly extended: number}
  /** fixed: identical over `threshold` with a non-zero count, but not (yet) over the extended window. */
  | {
      readonly code: 'partial-progress-below-extended'
      readonly count: number
      readonly extended: number
      readonly have: number
      readonly extendedSignatures: readonly string[]
      readonly extendedCounts: readonly number[]
    }

/** Everything one `_is_feedback_stalled(feedback, count)` call saw and decided. */
export interface StallCheck {
  readonly feedback: string
  readonly signatures: FeedbackSignatures
  /** The count fed in (legacy: this turn's verified count; fixed: the running peak, D29). */
  readonly count: number
  readonly threshold: number
  /** History length after this call's append. */
  readonly historyLength: number
  /** The last `threshold` entries, when there were enough to examine. */
  readonly window: readonly StallEntry[]
  /** The last `threshold + 2` entries, when fixed examined them. */
  readonly extendedWindow: readonly StallEntry[] | null
  readonly stalled: boolean
  readonly reason: StallReason
}

export interface StallStep {
  readonly state: StallDetectorState
  readonly check: StallCheck
}

/**
 * `AutoBuildOrchestrator._is_feedback_stalled(feedback, criteria_passed_count, threshold=3)`
 * (docs/guardkit-logic.md §8.4) as a pure step: the history is the state, the WARNING/INFO records go to `log`.
 */
export function checkFeedbackStall(
  state: StallDetectorState,
  feedback: string,
  count: number,
  flags: LogicFlags,
  log: LogSink,
  threshold: number = STALL_THRESHOLD,
  /** `feedbackSignatures(feedback, flags)`, when the caller already has it (signing is the costly part of a call). */
  signatures: FeedbackSignatures = feedbackSignatures(feedback, flags),
): StallStep {
  const sig = signatures.used
  const history = [...state.history, {signature: sig, count}]
  const base = {feedback, signatures, count, threshold, historyLength: history.length}
  const done = (stalled: boolean, reason: StallReason, window: readonly StallEntry[], extendedWindow: readonly StallEntry[] | null = null): StallStep => ({
    state: {history},
    check: {...base, window, extendedWindow, stalled, reason},
  })

  if (history.length < threshold) return done(false, {code: 'history-too-short', have: history.length, need: threshold}, [])
  const recent = history.slice(-threshold)
  if (!allSame(recent.map((e) => e.signature))) return done(false, {code: 'signatures-differ', signatures: recent.map((e) => e.signature)}, recent)
  if (!allSame(recent.map((e) => e.count))) return done(false, {code: 'counts-differ', counts: recent.map((e) => e.count)}, recent)
  const count0 = recent[0]!.count

  // extendedStall (D28): legacy fires on any constant count; the "0%" of its ERROR text is not enforced.
  if (!flags.extendedStall) {
    log.emit('WARNING', LOGGERS.autobuild, `Feedback stall: identical feedback (sig=${sig}) for ${threshold} turns with ${count0} criteria passing`)
    return done(true, {code: 'identical', count: count0}, recent)
  }
  if (count0 === 0) {
    log.emit('WARNING', LOGGERS.autobuild, `Feedback stall: identical feedback (sig=${sig}) for ${threshold} turns with 0 criteria passing`)
    return done(true, {code: 'identical-zero-progress'}, recent)
  }
  const ext = threshold + EXTENDED_THRESHOLD_EXTRA
  const extendedWindow = history.length >= ext ? history.slice(-ext) : history.slice()
  if (history.length >= ext && allSame(extendedWindow.map((e) => e.signature)) && allSame(extendedWindow.map((e) => e.count))) {
    log.emit(
      'WARNING',
      LOGGERS.autobuild,
      `Feedback stall: identical feedback (sig=${sig}) for ${ext} turns with ${count0} criteria passing (extended threshold for partial progress)`,
    )
    return done(true, {code: 'identical-extended', count: count0, extended: ext}, recent, extendedWindow)
  }
  log.emit(
    'INFO',
    LOGGERS.autobuild,
    `Partial progress stall warning: ${count0} criteria passing but stuck for ${history.length} turns. Extended threshold: ${ext} turns.`,
  )
  return done(
    false,
    {
      code: 'partial-progress-below-extended',
      count: count0,
      extended: ext,
      have: history.length,
      extendedSignatures: extendedWindow.map((e) => e.signature),
      extendedCounts: extendedWindow.map((e) => e.count),
    },
    recent,
    extendedWindow,
  )
}

/** Successive calls on one orchestrator instance (the `is_feedback_stalled_sequence` shape). */
export function runFeedbackStallSequence(
  calls: readonly (readonly [string, number])[],
  flags: LogicFlags,
  log: LogSink,
  threshold: number = STALL_THRESHOLD,
): {readonly results: boolean[]; readonly state: StallDetectorState; readonly checks: StallCheck[]} {
  let state = INITIAL_STALL_STATE
  const checks: StallCheck[] = []
  for (const [feedback, count] of calls) {
    const step = checkFeedbackStall(state, feedback, count, flags, log, threshold)
    state = step.state
    checks.push(step.check)
  }
  return {results: checks.map((c) => c.stalled), state, checks}
}

function allSame<T>(values: readonly T[]): boolean {
  return values.every((v) => v === values[0])
}
