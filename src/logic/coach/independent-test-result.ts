import type {LogicFlags} from '../changes.js'
import type {TaskType} from './task-profile.js'

/**
 * `IndependentTestResult`: the Coach's own test run. `raw_output` (fixed: stdout+stderr, or the
 * SDK tool output) feeds the failure classifier and is never written to `coach_turn_N.json`.
 * `tests_passed` is a value as recorded (a stub may hold any JSON value).
 */
export interface IndependentTestResult {
  readonly tests_passed: unknown
  /** A string, except in a recorded result that held something else. */
  readonly test_command: unknown
  readonly test_output_summary: unknown
  readonly duration_seconds: unknown
  readonly raw_output: string | null
}

/** The `test_command` of every result that did not run tests. */
export const SKIPPED_COMMAND = 'skipped'

/** Step 3 when the profile does not require tests (docs/guardkit-logic.md §6.1). */
export function notRequiredResult(taskType: TaskType, flags: LogicFlags): IndependentTestResult {
  return {tests_passed: true, test_command: SKIPPED_COMMAND, test_output_summary: `Independent test verification skipped (${notRequiredReason(taskType, flags)})`, duration_seconds: 0.0, raw_output: null}
}

/**
 * The parenthesised reason, shared with the INFO log line. Which name fills `{task_type}` (the raw
 * frontmatter string or the resolved type) is not pinned by docs/guardkit-logic.md; the resolved type is used,
 * so an alias such as `research` prints `documentation`.
 */
export function notRequiredReason(taskType: TaskType, flags: LogicFlags): string {
  // skippedTestsWording (D18): "tests_required=False" became "tests not required for {type} tasks".
  return flags.skippedTestsWording ? `tests not required for ${taskType} tasks` : 'tests_required=False'
}

/** `run_independent_tests` when no task-specific test command was found (docs/guardkit-logic.md §6.4). */
export function noTestsFoundResult(taskId: string): IndependentTestResult {
  return {tests_passed: true, test_command: SKIPPED_COMMAND, test_output_summary: `No task-specific tests found for ${taskId}, skipping independent verification`, duration_seconds: 0.0, raw_output: null}
}

/** A recorded result as GuardKit serialised it (`coach_turn_N.json`, an oracle stub). */
export function independentTestResultFrom(recorded: Readonly<Record<string, unknown>>): IndependentTestResult {
  const raw = recorded.raw_output
  return {
    tests_passed: recorded.tests_passed ?? null,
    test_command: recorded.test_command ?? null,
    test_output_summary: recorded.test_output_summary ?? null,
    duration_seconds: recorded.duration_seconds ?? null,
    raw_output: typeof raw === 'string' ? raw : null,
  }
}
