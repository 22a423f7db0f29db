import {describe, expect, it} from 'vitest'
import {feedbackFromGates} from '../../../../src/logic/coach/quality-gate-feedback.js'
import {qualityGateStatusRepr, verifyQualityGates} from '../../../../src/logic/coach/quality-gates.js'
import {resolveTaskProfile, type QualityGateProfile} from '../../../../src/logic/coach/task-profile.js'
import {NULL_SINK} from '../../../../src/logic/log-sink.js'
import {PyException} from '../../../../src/logic/python/builtins.js'
import {logLines, sink} from './helpers.js'

function profile(taskType: string): QualityGateProfile {
  const r = resolveTaskProfile(taskType)
  if (!r.ok) throw new Error(r.error)
  return r.profile
}

const FEATURE = profile('feature')
const BASE = {task_id: 'TASK-X', turn: 1, context_used: null}

function gateIssues(twr: Record<string, unknown>, skipArch = true, p = FEATURE) {
  const gates = verifyQualityGates(twr, p, skipArch, NULL_SINK)
  return feedbackFromGates(BASE, gates, twr)
}

describe('verify_quality_gates (docs/guardkit-logic.md §6.3)', () => {
  it('uses gate values as-is: all_passed 0 is falsy and stays 0', () => {
    const gates = verifyQualityGates({quality_gates: {all_passed: 0, coverage_met: true}}, FEATURE, true, NULL_SINK)
    expect(gates.tests_passed).toBe(0)
    expect(gates.all_gates_passed).toBe(false)
  })

  it('falls back to tests_failed == 0 when all_passed is absent', () => {
    expect(verifyQualityGates({quality_gates: {tests_failed: 0}}, FEATURE, true, NULL_SINK).tests_passed).toBe(true)
    expect(verifyQualityGates({quality_gates: {tests_failed: 1}}, FEATURE, true, NULL_SINK).tests_passed).toBe(false)
  })

  it('never reads the profile coverage threshold: only the Player-side coverage_met boolean', () => {
    const gates = verifyQualityGates({quality_gates: {all_passed: true, coverage: 12.0}}, FEATURE, true, NULL_SINK)
    expect(gates.coverage_met).toBe(true)
  })

  it('requires the arch review only when not skipped (feature-mode replays skip it)', () => {
    const twr = {quality_gates: {all_passed: true}, code_review: {score: 10}}
    expect(verifyQualityGates(twr, FEATURE, true, NULL_SINK)).toMatchObject({arch_review_passed: true, arch_review_required: false, all_gates_passed: true})
    expect(verifyQualityGates(twr, FEATURE, false, NULL_SINK)).toMatchObject({arch_review_passed: false, arch_review_required: true, all_gates_passed: false})
  })

  it('raises TypeError for quality_gates: null when the profile requires tests (docs/guardkit-logic.md §6.1), not for scaffolding', () => {
    expect(() => verifyQualityGates({quality_gates: null}, FEATURE, true, NULL_SINK)).toThrow(
      new PyException('TypeError', "argument of type 'NoneType' is not iterable"),
    )
    expect(verifyQualityGates({quality_gates: null}, profile('scaffolding'), true, NULL_SINK).all_gates_passed).toBe(true)
  })

  it('logs the evaluation line GuardKit writes (corpus db_stalled.log line 488)', () => {
    const s = sink()
    verifyQualityGates({quality_gates: {all_passed: true, coverage_met: true}, plan_audit: {violations: 0}}, FEATURE, true, s)
    expect(logLines(s.records)).toEqual([
      'INFO:guardkit.orchestrator.quality_gates.coach_validator:Quality gate evaluation complete: tests=True (required=True), coverage=True (required=True), arch=True (required=False), audit=True (required=True), ALL_PASSED=True',
    ])
  })

  it('prints the dataclass repr of a failed status (corpus db_another_fail.log)', () => {
    const gates = verifyQualityGates({quality_gates: {all_passed: true, coverage_met: false}}, FEATURE, true, NULL_SINK)
    expect(qualityGateStatusRepr(gates)).toBe(
      'QualityGateStatus(tests_passed=True, coverage_met=False, arch_review_passed=True, plan_audit_passed=True, tests_required=True, coverage_required=True, arch_review_required=False, plan_audit_required=True, all_gates_passed=False)',
    )
  })
})

describe('_feedback_from_gates (docs/guardkit-logic.md §6.3)', () => {
  it('reports an incomplete session when all_passed is absent or null and no counts exist', () => {
    for (const qg of [{}, {all_passed: null}, {all_passed: null, tests_passed: 0}]) {
      expect(gateIssues({quality_gates: qg}).issues[0]).toMatchObject({category: 'test_failure', details: {failed_count: 0, total_count: 0, incomplete_session: true}})
    }
  })

  it('all_passed false with no counts gives failed_count 0, total_count 0 (not an incomplete session)', () => {
    expect(gateIssues({quality_gates: {all_passed: false}}).issues).toEqual([
      {severity: 'must_fix', category: 'test_failure', description: 'Tests did not pass during task-work execution', details: {failed_count: 0, total_count: 0}},
    ])
  })

  it('counts failed and total tests', () => {
    expect(gateIssues({quality_gates: {all_passed: false, tests_passed: 3, tests_failed: 2}}).issues[0]).toMatchObject({details: {failed_count: 2, total_count: 5}})
  })

  it('keeps an explicit null coverage and defaults an absent one to 0', () => {
    expect(gateIssues({quality_gates: {all_passed: true, coverage_met: false, coverage: null}}).issues[0]!.details).toEqual({line_coverage: null, branch_coverage: 0})
  })

  it('echoes the score as the threshold below 60 (a GuardKit bug kept for fidelity)', () => {
    const result = gateIssues({quality_gates: {all_passed: true}, code_review: {score: 45}}, false)
    expect(result.issues).toEqual([
      {severity: 'must_fix', category: 'architectural', description: 'Architectural review score below threshold', details: {score: 45, threshold: 45}},
    ])
  })

  it('emits one issue per failed required gate in the order tests, coverage, arch, audit', () => {
    const twr = {quality_gates: {all_passed: false, coverage_met: false}, code_review: {score: 0}, plan_audit: {violations: 2}}
    const result = gateIssues(twr, false)
    expect(result.issues.map((i) => [i.severity, i.category])).toEqual([
      ['must_fix', 'test_failure'],
      ['must_fix', 'coverage'],
      ['must_fix', 'architectural'],
      ['should_fix', 'plan_audit'],
    ])
    expect(result.rationale).toBe('4 quality gate(s) failed')
    expect(result.independent_tests).toBeNull()
    expect(result.requirements).toBeNull()
  })

  it('ignores gates the profile does not require (scaffolding: only the plan audit)', () => {
    const result = gateIssues({quality_gates: {all_passed: false}, plan_audit: {violations: 1}}, false, profile('scaffolding'))
    expect(result.issues).toEqual([{severity: 'should_fix', category: 'plan_audit', description: 'Plan audit detected violations', details: {violations: 1}}])
  })
})
