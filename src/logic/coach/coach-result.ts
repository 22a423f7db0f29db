import type {LogicFlags} from '../changes.js'
import type {IndependentTestResult} from './independent-test-result.js'
import {qualityGatesToDict, type QualityGateStatus} from './quality-gates.js'

/** One entry of `issues` in `coach_turn_N.json`; key order is GuardKit's insertion order. */
export type CoachIssue = Readonly<Record<string, unknown>>

/** The requirements verdict `validate_requirements` returns (docs/guardkit-logic.md §7.1), as validate() uses it. */
export interface RequirementsVerdict {
  readonly criteria_total: number
  readonly criteria_met: number
  readonly all_criteria_met: boolean
  readonly missing: readonly unknown[]
  /** `CR` dicts (docs/guardkit-logic.md §7.8), passed through untouched. */
  readonly criteria_results: readonly unknown[]
}

/** `CoachValidationResult` (docs/guardkit-logic.md §7.8). */
export interface CoachValidationResult {
  readonly task_id: string
  readonly turn: number
  readonly decision: 'approve' | 'feedback'
  readonly quality_gates: QualityGateStatus | null
  readonly independent_tests: IndependentTestResult | null
  readonly requirements: RequirementsVerdict | null
  readonly issues: readonly CoachIssue[]
  readonly rationale: string
  readonly context_used: unknown
  readonly approved_without_independent_tests: boolean
}

/**
 * `CoachValidationResult.to_dict()` = `coach_turn_{turn}.json` and the orchestrator's
 * `coach_result.report`. `criteria_verification` is empty whenever requirements were not
 * evaluated, which is why gate and test failures feed the stall detector with count 0 (docs/guardkit-logic.md §7.8).
 */
export function coachResultToDict(result: CoachValidationResult, flags: LogicFlags): Record<string, unknown> {
  const criteria = result.requirements ? [...result.requirements.criteria_results] : []
  const dict: Record<string, unknown> = {
    task_id: result.task_id,
    turn: result.turn,
    decision: result.decision,
    validation_results: {
      quality_gates: result.quality_gates ? qualityGatesToDict(result.quality_gates) : null,
      independent_tests: result.independent_tests ? independentTestsToDict(result.independent_tests) : null,
      requirements: result.requirements ? requirementsToDict(result.requirements) : null,
    },
    criteria_verification: criteria,
    acceptance_criteria_verification: {criteria_results: criteria},
    issues: result.issues,
    rationale: result.rationale,
    context_used: result.context_used,
  }
  // conditionalApproval (D23): the field arrived with conditional approval.
  if (flags.conditionalApproval) dict.approved_without_independent_tests = result.approved_without_independent_tests
  return dict
}

/** `raw_output` is never serialised. */
function independentTestsToDict(t: IndependentTestResult): Record<string, unknown> {
  return {tests_passed: t.tests_passed, test_command: t.test_command, test_output_summary: t.test_output_summary, duration_seconds: t.duration_seconds}
}

function requirementsToDict(r: RequirementsVerdict): Record<string, unknown> {
  return {criteria_total: r.criteria_total, criteria_met: r.criteria_met, all_criteria_met: r.all_criteria_met, missing: r.missing}
}

/** A feedback result that stops validation early (no requirements evaluated). */
export function earlyFeedback(
  base: {task_id: string; turn: number; context_used: unknown},
  parts: {quality_gates?: QualityGateStatus | null; independent_tests?: IndependentTestResult | null; issues: readonly CoachIssue[]; rationale: string},
): CoachValidationResult {
  return {
    ...base,
    decision: 'feedback',
    quality_gates: parts.quality_gates ?? null,
    independent_tests: parts.independent_tests ?? null,
    requirements: null,
    issues: parts.issues,
    rationale: parts.rationale,
    approved_without_independent_tests: false,
  }
}
