import type {LogicFlags} from '../../logic/changes.js'
import {validateRequirements} from '../../logic/coach/requirements/index.js'
import {validate} from '../../logic/coach/validate.js'
import {collectingSink, LOGGERS} from '../../logic/log-sink.js'
import {buildStateRecoveryReport, runDirectModeTurn, type DirectModeFlow, type GitChanges, type JsonRecord} from '../../logic/pipeline/index.js'
import {isPyDict} from '../../logic/python/builtins.js'
import {joinPath, relativeTo} from '../../logic/python/pathlib.js'
import {pyRepr, pyReprStr} from '../../logic/python/repr.js'
import {pyTruthy} from '../../logic/python/strings.js'
import {createVirtualWorktree} from '../../logic/worktree.js'
import {pyJsonDumps} from '../../logic/python/json-dumps.js'

/**
 * The oracle's `direct_mode_missing_report_flow` vectors are [read] descriptions of what happens
 * when the direct-mode SDK writes no player report (docs/guardkit-logic.md §5.1): how the Player invocation ends,
 * what task_work_results.json then holds, what the orchestrator does, and what the Coach concludes.
 * This renders the model's own run of that flow (invoker, state recovery, Coach) in that form.
 */
export interface MissingReportScenario {
  readonly taskId: string
  readonly turn: number
  readonly taskType: string | null
  readonly acceptanceCriteria: unknown
  readonly git: GitChanges
}

/** `_load_agent_report`'s retry count (docs/guardkit-logic.md §5.1), and the oracle vector of the short-circuit (docs/guardkit-logic.md §5.1, §10). */
const LOAD_RETRIES = 3
const SHORT_CIRCUIT_EXAMPLE = 'coach_validate#12'
const PATH_PLACEHOLDER = '<path>'
const REPORT_PATH_IN_DESCRIPTION = 'player_turn_N.json'

export function describeDirectModeMissingReport(scenario: MissingReportScenario, flags: LogicFlags, env: {root: string; timestamp: string}): Record<string, unknown> {
  const {taskId, turn} = scenario
  const flow = runDirectModeTurn({
    taskId, turn, worktreeRoot: env.root, sdk: {kind: 'no-report'}, gitChanges: scenario.git, taskType: scenario.taskType,
    criteria: {taskLoader: scenario.acceptanceCriteria, frontmatter: scenario.acceptanceCriteria}, timestamp: env.timestamp,
  }, flags)
  const reportPath = joinPath(env.root, '.guardkit', 'autobuild', taskId, `player_turn_${turn}.json`)
  const hide = (s: string) => s.split(reportPath).join(PATH_PLACEHOLDER)
  const twr = flow.taskWorkResults
  const promisesReachCoach = pyTruthy(twr.completion_promises)
  // The decisive facts only: when no promises reach the Coach on the success path, the invocation
  // and the gates are as in the promise case, and the description is about the missing promises.
  const full = flow.path === 'failure' || promisesReachCoach
  const out: Record<string, unknown> = {}
  if (full) out.player_invocation = describeInvocation(flow, hide)
  out['task_work_results.json'] = describeResults(flow, full)
  if (flow.needsStateRecovery) out.orchestrator = describeRecovery(scenario, flow, flags, env.timestamp)
  out.coach = describeCoach(scenario, flow, flags, env.root, hide)
  return out
}

function describeInvocation(flow: DirectModeFlow, hide: (s: string) => string): string {
  if (flow.path === 'failure') {
    return `PlayerReportNotFoundError after ${LOAD_RETRIES} retries -> success=${pyRepr(flow.success)}, error=${pyReprStr(hide(flow.error ?? ''))}`
  }
  const written = flow.playerReport
  const source = flow.criteriaSource === 'task-loader' ? 'TaskLoader' : 'frontmatter'
  const carries = [pyTruthy(written._synthetic) ? `_synthetic=${pyRepr(true)}` : 'no _synthetic', pyTruthy(written.completion_promises) ? 'promises' : 'no promises']
  return `synthetic report built (${source} AC), written to ${REPORT_PATH_IN_DESCRIPTION} with ${carries.join(' and ')}, reloaded, success=${pyRepr(flow.success)}`
}

