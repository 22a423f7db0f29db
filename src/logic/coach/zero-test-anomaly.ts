import type {LogicFlags} from '../changes.js'
import {LOGGERS, type LogSink} from '../log-sink.js'
import {pyLower, pyTruthy} from '../python/strings.js'
import type {CoachIssue} from './coach-result.js'
import {SKIPPED_COMMAND, type IndependentTestResult} from './independent-test-result.js'
import {pyEqualsNumber, pyGet, pyOr, pyStr} from './py-values.js'
import type {QualityGateProfile} from './task-profile.js'

const NOTHING_FOUND_LEGACY =
  'No task-specific tests created and no task-specific tests found via independent verification. ' +
  'Project-wide test suite may pass but this task contributes zero test coverage.'

function nothingFoundSearched(prefix: string): string {
  return (
    'No task-specific tests found. Coach searched:\n' +
    '  1. task_work_results files_created/files_modified for test_*.py files\n' +
    `  2. Glob pattern: tests/**/test_${prefix}*.py\n` +
    'Please ensure test files are listed in your task_work_results files_created or files_modified arrays, ' +
    `OR name them to match the pattern test_${prefix}*.py`
  )
}

const NO_TESTS_EXECUTED = 'Quality gates reported as passed but no tests were executed (tests_passed=0, coverage=null). Player may not have run tests.'

export const ZERO_TEST_RATIONALE =
  'Zero-test anomaly detected: quality gates reported as passed but no tests were executed. ' +
  'Tests are required for this task type. Please write and run tests before resubmitting.'

/**
 * `CoachValidator._check_zero_test_anomaly(twr, profile, independent_tests)` (docs/guardkit-logic.md §6.8). Nothing
 * when tests are not required or the independent run passed with a real command; otherwise an
 * issue when no tests were written and none were found, or when the gates claim success with zero
 * tests and no coverage. Severity `error` (blocking) for feature/refactor, else `warning`.
 * The `{prefix}` of the fixed text is the glob prefix (`task_id` with `-`→`_`, lower-cased).
 */
export function checkZeroTestAnomaly(
  taskId: string,
  twr: unknown,
  profile: QualityGateProfile,
  independent: IndependentTestResult,
  flags: LogicFlags,
  sink: LogSink,
): CoachIssue[] {
  if (!profile.tests_required) return []
  if (pyTruthy(independent.tests_passed) && independent.test_command !== SKIPPED_COMMAND) return []
  const severity = profile.zero_test_blocking ? 'error' : 'warning'
  const level = profile.zero_test_blocking ? 'ERROR' : 'WARNING'
  const testsWritten = pyGet(twr, 'tests_written', [])
  if (Array.isArray(testsWritten) && testsWritten.length === 0 && independent.test_command === SKIPPED_COMMAND) {
    sink.emit(
      level,
      LOGGERS.coach,
      'Zero-test anomaly: no task-specific tests created (tests_written=[]) and independent verification skipped ' +
        '(no task-specific test files found). Project-wide test suite may pass but task contributes zero test coverage.',
    )
    // zeroTestSearchText (D35): the description lists what the Coach searched.
    const prefix = pyLower(taskId.replaceAll('-', '_'))
    const description = flags.zeroTestSearchText ? nothingFoundSearched(prefix) : NOTHING_FOUND_LEGACY
    return [{severity, category: 'zero_test_anomaly', description}]
  }
  const qg = pyGet(twr, 'quality_gates', {})
  const testsPassed = pyOr(pyGet(qg, 'tests_passed'), 0)
  if (pyGet(qg, 'all_passed') === true && pyEqualsNumber(testsPassed, 0) && pyGet(qg, 'coverage') === null) {
    sink.emit(
      level,
      LOGGERS.coach,
      `Zero-test anomaly: all_passed=true but tests_passed=${pyStr(testsPassed)} and coverage=null. Player may have reported quality gates as passed without running tests.`,
    )
    return [{severity, category: 'zero_test_anomaly', description: NO_TESTS_EXECUTED}]
  }
  return []
}
