import type {LogicFlags} from '../changes.js'
import {LOGGERS, type LogSink} from '../log-sink.js'
import {pyFormatFixed} from '../python/format.js'
import {pyStr, pyStrGet} from '../python/repr.js'
import {pyLen, pySlice} from '../python/strings.js'
import {completionPromisesFromReport, type CompletionPromise} from './completion-promise.js'
import {enumValueError, type PyExceptionValue} from './py-exception.js'
import {asArray, asObject, dictGet, type TurnOutcome} from './turn-outcome.js'

/** `CriterionVerification` as the display reads it; `result` is a `VerificationResult`. */
interface CriterionVerification {
  readonly criterion_id: unknown
  readonly result: 'verified' | 'rejected'
  readonly notes: string
}

/** What one "Criteria Progress (Turn N)" display showed, or the exception it raised. */
export type CriteriaProgress =
  | {readonly kind: 'skipped'}
  | {
      readonly kind: 'shown'
      readonly verified: number
      readonly rejected: number
      readonly pending: number
      readonly total: number
      /** The printed percentage: of the promises, not of the criteria (0 without promises). */
      readonly percent: string
    }
  | {readonly kind: 'crashed'; readonly exception: PyExceptionValue}

const MAX_NOTES = 60
const MAX_TEXT = 50
/** Only the first three summary lines are logged: the counts line and at most two rejected lines. */
const SUMMARY_LINES = 3

/**
 * `AutoBuildOrchestrator._display_criteria_progress(turn_record, acceptance_criteria)` (docs/guardkit-logic.md §8.6).
 * No-op without criteria. In legacy a promise status other than complete/incomplete raises
 * ValueError here, unguarded in `_loop_phase`: the orchestration crashes (D31).
 */
export function displayCriteriaProgress(
  rec: TurnOutcome,
  acceptanceCriteria: readonly string[],
  turn: number,
  flags: LogicFlags,
  log: LogSink,
): CriteriaProgress {
  if (acceptanceCriteria.length === 0) return {kind: 'skipped'}
  let promises: CompletionPromise[] = []
  const player = rec.playerResult
  if (player?.success && player.report) {
    const parsed = completionPromisesFromReport(player.report, flags, log)
    if (!parsed.ok) return {kind: 'crashed', exception: parsed.exception}
    promises = parsed.value
  }
  const verifications: CriterionVerification[] = []
  const coach = rec.coachResult
  if (coach?.success && coach.report) {
    for (const raw of asArray(dictGet(coach.report, 'criteria_verification', []))) {
      const v = asObject(raw) ?? {}
      const result = dictGet(v, 'result', 'rejected')
      // An unknown result raises in both versions; the Coach never writes one (docs/guardkit-logic.md §8.6).
      if (result !== 'verified' && result !== 'rejected') return {kind: 'crashed', exception: enumValueError(result, 'VerificationResult')}
      verifications.push({criterion_id: dictGet(v, 'criterion_id', ''), result, notes: pyStrGet(v, 'notes', '')})
    }
  }

  const verified = verifications.filter((v) => v.result === 'verified').length
  const rejected = verifications.filter((v) => v.result === 'rejected').length
  const pending = acceptanceCriteria.length - verifications.length
  // Looked up by id, the last verification of an id wins.
  const byId = new Map<unknown, CriterionVerification>()
  for (const v of verifications) byId.set(v.criterion_id, v)
  const promisedVerified = promises.filter((p) => byId.get(p.criterion_id)?.result === 'verified').length
  const pct = promises.length === 0 ? 0 : (100 * promisedVerified) / promises.length
  const percent = pyFormatFixed(pct, 0)
  log.emit('INFO', LOGGERS.autobuild, `Criteria Progress (Turn ${turn}): ${verified}/${acceptanceCriteria.length} verified (${percent}%)`)

  acceptanceCriteria.forEach((text, i) => {
    const id = `AC-${String(i + 1).padStart(3, '0')}`
    const [icon, status] = criterionIcon(byId.get(id), promises.find((p) => p.criterion_id === id), flags)
    log.emit('DEBUG', LOGGERS.autobuild, `  [${icon}] ${id}: ${status} - ${ellipsis(text, MAX_TEXT)}`)
  })

  const summary = [`Criteria: ${verified} verified, ${rejected} rejected, ${pending} pending`]
  for (const v of verifications) if (v.result === 'rejected') summary.push(`  ${pyStr(v.criterion_id)}: ${ellipsis(v.notes, MAX_NOTES)}`)
  for (const line of summary.slice(0, SUMMARY_LINES)) log.emit('INFO', LOGGERS.autobuild, line)
  return {kind: 'shown', verified, rejected, pending, total: acceptanceCriteria.length, percent: `${percent}%`}
}

/** The per-criterion DEBUG icon: the promise is the first with that id (the Coach keeps the last). */
function criterionIcon(v: CriterionVerification | undefined, promise: CompletionPromise | undefined, flags: LogicFlags): [string, string] {
  if (v?.result === 'verified') return ['+', 'VERIFIED']
  if (v?.result === 'rejected') return ['x', 'REJECTED']
  if (!promise) return [' ', 'PENDING']
  // partialStatusEnum (D31): fixed shows promised/partial, legacy claimed/incomplete.
  if (flags.partialStatusEnum) {
    if (promise.status === 'complete') return ['~', 'PROMISED']
    if (promise.status === 'partial') return ['?', 'PARTIAL']
    return [' ', 'PENDING']
  }
  return promise.status === 'complete' ? ['?', 'CLAIMED'] : ['-', 'INCOMPLETE']
}

function ellipsis(text: string, n: number): string {
  return pyLen(text) > n ? pySlice(text, 0, n) + '...' : text
}