function describeResults(flow: DirectModeFlow, full: boolean): Record<string, unknown> {
  const twr = flow.taskWorkResults
  const out: Record<string, unknown> = {}
  if (full) {
    out.success = twr.success
    out['quality_gates.all_passed'] = isPyDict(twr.quality_gates) ? twr.quality_gates.all_passed : null
    if ('error_type' in twr) out.error_type = twr.error_type
  }
  out._synthetic = '_synthetic' in twr ? twr._synthetic : 'absent'
  if (Array.isArray(twr.completion_promises) && twr.completion_promises.length > 0) {
    out.completion_promises = twr.completion_promises.map((p) => pick(p, ['criterion_id', 'status', 'evidence_type']))
  } else {
    const why = flow.path === 'synthetic' ? missingPromisesReason(flow) : null
    out.completion_promises = why ? `absent (${why})` : 'absent'
  }
  return out
}

function missingPromisesReason(flow: DirectModeFlow): string {
  const event = flow.events.find((e) => e.field === 'completion_promises' && e.kind === 'skipped')
  if (event?.flag === 'directSyntheticPromises') return 'synthetic report built without promises'
  const synthetic = flow.syntheticReport ?? {}
  return synthetic._synthetic ? 'shared builder only generates promises for scaffolding' : 'synthetic report built without promises'
}

function describeRecovery(scenario: MissingReportScenario, flow: DirectModeFlow, flags: LogicFlags, timestamp: string): string {
  const recovered = buildStateRecoveryReport({
    turn: scenario.turn, filesModified: scenario.git.modified, filesCreated: scenario.git.created, testsWritten: [], testCount: 0,
    testsPassed: false, testOutputSummary: null, detectionMethod: 'git_only', gitInsertions: 0, gitDeletions: 0,
  }, flow.error, scenario.acceptanceCriteria, scenario.taskType, flags, {timestamp})
  const promises = recovered.report.completion_promises
  const kind = scenario.taskType === 'scaffolding' ? 'file-existence' : 'git-analysis'
  const note = pyTruthy(promises) ? `${kind} promises NOT persisted where Coach reads` : 'no promises'
  return `is_missing_report -> _attempt_state_recovery -> autobuild._build_synthetic_report (in-memory only; ${note})`
}

function describeCoach(scenario: MissingReportScenario, flow: DirectModeFlow, flags: LogicFlags, root: string, hide: (s: string) => string): string {
  const twr = flow.taskWorkResults
  const reportFile = relativeTo(joinPath(root, '.guardkit', 'autobuild', scenario.taskId, `player_turn_${scenario.turn}.json`), root)!
  const view = createVirtualWorktree({root, files: {[reportFile]: pyJsonDumps(flow.playerReport)}, missing: 'absent'})
  const task = {acceptance_criteria: scenario.acceptanceCriteria, task_type: scenario.taskType}
  if ('error' in twr) {
    const outcome = validate({taskId: scenario.taskId, turn: scenario.turn, task, skipArchReview: true, view, taskWorkResults: {value: twr},
      independentTests: {kind: 'unrecorded'}, flags, sink: collectingSink()})
    if (outcome.kind !== 'validated') return `validate() ${outcome.kind}`
    const r = outcome.result
    const issues = r.issues.map((i) => `{severity ${i.severity}, category ${i.category}, description ${pyReprStr(hide(String(i.description)))}}`)
    return `twr contains an 'error' key -> validate() short-circuits: decision ${r.decision}, issues [${issues.join(', ')}], rationale ${pyReprStr(r.rationale)} (see ran vector ${SHORT_CIRCUIT_EXAMPLE})`
  }
  const sink = collectingSink()
  const checked = validateRequirements(task, twr, scenario.turn, {taskId: scenario.taskId, worktree: view, flags, log: sink})
  if (!checked.ok) return `validate_requirements raises ${checked.exception}`
  const v = checked.validation
  const counts = `${v.criteria_met}/${v.criteria_total}`
  const verdict = v.all_criteria_met ? 'approve (if gates pass)' : 'feedback'
  switch (checked.explanation.strategy) {
    case 'synthetic-promises':
      return `synthetic path -> _match_by_promises -> ${counts} verified -> ${verdict}`
    case 'synthetic-none': {
      const warning = sink.records.find((r) => r.level === 'WARNING' && r.logger === LOGGERS.coach && r.message.includes('completion_promises'))
      const said = warning ? ` with '${warning.message.split(' — ')[0]}' dump` : ''
      return `synthetic path, no promises -> _build_all_unmet -> ${counts}${said}`
    }
    case 'text':
      return `text path -> _match_by_text against requirements_met ${pyRepr(twr.requirements_met ?? [])} -> ${counts} verified -> ${verdict}`
    default:
      return `${checked.explanation.strategy} path -> ${counts} verified -> ${verdict}`
  }
}

function pick(value: unknown, keys: readonly string[]): JsonRecord {
  const out: JsonRecord = {}
  if (isPyDict(value)) for (const k of keys) if (k in value) out[k] = value[k]
  return out
}
