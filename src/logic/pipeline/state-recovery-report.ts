import type {LogicFlags} from '../changes.js'
import {LOGGERS, NULL_SINK, type LogSink} from '../log-sink.js'
import {pyTruthy} from '../python/strings.js'
import {autobuildFileExistencePromises} from './file-existence-promises.js'
import {generateGitAnalysisPromises} from './git-analysis-promises.js'
import {buildSyntheticReport} from './synthetic-report.js'
import type {PipelineEvent} from './trace.js'
import type {JsonRecord} from './types.js'

/** `MultiLayeredStateTracker.capture_state(...)`: the work found after a failed Player turn. */
export interface WorkState {
  readonly turn: number
  readonly filesModified: readonly string[]
  readonly filesCreated: readonly string[]
  readonly testsWritten: readonly string[]
  readonly testCount: number
  readonly testsPassed: boolean
  readonly testOutputSummary: string | null
  readonly detectionMethod: string
  readonly gitInsertions: number
  readonly gitDeletions: number
}

export interface StateRecoveryOptions {
  /** The `_recovery_metadata.timestamp` as recorded, or a placeholder: the model has no clock. */
  readonly timestamp: string
  readonly sink?: LogSink
}

export interface StateRecoveryReport {
  /** The synthetic report, `task_id` still "" (the caller sets it). Kept in memory only. */
  readonly report: JsonRecord
  readonly events: readonly PipelineEvent[]
}

/**
 * `AutoBuildOrchestrator._build_synthetic_report(work_state, original_error, acceptance_criteria,
 * task_type)` (docs/guardkit-logic.md §5.4). `task_type` is the raw frontmatter value: `"implementation"` gets
 * git-analysis promises, `None` gets none. The report is not written to disk on this path, so
 * the Coach, which reads files, sees its promises only if they also reach task_work_results.json.
 */
export function buildStateRecoveryReport(
  work: WorkState,
  originalError: string | null,
  acceptanceCriteria: unknown,
  taskType: string | null,
  flags: LogicFlags,
  options: StateRecoveryOptions,
): StateRecoveryReport {
  const sink = options.sink ?? NULL_SINK
  const events: PipelineEvent[] = []
  const hasCriteria = pyTruthy(acceptanceCriteria)
  const filePromises = taskType === 'scaffolding' && hasCriteria
  // acrGitAnalysisPromises (docs/guardkit-logic.md §5.5): pre-ACR recovery had no promises for other task types.
  const gitPromises = flags.acrGitAnalysisPromises && taskType !== null && taskType !== 'scaffolding' && hasCriteria
  const plan = filePromises
    ? 'Generating file-existence promises for scaffolding task.'
    : gitPromises ? `Generating git-analysis promises for ${taskType} task.` : 'Note: report has no completion_promises and cannot satisfy promise-based criteria matching.'
  sink.emit('WARNING', LOGGERS.autobuild,
    `[Turn ${work.turn}] Building synthetic report: ${work.filesCreated.length} files created, ${work.filesModified.length} files modified, ${work.testCount} tests. ${plan}`)
  const error = originalError || 'Unknown'
  const method = work.detectionMethod
  const metadata = {detection_method: method, git_insertions: work.gitInsertions, git_deletions: work.gitDeletions, timestamp: options.timestamp}
  const notes = `[RECOVERED via ${method}] Original error: ${error}`
  const concerns = [`Player failed with error: ${error}`, `Work recovered via ${method}`]
  let report: JsonRecord
  if (flags.sharedFileExistence) {
    // sharedFileExistence (D16): the shared builder, whose scaffolding promises carry evidence_type.
    report = buildSyntheticReport({
      taskId: '', turn: work.turn, filesModified: work.filesModified, filesCreated: work.filesCreated, testsWritten: work.testsWritten,
      testsPassed: work.testsPassed, testCount: work.testCount, testOutputSummary: work.testOutputSummary || '', implementationNotes: notes,
      concerns, acceptanceCriteria, taskType, recoveryMetadata: metadata,
    }, sink)
  } else {
    report = {
      task_id: '', turn: work.turn, files_modified: [...work.filesModified], files_created: [...work.filesCreated], tests_written: [...work.testsWritten],
      tests_run: work.testCount > 0, tests_passed: work.testsPassed, test_output_summary: work.testOutputSummary || '', implementation_notes: notes,
      concerns, requirements_addressed: [], requirements_remaining: [], _synthetic: true, _recovery_metadata: metadata,
    }
    if (filePromises) report.completion_promises = autobuildFileExistencePromises(work.filesCreated, work.filesModified, acceptanceCriteria, flags, events)
  }
  if (gitPromises) {
    const promises = generateGitAnalysisPromises(work.filesCreated, work.filesModified, acceptanceCriteria, events)
    if (promises.length > 0) {
      report.completion_promises = promises
      sink.emit('INFO', LOGGERS.autobuild, `Generated ${promises.length} git-analysis promises for ${taskType} task synthetic report`)
    }
  }
  const promises = report.completion_promises
  events.push(pyTruthy(promises)
    ? {step: 'AutoBuildOrchestrator._build_synthetic_report', kind: 'generated', field: 'completion_promises', values: promises as unknown[],
      flag: filePromises ? undefined : 'acrGitAnalysisPromises', message: `the state-recovery report carries ${(promises as unknown[]).length} ${filePromises ? 'file-existence' : 'git-analysis'} promises, in memory only`}
    : {step: 'AutoBuildOrchestrator._build_synthetic_report', kind: 'skipped', field: 'completion_promises',
      message: `the state-recovery report has no completion_promises (task_type ${taskType === null ? 'None' : JSON.stringify(taskType)}${hasCriteria ? '' : ', no criteria'})`})
  return {report, events}
}
