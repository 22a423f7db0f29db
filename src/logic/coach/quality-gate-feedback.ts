import {pyTruthy} from '../python/strings.js'
import {earlyFeedback, type CoachIssue, type CoachValidationResult} from './coach-result.js'
import {pyAddNumbers, pyEqualsNumber, pyGet, pyGreaterOrEqual, pyOr} from './py-values.js'
import type {QualityGateStatus} from './quality-gates.js'

const INCOMPLETE_SESSION =
  'Quality gate evaluation was not completed \u2014 the Player session may have exhausted SDK turns before reaching Phase 4.5. ' +
  'Focus on completing implementation within fewer SDK turns.'

/** `CoachValidator.ARCH_REVIEW_THRESHOLD`, which the issue's `threshold` field echoes. */
const ARCH_REVIEW_THRESHOLD = 60

/**
 * `CoachValidator._feedback_from_gates` (docs/guardkit-logic.md §6.3; identical in both versions): one issue per
 * required gate that failed, in the order tests, coverage, arch, plan audit. Independent tests and
 * requirements are not evaluated that turn (the gate short-circuit, docs/guardkit-logic.md §6.1).
 */
export function feedbackFromGates(
  base: {task_id: string; turn: number; context_used: unknown},
  gates: QualityGateStatus,
  twr: unknown,
): CoachValidationResult {
  const qg = pyGet(twr, 'quality_gates', {})
  const issues: CoachIssue[] = []
  if (gates.tests_required && !pyTruthy(gates.tests_passed)) issues.push(testsIssue(qg))
  if (gates.coverage_required && !pyTruthy(gates.coverage_met)) {
    issues.push({
      severity: 'must_fix',
      category: 'coverage',
      description: 'Coverage threshold not met',
      details: {line_coverage: pyGet(qg, 'coverage', 0), branch_coverage: pyGet(qg, 'branch_coverage', 0)},
    })
  }
  if (gates.arch_review_required && !gates.arch_review_passed) {
    const score = pyGet(pyGet(twr, 'code_review', {}), 'score', 0)
    // `score >= 60 and 60 or score`: below the threshold the "threshold" echoes the score (kept for fidelity).
    const threshold = pyGreaterOrEqual(score, ARCH_REVIEW_THRESHOLD) ? ARCH_REVIEW_THRESHOLD : score
    issues.push({severity: 'must_fix', category: 'architectural', description: 'Architectural review score below threshold', details: {score, threshold}})
  }
  if (gates.plan_audit_required && !gates.plan_audit_passed) {
    const violations = pyGet(pyGet(twr, 'plan_audit', {}), 'violations', 0)
    issues.push({severity: 'should_fix', category: 'plan_audit', description: 'Plan audit detected violations', details: {violations}})
  }
  return earlyFeedback(base, {quality_gates: gates, issues, rationale: `${issues.length} quality gate(s) failed`})
}

/** `all_passed` absent or null with no counts means the Player never reached Phase 4.5. */
function testsIssue(qg: unknown): CoachIssue {
  const testsPassed = pyOr(pyGet(qg, 'tests_passed'), 0)
  const testsFailed = pyOr(pyGet(qg, 'tests_failed'), 0)
  if (pyGet(qg, 'all_passed') === null && pyEqualsNumber(testsPassed, 0) && pyEqualsNumber(testsFailed, 0)) {
    return {severity: 'must_fix', category: 'test_failure', description: INCOMPLETE_SESSION, details: {failed_count: 0, total_count: 0, incomplete_session: true}}
  }
  return {
    severity: 'must_fix',
    category: 'test_failure',
    description: 'Tests did not pass during task-work execution',
    details: {failed_count: testsFailed, total_count: pyAddNumbers(testsPassed, testsFailed)},
  }
}
