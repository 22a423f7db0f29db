import {clonePyJson} from '../python/json-numbers.js'
import type {LogicFlags} from '../changes.js'
import {LOGGERS, NULL_SINK, type LogSink} from '../log-sink.js'
import {isPyDict} from '../python/builtins.js'
import {joinPath} from '../python/pathlib.js'
import {pyTruthy} from '../python/strings.js'
import {writeDirectModeResults, writePlayerReportForDirectMode} from './direct-mode-files.js'
import {jsonDict, readJsonFile, type JsonFileInput} from './json-input.js'
import {createSyntheticDirectModeReport} from './synthetic-report.js'
import {PipelineTrace, type PipelineEvent} from './trace.js'
import type {GitChanges, JsonRecord} from './types.js'

/** What the direct-mode SDK session left behind. */
export type DirectSdkOutcome =
  /** player_turn_N.json as the agent wrote it (parsed or raw text). */
  | {readonly kind: 'report'; readonly report: JsonFileInput}
  | {readonly kind: 'no-report'}
  /** Timeout or other exception, with GuardKit's message (`SDK timeout after …`, `Unexpected error: …`). */
  | {readonly kind: 'error'; readonly error: string}

export interface DirectModeFlowInput {
  readonly taskId: string
  readonly turn: number
  /** Absolute worktree path (it appears in GuardKit's "Player report not found: …" error). */
  readonly worktreeRoot: string
  readonly sdk: DirectSdkOutcome
  readonly gitChanges: GitChanges | null
  /** Raw frontmatter `task_type` (may be null). */
  readonly taskType: string | null
  /** Criteria as `TaskLoader._parse_task_file` returns them (frontmatter, else body), and from the frontmatter alone. */
  readonly criteria: {readonly taskLoader: unknown; readonly frontmatter: unknown}
  readonly timestamp: string
}

export type DirectModePath = 'agent-report' | 'synthetic' | 'failure'

export interface DirectModeFlow {
  readonly path: DirectModePath
  /** `AgentInvocationResult.success` and `.error` as the orchestrator sees them. */
  readonly success: boolean
  readonly error: string | null
  /** The synthetic report as built, before it was written and reloaded (synthetic path only). */
  readonly syntheticReport: JsonRecord | null
  /** Where the synthetic report's criteria came from (synthetic path only). */
  readonly criteriaSource: 'task-loader' | 'frontmatter' | null
  /** player_turn_N.json after the turn. */
  readonly playerReport: JsonRecord
  /** task_work_results.json after the turn: what the Coach reads first. */
  readonly taskWorkResults: JsonRecord
  /** The failed turn goes to `_attempt_state_recovery`, whose synthetic report stays in memory. */
  readonly needsStateRecovery: boolean
  readonly events: readonly PipelineEvent[]
}

const STEP = '_invoke_player_direct'
const LIST_KEYS = ['files_modified', 'files_created', 'tests_written', 'concerns', 'requirements_addressed', 'requirements_remaining'] as const

/** `_validate_player_report`: every PLAYER_REPORT_SCHEMA key present with the right type. */
export function isValidPlayerReport(report: unknown): report is JsonRecord {
  if (!isPyDict(report)) return false
  const r = report
  return typeof r.task_id === 'string' && (typeof r.turn === 'boolean' || (typeof r.turn === 'number' && Number.isInteger(r.turn)))
    && LIST_KEYS.every((k) => Array.isArray(r[k])) && typeof r.tests_run === 'boolean' && typeof r.tests_passed === 'boolean'
    && typeof r.implementation_notes === 'string'
}

/**
 * `AgentInvoker._invoke_player_direct` after the SDK call (docs/guardkit-logic.md §5.1, [read]): load and validate the
 * agent's report, write task_work_results.json and the player report. Without a report, legacy
 * fails the turn (the Coach then reads a results file with an `error` key); from c4d01fcf a
 * synthetic report is built from git, written, reloaded and taken down the success path.
 */
