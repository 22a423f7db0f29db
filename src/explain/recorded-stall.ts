import type {LogicFlags} from '../logic/changes.js'
import {NULL_SINK} from '../logic/log-sink.js'
import {describeStallCheck} from '../logic/orchestrator/stall-reason.js'
import {checkFeedbackStall, INITIAL_STALL_STATE, STALL_THRESHOLD, type StallCheck} from '../logic/orchestrator/stall-detector.js'
import {feedbackSignatures, type FeedbackSignatures} from '../logic/orchestrator/stall-signature.js'
import {builtinProfile} from '../logic/profiles.js'
import type {TaskRun} from '../model/run-record.js'
import type {TaskReplay} from '../replay/types.js'
import {feedbackByTurn, feedbackCategory, verifiedOn, type FeedbackView} from './record-facts.js'

/**
 * The stall detector (docs/guardkit-logic.md §8.4) run over the feedback the Player really got, turn by turn, under a
 * profile's flags: what it would have signed, the window it looked at and why it fired or not. The
 * replay does the same over replayed feedback; this one needs no replay, so it works on any era.
 * Signatures of turns known only from the log's 80-code-point excerpt are marked `approximate`.
 */
export interface RecordedStallRow {
  readonly turn: number
  readonly feedback: FeedbackView
  readonly category: string
  /** The turn's own verified count (legacy) or the running peak (peakCriteriaCount). */
  readonly count: number
  readonly check: StallCheck
  readonly reason: string
  readonly approximate: boolean
}

export interface RecordedStall {
  readonly rows: readonly RecordedStallRow[]
  /** The first turn whose check fired, or null. */
  readonly firedAt: number | null
  readonly threshold: number
}

/** Flags of a built-in profile (legacy, fixed, pre-acr, as-run:<sha>); legacy when unknown. */
export function flagsOfProfile(name: string | null): LogicFlags {
  return (name ? builtinProfile(name) : null)?.flags ?? builtinProfile('legacy')!.flags
}

/**
 * Feed the recorded feedback of every feedback turn to `_is_feedback_stalled`, in order, as
 * `_loop_phase` does (docs/guardkit-logic.md §8.1): turns after a rollback or without feedback text are not fed.
 */
export function runRecordedStall(task: TaskRun, flags: LogicFlags): RecordedStall {
  let memo = RECORDED.get(task)
  if (memo === undefined) RECORDED.set(task, (memo = {runs: new Map(), signed: new Map()}))
  let hit = memo.runs.get(flags)
  if (hit === undefined) memo.runs.set(flags, (hit = recordedStall(task, flags, memo.signed)))
  return hit
}

/**
 * The detector's runs per task run (by identity, never by content across task runs) and flag record:
 * the verdict, the stall table and the stall findings each ask for the same task's legacy, fixed and
 * as-run runs, and signing a feedback text (normalise + two md5) is the costly part of each
 * (docs/performance.md "Throughput"). `signed`: the task's own feedback texts signed once, for
 * every flag record (which signature a profile uses is picked per call). Weak: an entry lives as long
 * as its task run. The results are read-only data.
 */
const RECORDED = new WeakMap<TaskRun, {readonly runs: Map<LogicFlags, RecordedStall>; readonly signed: Map<string, FeedbackSignatures>}>()

function signedFor(signed: Map<string, FeedbackSignatures>, text: string, flags: LogicFlags): FeedbackSignatures {
  let both = signed.get(text)
  if (both === undefined) signed.set(text, (both = feedbackSignatures(text, flags)))
  const used = flags.stallNormalize ? both.normalized : both.raw
  return used === both.used ? both : {raw: both.raw, normalizedText: both.normalizedText, normalized: both.normalized, used}
}

