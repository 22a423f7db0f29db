import {clonePyJson} from '../python/json-numbers.js'
import type {LogicFlags} from '../changes.js'
import {pyTruthy} from '../python/strings.js'
import {sortedSet, stringList} from './file-paths.js'
import {dictGet as get} from './json-input.js'
import type {JsonRecord} from './types.js'

export interface DirectModeOutcome {
  readonly success: boolean
  readonly error?: string | null
}

/**
 * `_write_direct_mode_results(task_id, player_report, success, error)` (docs/guardkit-logic.md §5.3): the
 * task_work_results.json of a direct-mode turn. Quality gates are relaxed; `_synthetic` and the
 * requirements fields reach the Coach only in later versions (D14).
 */
export function writeDirectModeResults(taskId: string, report: JsonRecord, outcome: DirectModeOutcome, flags: LogicFlags, timestamp: string): JsonRecord {
  const {success} = outcome
  const error = outcome.error ?? null
  const testsRun = get(report, 'tests_run', false)
  const testsPassed = get(report, 'tests_passed', false)
  const testsWritten = get(report, 'tests_written', [])
  let testsPassedCount = get(report, 'tests_passed_count', 0)
  if (testsPassedCount === 0 && pyTruthy(testsPassed) && pyTruthy(testsWritten)) testsPassedCount = Array.isArray(testsWritten) ? testsWritten.length : 0
  const results: JsonRecord = {
    task_id: taskId,
    timestamp,
    // Python's `success and tests_passed` yields tests_passed when success is true.
    completed: pyTruthy(testsRun) ? (success ? testsPassed : success) : success,
    success,
    implementation_mode: 'direct',
    phases: {phase_3: {detected: true, completed: success}},
    quality_gates: {
      tests_passing: pyTruthy(testsRun) ? testsPassed : null,
      tests_passed: testsPassedCount,
      tests_failed: get(report, 'tests_failed_count', 0),
      coverage: null,
      coverage_met: true,
      quality_gates_relaxed: true,
      all_passed: success,
    },
    files_modified: sortedSet(stringList(get(report, 'files_modified', []))),
    files_created: sortedSet(stringList(get(report, 'files_created', []))),
    tests_written: sortedSet(stringList(testsWritten)),
  }
  // directResultsRequirements (D14, DMCP-001): the Coach's text path can read what the Player claimed.
  if (flags.directResultsRequirements) {
    results.requirements_addressed = get(report, 'requirements_addressed', [])
    results.requirements_met = get(report, 'requirements_met', get(report, 'requirements_addressed', []))
  }
  results.summary = success ? 'Direct mode implementation completed successfully' : `Direct mode implementation failed${error ? `: ${error}` : ''}`
  if (error) {
    results.error = error
    results.error_type = 'DirectModeError'
  }
  if (pyTruthy(report.completion_promises)) results.completion_promises = clonePyJson(report.completion_promises)
  // directSyntheticFlag (D14): the flag is propagated to the file the Coach reads.
  if (flags.directSyntheticFlag && pyTruthy(report._synthetic)) results._synthetic = true
  return results
}

/**
 * `_write_player_report_for_direct_mode(task_id, turn, report, success, error)` (docs/guardkit-logic.md §5.3): the
 * schema fields with defaults, file lists not deduped. Until DMCP-003 it dropped `_synthetic`, so
 * the flag was lost on the write→reload round trip of a synthetic report (D15).
 */
export function writePlayerReportForDirectMode(taskId: string, turn: number, report: JsonRecord, outcome: DirectModeOutcome, flags: LogicFlags): JsonRecord {
  const out: JsonRecord = {
    task_id: taskId,
    turn,
    files_modified: get(report, 'files_modified', []),
    files_created: get(report, 'files_created', []),
    tests_written: get(report, 'tests_written', []),
    tests_run: get(report, 'tests_run', false),
    tests_passed: get(report, 'tests_passed', false),
    test_output_summary: get(report, 'test_output_summary', ''),
    implementation_notes: get(report, 'implementation_notes', 'Direct mode implementation via SDK'),
    concerns: get(report, 'concerns', []),
    requirements_addressed: get(report, 'requirements_addressed', []),
    requirements_remaining: get(report, 'requirements_remaining', []),
    implementation_mode: 'direct',
  }
  if (pyTruthy(report.completion_promises)) out.completion_promises = report.completion_promises
  // directReportKeepsSynthetic (D15, DMCP-003)
  if (flags.directReportKeepsSynthetic && pyTruthy(report._synthetic)) out._synthetic = true
  if (outcome.success) out.success = true
  else {
    out.error = outcome.error ?? null
    out.success = false
  }
  return clonePyJson(out)
}