export function runDirectModeTurn(input: DirectModeFlowInput, flags: LogicFlags, sink: LogSink = NULL_SINK): DirectModeFlow {
  const trace = new PipelineTrace()
  const {taskId, turn} = input
  if (input.sdk.kind === 'error') return failed(input, input.sdk.error, flags, trace)
  const agent = input.sdk.kind === 'report' ? jsonDict(readJsonFile(input.sdk.report)) : null
  if (agent && isValidPlayerReport(agent)) return succeeded(input, 'agent-report', agent, null, null, flags, trace)
  if (input.sdk.kind === 'report') {
    trace.push({step: STEP, kind: 'approximate', field: 'player_turn_N.json', message: 'the agent wrote a player report that fails _validate_player_report; it is treated like a missing report (the exact error text is not modelled)'})
  }
  // directSyntheticReport (D13): before c4d01fcf a missing report fails the turn.
  if (!flags.directSyntheticReport) {
    const path = joinPath(input.worktreeRoot, '.guardkit', 'autobuild', taskId, `player_turn_${turn}.json`)
    trace.push({step: STEP, kind: 'skipped', field: 'player_turn_N.json', flag: 'directSyntheticReport',
      message: 'the SDK wrote no player report: the turn fails, task_work_results.json gets an error, and state recovery builds a report the Coach never reads'})
    return failed(input, `Player report not found: ${path}`, flags, trace)
  }
  sink.emit('INFO', LOGGERS.invoker, `SDK did not write player_turn_${turn}.json for ${taskId}, creating synthetic report from git detection`)
  // directTaskLoaderCriteria (D13, DMCP-004): criteria from the whole task file, not the frontmatter only.
  const criteriaSource = flags.directTaskLoaderCriteria ? 'task-loader' : 'frontmatter'
  const ac = flags.directTaskLoaderCriteria ? input.criteria.taskLoader : input.criteria.frontmatter
  const synthetic = createSyntheticDirectModeReport({taskId, turn, gitChanges: input.gitChanges, acceptanceCriteria: ac, taskType: input.taskType}, flags, sink)
  noteSyntheticGaps(synthetic, input, flags, trace)
  const written = writePlayerReportForDirectMode(taskId, turn, synthetic, {success: true}, flags)
  if (pyTruthy(synthetic._synthetic) && !pyTruthy(written._synthetic)) {
    trace.push({step: '_write_player_report_for_direct_mode', kind: 'dropped', field: '_synthetic', flag: 'directReportKeepsSynthetic',
      message: 'the synthetic report was marked _synthetic, but writing player_turn_N.json dropped the flag, so the reloaded report and task_work_results.json lack it'})
  }
  return succeeded(input, 'synthetic', clonePyJson(written), synthetic, criteriaSource, flags, trace)
}

function noteSyntheticGaps(synthetic: JsonRecord, input: DirectModeFlowInput, flags: LogicFlags, trace: PipelineTrace): void {
  const step = '_create_synthetic_direct_mode_report'
  if (!pyTruthy(synthetic._synthetic)) {
    trace.push({step, kind: 'skipped', field: '_synthetic', flag: 'directSyntheticFlag', message: 'the synthetic report does not say it is synthetic, so the Coach text-matches an empty requirements list'})
  }
  if (pyTruthy(synthetic.completion_promises)) return
  const reason = !flags.directSyntheticPromises
    ? {flag: 'directSyntheticPromises' as const, text: 'direct-mode synthetic reports carry no promises in this version'}
    : input.taskType !== 'scaffolding'
      ? {flag: undefined, text: `the shared builder generates promises only for scaffolding tasks, and task_type is ${input.taskType === null ? 'None' : JSON.stringify(input.taskType)}`}
      : {flag: flags.directTaskLoaderCriteria ? undefined : ('directTaskLoaderCriteria' as const), text: 'no acceptance criteria reached the builder'}
  trace.push({step, kind: 'skipped', field: 'completion_promises', flag: reason.flag, message: `the synthetic report has no completion_promises: ${reason.text}`})
}

function succeeded(input: DirectModeFlowInput, path: DirectModePath, report: JsonRecord, synthetic: JsonRecord | null, criteriaSource: DirectModeFlow['criteriaSource'], flags: LogicFlags, trace: PipelineTrace): DirectModeFlow {
  const taskWorkResults = writeDirectModeResults(input.taskId, report, {success: true}, flags, input.timestamp)
  const playerReport = writePlayerReportForDirectMode(input.taskId, input.turn, report, {success: true}, flags)
  return {path, success: true, error: null, syntheticReport: synthetic, criteriaSource, playerReport, taskWorkResults, needsStateRecovery: false, events: trace.events}
}

function failed(input: DirectModeFlowInput, error: string, flags: LogicFlags, trace: PipelineTrace): DirectModeFlow {
  const taskWorkResults = writeDirectModeResults(input.taskId, {task_id: input.taskId, turn: input.turn}, {success: false, error}, flags, input.timestamp)
  const playerReport = writePlayerReportForDirectMode(input.taskId, input.turn, {}, {success: false, error}, flags)
  return {path: 'failure', success: false, error, syntheticReport: null, criteriaSource: null, playerReport, taskWorkResults, needsStateRecovery: true, events: trace.events}
}