function recordedStall(task: TaskRun, flags: LogicFlags, signed: Map<string, FeedbackSignatures>): RecordedStall {
  const feedback = feedbackByTurn(task)
  const rows: RecordedStallRow[] = []
  let state = INITIAL_STALL_STATE
  let peak = 0
  let firedAt: number | null = null
  const rolledBack = new Set(task.events.filter((e) => e.kind === 'rollback').map((e) => e.turn))
  for (const t of [...task.turns].sort((a, b) => a.turn - b.turn)) {
    if (t.coach.decision?.value !== 'feedback' || rolledBack.has(t.turn)) continue
    const fb = feedback.get(t.turn)
    if (!fb || fb.text === '') continue
    const own = verifiedOn(t) ?? 0
    peak = Math.max(peak, own)
    // peakCriteriaCount (D29): fixed feeds the running peak, legacy the turn's own count.
    const count = flags.peakCriteriaCount ? peak : own
    const step = checkFeedbackStall(state, fb.text, count, flags, NULL_SINK, STALL_THRESHOLD, signedFor(signed, fb.text, flags))
    state = step.state
    rows.push({
      turn: t.turn,
      feedback: fb,
      category: feedbackCategory(fb.text),
      count,
      check: step.check,
      reason: describeStallCheck(step.check),
      approximate: fb.completeness !== 'full',
    })
    if (step.check.stalled) {
      firedAt = t.turn
      break
    }
  }
  return {rows, firedAt, threshold: STALL_THRESHOLD}
}

/** Consecutive feedback turns with one feedback category and one recorded count. */
export interface RepeatRun {
  readonly category: string
  /** Criteria passing on each of the turns, as recorded; null when no turn of the run records a count. */
  readonly count: number | null
  readonly turns: readonly number[]
}

/** The criteria count of a run of feedback, as recorded: a count no record holds is said to be missing, not 0. */
export function passingPhrase(count: number | null): string {
  return count === null ? 'with no criteria count in the log' : `with ${count} criteria passing`
}

export function repeatRuns(task: TaskRun, feedback: Map<number, FeedbackView> = feedbackByTurn(task)): RepeatRun[] {
  const runs: RepeatRun[] = []
  let current: {category: string; count: number | null; turns: number[]} | null = null
  for (const t of [...task.turns].sort((a, b) => a.turn - b.turn)) {
    const fb = t.coach.decision?.value === 'feedback' ? feedback.get(t.turn) : undefined
    if (!fb) {
      current = null
      continue
    }
    const category = feedbackCategory(fb.text)
    // a turn whose criteria count is not in the log is not counted as 0 passing
    const count = t.coach.criteriaMet?.value ?? null
    const last = current?.turns[current.turns.length - 1]
    if (current && current.category === category && current.count === count && last === t.turn - 1) current.turns.push(t.turn)
    else {
      current = {category, count, turns: [t.turn]}
      runs.push(current)
    }
  }
  return runs
}

/** When normalised signatures (fixed) would have stopped the loop, and what that rests on. */
export interface FixedStop {
  readonly turn: number | null
  /**
   * `replay`: the fixed replay's stall turn; `recorded`: the detector over full feedback texts; `excerpt`:
   * over the log's excerpts; `unknown`: the excerpts cannot tell. When the fixed replay is undetermined, the
   * recorded feedback is what is normalised (the run's own texts: `stallNormalize` alone).
   */
  readonly basis: 'replay' | 'recorded' | 'excerpt' | 'unknown'
}

export function fixedStop(task: TaskRun, replays: Readonly<Record<string, TaskReplay>>, asRun: RecordedStall, fixed: RecordedStall): FixedStop {
  const replay = replays['fixed']
  // An undetermined fixed replay decides nothing here: what normalisation does to the run's own texts still holds.
  if (replay && replay.outcome.kind !== 'not-modelled' && replay.outcome.kind !== 'branches') {
    return {turn: replay.outcome.kind === 'replayed' && replay.outcome.outcome === 'unrecoverable_stall' ? replay.stallTurn : null, basis: 'replay'}
  }
  const approximate = fixed.rows.some((r) => r.approximate && (fixed.firedAt === null || r.turn <= fixed.firedAt))
  if (!approximate) return {turn: fixed.firedAt, basis: 'recorded'}
  // The run's own detector firing on the same excerpts, where the record shows no stall, proves the excerpts hide what differed.
  if (asRun.firedAt !== null && task.stall?.kind !== 'feedback' && (fixed.firedAt === null || asRun.firedAt <= fixed.firedAt)) return {turn: null, basis: 'unknown'}
  return {turn: fixed.firedAt, basis: 'excerpt'}
}
