import {builtinProfile} from '../../../../src/logic/profiles.js'
import type {LogicFlags} from '../../../../src/logic/changes.js'
import type {JsonObject, TurnOutcome} from '../../../../src/logic/orchestrator/index.js'

export function flagsOfProfile(name: string): LogicFlags {
  const profile = builtinProfile(name)
  if (!profile) throw new Error(`no profile ${name}`)
  return profile.flags
}

export const LEGACY = flagsOfProfile('legacy')
export const FIXED = flagsOfProfile('fixed')

/** A Coach report with `verified` of `total` criteria verified and, optionally, the task-work gate value. */
export function coachReport(verified: number, total: number, testsGate?: boolean): JsonObject {
  const results = Array.from({length: total}, (_, i) => ({criterion_id: `AC-${String(i + 1).padStart(3, '0')}`, status: i < verified ? 'verified' : 'rejected'}))
  const report: Record<string, unknown> = {decision: 'feedback', acceptance_criteria_verification: {criteria_results: results}}
  if (testsGate !== undefined) report.validation_results = {quality_gates: {tests_passed: testsGate}}
  return report
}

export function feedbackTurn(feedback: string | null, verified = 0, total = 4, testsGate?: boolean): TurnOutcome {
  return {
    decision: 'feedback',
    feedback,
    playerResult: {success: true, report: {}, error: null},
    coachResult: {success: true, report: coachReport(verified, total, testsGate), error: null},
  }
}

export function approveTurn(): TurnOutcome {
  return {
    decision: 'approve',
    feedback: null,
    playerResult: {success: true, report: {}, error: null},
    coachResult: {success: true, report: {decision: 'approve', validation_results: {quality_gates: {tests_passed: true}}}, error: null},
  }
}

/** The test-failure feedback of seed 002 (TASK-DB-003): node id, count and duration vary per turn. */
export function dbTestFailure(node: string, failed: number, duration: string): string {
  return `- Independent test verification failed:\n  FAILED tests/users/test_users.py::${node} - OperationalError\n  ==== ${failed} failed in ${duration}s ====`
}

const NODES = ['TestUserCreate::test_create_user', 'TestUserCRUD::test_create', 'TestUser::test_create_user', 'TestFoundation::test_db']

/**
 * The TASK-DB-003 sequence (docs/guardkit-logic.md §8.1 `loop_phase#6`): turn 1 a test failure, turn 2 the
 * coverage gate, then test failures that never repeat verbatim.
 */
export function db003Feedback(turns: number): string[] {
  return Array.from({length: turns}, (_, i) =>
    i === 1 ? '- Coverage threshold not met' : dbTestFailure(NODES[i % 4]!, 1 + (i % 3), (1 + i / 10).toFixed(2)),
  )
}
