import type {CriterionResult, CriterionVerdict, RequirementsValidation} from './types.js'

/** `"AC-%03d" % (i + 1)`: the id GuardKit gives the i-th criterion (0-based i). */
export function criterionId(index: number): string {
  return `AC-${String(index + 1).padStart(3, '0')}`
}

export function criterionResult(index: number, text: unknown, verdict: CriterionVerdict, evidence: unknown): CriterionResult {
  return {criterion_id: criterionId(index), criterion_text: text, result: verdict, status: verdict, evidence, notes: evidence}
}

/**
 * `RequirementsValidation(criteria_total=len(ac), criteria_met=total - len(missing),
 * all_criteria_met=not missing, …)`, with `missing` the texts of the rejected criteria in order.
 * `_build_all_unmet` is the one builder that does not use this rule (docs/guardkit-logic.md §7.7).
 */
export function validationFrom(results: readonly CriterionResult[]): RequirementsValidation {
  const missing = results.filter((r) => r.result === 'rejected').map((r) => r.criterion_text)
  return {
    criteria_total: results.length,
    criteria_met: results.length - missing.length,
    all_criteria_met: missing.length === 0,
    missing,
    criteria_results: results,
  }
}

/** `validation_results.requirements` of `coach_turn_N.json` (docs/guardkit-logic.md §7.8): the four summary keys, in order. */
export function requirementsSummary(v: RequirementsValidation): {criteria_total: number; criteria_met: number; all_criteria_met: boolean; missing: readonly unknown[]} {
  return {criteria_total: v.criteria_total, criteria_met: v.criteria_met, all_criteria_met: v.all_criteria_met, missing: v.missing}
}
