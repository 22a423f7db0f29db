import {LOGGERS, type LogSink} from '../log-sink.js'
import {pyRepr} from '../python/repr.js'
import {pyTruthy} from '../python/strings.js'
import {pyContains, pyEqualsNumber, pyGet, pyGreaterOrEqual, pyStr} from './py-values.js'
import type {QualityGateProfile} from './task-profile.js'

/**
 * `QualityGateStatus`. The gate values are GuardKit's values as read (`all_passed: 1` stays 1,
 * `coverage_met: "no"` stays "no"); only `all_gates_passed` and the comparisons are real bools.
 */
export interface QualityGateStatus {
  readonly tests_passed: unknown
  readonly coverage_met: unknown
  readonly arch_review_passed: boolean
  readonly plan_audit_passed: boolean
  readonly tests_required: boolean
  readonly coverage_required: boolean
  readonly arch_review_required: boolean
  readonly plan_audit_required: boolean
  readonly all_gates_passed: boolean
}

/**
 * `CoachValidator.verify_quality_gates(twr, profile, skip_arch_review)` (docs/guardkit-logic.md §6.3; identical in
 * both versions). The Coach never reads the profile's coverage threshold: coverage is the
 * Player-side boolean `quality_gates.coverage_met`.
 */
export function verifyQualityGates(
  twr: unknown,
  profile: QualityGateProfile,
  skipArchReview: boolean,
  sink: LogSink,
): QualityGateStatus {
  const qg = pyGet(twr, 'quality_gates', {})
  const testsPassed = profile.tests_required ? readTestsPassed(qg) : true
  let coverageMet: unknown = true
  if (profile.coverage_required) {
    const value = pyGet(qg, 'coverage_met')
    coverageMet = value === null ? true : value
  }
  const archRequired = profile.arch_review_required && !skipArchReview
  const archPassed = archRequired ? pyGreaterOrEqual(pyGet(pyGet(twr, 'code_review', {}), 'score', 0), profile.arch_review_threshold) : true
  const auditPassed = profile.plan_audit_required ? pyEqualsNumber(pyGet(pyGet(twr, 'plan_audit', {}), 'violations', 0), 0) : true
  const required: unknown[] = []
  if (profile.tests_required) required.push(testsPassed)
  if (profile.coverage_required) required.push(coverageMet)
  if (archRequired) required.push(archPassed)
  if (profile.plan_audit_required) required.push(auditPassed)
  const status: QualityGateStatus = {
    tests_passed: testsPassed,
    coverage_met: coverageMet,
    arch_review_passed: archPassed,
    plan_audit_passed: auditPassed,
    tests_required: profile.tests_required,
    coverage_required: profile.coverage_required,
    arch_review_required: archRequired,
    plan_audit_required: profile.plan_audit_required,
    all_gates_passed: required.every(pyTruthy),
  }
  sink.emit(
    'INFO',
    LOGGERS.coach,
    `Quality gate evaluation complete: tests=${pyStr(status.tests_passed)} (required=${pyStr(status.tests_required)}), ` +
      `coverage=${pyStr(status.coverage_met)} (required=${pyStr(status.coverage_required)}), ` +
      `arch=${pyStr(status.arch_review_passed)} (required=${pyStr(status.arch_review_required)}), ` +
      `audit=${pyStr(status.plan_audit_passed)} (required=${pyStr(status.plan_audit_required)}), ALL_PASSED=${pyStr(status.all_gates_passed)}`,
  )
  return status
}

/** `all_passed` wins when present and not None; else `tests_failed == 0`; else False (docs/guardkit-logic.md §6.3). */
function readTestsPassed(qg: unknown): unknown {
  if (pyContains(qg, 'all_passed')) {
    const allPassed = pyGet(qg, 'all_passed')
    if (allPassed !== null) return allPassed
    if (pyContains(qg, 'tests_failed')) return pyEqualsNumber(pyGet(qg, 'tests_failed'), 0)
    return false
  }
  if (pyContains(qg, 'tests_failed')) return pyEqualsNumber(pyGet(qg, 'tests_failed'), 0)
  return false
}

/** The five booleans `coach_turn_N.json` keeps (`validation_results.quality_gates`, docs/guardkit-logic.md §7.8). */
export function qualityGatesToDict(status: QualityGateStatus): Record<string, unknown> {
  return {
    tests_passed: status.tests_passed,
    coverage_met: status.coverage_met,
    arch_review_passed: status.arch_review_passed,
    plan_audit_passed: status.plan_audit_passed,
    all_gates_passed: status.all_gates_passed,
  }
}

/** Every field, as the `verify_quality_gates` oracle vectors print it. */
export function qualityGatesAllFields(status: QualityGateStatus): Record<string, unknown> {
  return {...status}
}

/** The dataclass `repr`, as in `Quality gates failed for TASK-X: QualityGateStatus(...)`. */
export function qualityGateStatusRepr(status: QualityGateStatus): string {
  const fields = Object.entries(status).map(([k, v]) => `${k}=${pyRepr(v)}`)
  return `QualityGateStatus(${fields.join(', ')})`
}
