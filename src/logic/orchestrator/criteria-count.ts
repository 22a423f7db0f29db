import {asArray, asObject, dictGet, type JsonObject, type TurnOutcome} from './turn-outcome.js'

/**
 * `AutoBuildOrchestrator._count_criteria_passed(turn_record)` (docs/guardkit-logic.md §8.6, identical in both
 * versions): the `criteria_results` whose `status` is exactly `verified` (lower case; `result` is
 * not read). 0 without a Coach result or report.
 */
export function countCriteriaPassed(rec: TurnOutcome): number {
  const report = rec.coachResult?.report
  return report ? countVerifiedCriteria(report) : 0
}

/** The same count over a Coach report dict (coach_turn_N.json). */
export function countVerifiedCriteria(report: JsonObject): number {
  const verification = asObject(dictGet(report, 'acceptance_criteria_verification', {})) ?? {}
  return asArray(dictGet(verification, 'criteria_results', [])).filter((r) => asObject(r)?.status === 'verified').length
}
