import {compareCodePoints} from '../../shared/code-point-order.js'
import type {LogicFlags} from '../changes.js'
import {LOGGERS, NULL_SINK, type LogSink} from '../log-sink.js'
import {pyLower, pyTruthy} from '../python/strings.js'
import {generateFileExistencePromises} from './file-existence-promises.js'
import type {GitChanges, JsonRecord} from './types.js'

export interface SyntheticReportParams {
  readonly taskId: string
  readonly turn: number
  readonly filesModified: readonly string[]
  readonly filesCreated: readonly string[]
  readonly testsWritten: readonly string[]
  readonly testsPassed: boolean
  readonly testCount: number
  readonly testOutputSummary?: string
  readonly implementationNotes: string
  readonly concerns: readonly string[]
  readonly acceptanceCriteria?: unknown
  readonly taskType?: string | null
  readonly recoveryMetadata?: JsonRecord | null
}

/**
 * Shared `synthetic_report.build_synthetic_report` (71a5fb57, S001 R3): a report with
 * `_synthetic: true`; file-existence promises (no worktree, so no disk check) only for a
 * scaffolding task with criteria — any other task type gets none, so a direct task of another type still
 * ends 0/N with `_synthetic` set (docs/guardkit-logic.md §2 S001).
 */
export function buildSyntheticReport(params: SyntheticReportParams, sink: LogSink = NULL_SINK): JsonRecord {
  const report: JsonRecord = {
    task_id: params.taskId,
    turn: params.turn,
    files_modified: [...params.filesModified],
    files_created: [...params.filesCreated],
    tests_written: [...params.testsWritten],
    tests_run: params.testCount > 0,
    tests_passed: params.testsPassed,
    test_output_summary: params.testOutputSummary ?? '',
    implementation_notes: params.implementationNotes,
    concerns: [...params.concerns],
    requirements_addressed: [],
    requirements_remaining: [],
    _synthetic: true,
  }
  if (params.recoveryMetadata) report._recovery_metadata = params.recoveryMetadata
  if (params.taskType === 'scaffolding' && pyTruthy(params.acceptanceCriteria)) {
    const promises = generateFileExistencePromises(params.filesCreated, params.filesModified, params.acceptanceCriteria, null)
    report.completion_promises = promises
    sink.emit('INFO', LOGGERS.syntheticReport, `Generated ${promises.length} file-existence promises for scaffolding task synthetic report`)
  }
  return report
}

export interface DirectSyntheticInput {
  readonly taskId: string
  readonly turn: number
  /** null when git detection failed (GuardKit logs a warning and reports no files). */
  readonly gitChanges: GitChanges | null
  readonly acceptanceCriteria?: unknown
  readonly taskType?: string | null
}

/**
 * `_create_synthetic_direct_mode_report(task_id, turn, acceptance_criteria, task_type)` (docs/guardkit-logic.md §5.2):
 * the report direct mode makes from git when the SDK wrote none. Its first form (c4d01fcf) had no
 * `_synthetic` and no promises; 71a5fb57 added both, here as two flags (D13, docs/guardkit-logic.md §2 S001).
 */
export function createSyntheticDirectModeReport(input: DirectSyntheticInput, flags: LogicFlags, sink: LogSink = NULL_SINK): JsonRecord {
  const modified = [...(input.gitChanges?.modified ?? [])].sort(compareCodePoints)
  const created = [...(input.gitChanges?.created ?? [])].sort(compareCodePoints)
  const testsWritten = [...modified, ...created]
    .filter((f) => pyLower(f).includes('test_') || pyLower(f).endsWith('_test.py') || f.includes('/tests/') || f.startsWith('tests/'))
    .sort(compareCodePoints)
  const notes = modified.length + created.length > 0
    ? `Direct mode SDK invocation completed (git-detected: ${modified.length} modified, ${created.length} created)`
    : 'Direct mode SDK invocation completed (synthetic report)'
  const report = buildSyntheticReport({
    taskId: input.taskId, turn: input.turn, filesModified: modified, filesCreated: created, testsWritten,
    testsPassed: false, testCount: 0, implementationNotes: notes, concerns: [],
    // directSyntheticPromises (D13): criteria reach the builder only with this flag.
    acceptanceCriteria: flags.directSyntheticPromises ? input.acceptanceCriteria : null,
    taskType: input.taskType ?? null,
  }, sink)
  // directSyntheticFlag (D13): before 71a5fb57 the report did not say it was synthetic.
  if (!flags.directSyntheticFlag) delete report._synthetic
  return report
}
