import {resolveTaskProfile, validate, type CoachValidateOutcome} from '../logic/coach/index.js'
import type {IndependentTestsInput} from '../logic/coach/index.js'
import {collectingSink, type LogRecord} from '../logic/log-sink.js'
import {asArray, asObject, countVerifiedCriteria, extractFeedback, type JsonObject} from '../logic/orchestrator/index.js'
import {createPlayerReportFromTaskWork, directModeTaskFacts, isValidFilePath, runDirectModeTurn, type PipelineEvent} from '../logic/pipeline/index.js'
import {createVirtualWorktree, type WorktreeView} from '../logic/worktree.js'
import {describeFlags, differingFlags, PIPELINE_FLAGS, type ProfileContext} from './profile-context.js'
import {agentPromisesInput, assumedPromises, SOME_UNKNOWN} from './assumed-promises.js'
import {exactDespiteMissing} from './exactness.js'
import type {TurnInputs} from './turn-inputs.js'
import {assumedValue, type PromiseCoverage, type UnknownInput} from './unknown-inputs.js'
import type {CoachDetail, CoachStep, Fidelity, PlayerDetail} from './types.js'
import {worse, type TurnDecision} from './turn-decision.js'
import {pyJsonDumps} from '../logic/python/json-dumps.js'
import {clonePyJson} from '../logic/python/json-numbers.js'

/** Absolute root used when the records never show the worktree path (docs/guardkit-logic.md §12: the harness's virtual root). */
const DEFAULT_ROOT = '/worktree/root'

/** Player reports this profile's pipeline wrote for earlier turns (the Coach's prior-turn scan reads them). */
export type PlayerReports = Readonly<Record<number, JsonObject>>

/**
 * A turn whose Coach inputs were recorded (task_work_results.json, player reports, coach_turn_N.json):
 * rebuild what the Coach read under this profile (the pipeline model, when the profile's Player side
 * differs from the code that ran and the raw inputs exist), then run `validate()` with the
 * independent-test result held as recorded (docs/guardkit-logic.md §6.4, §11). Null when `validate()` cannot run.
 */
export function decideFromArtifacts(ctx: ProfileContext, t: TurnInputs, reports: PlayerReports): TurnDecision | null {
  const twr = t.taskWorkResults
  if (!twr || !t.coachReport) return null
  const {inputs, flags} = ctx
  const sink = collectingSink()
  const root = inputs.worktreeRoot ?? DEFAULT_ROOT
  const assumptions: string[] = []
  const missing: string[] = [...t.missingInputs]
  let fidelity: Fidelity = twr.basis === 'recorded' ? 'exact' : 'approximate'
  if (twr.basis === 'reconstructed') assumptions.push(`task_work_results.json of turn ${t.turn} rebuilt from player_turn_${t.turn}.json and the last results file (quality gates, file lists, promises)`)
  if (!inputs.worktreeRoot) assumptions.push(`worktree path not recorded; ${DEFAULT_ROOT} stands in`)

  const player = coachInputsUnder(ctx, t, reports, root)
  fidelity = worse(fidelity, player.fidelity)
  // The stand-in root reaches the values only where a text prints it (a direct-mode failure names the report's path).
  if (!inputs.worktreeRoot && player.missing.some((m) => m.startsWith('the worktree path'))) fidelity = worse(fidelity, 'approximate')
  assumptions.push(...player.assumptions)
  missing.push(...player.missing)

  const view = viewFor(ctx, t.turn, {...reports, [t.turn]: player.playerReport}, player.taskWorkResults, root)
  const criteria = ctx.criteria
  if (!criteria) return null
  if (!criteria.exact) {
    fidelity = worse(fidelity, 'approximate')
    assumptions.push(`criteria from ${criteria.source}`)
  }
  const fm = frontmatterOf(ctx)
  const task: Record<string, unknown> = {acceptance_criteria: [...criteria.texts], task_type: inputs.taskType.value}
  if (Array.isArray(fm.requires_infrastructure)) task.requires_infrastructure = fm.requires_infrastructure
  if (Array.isArray(fm.consumer_context)) task.consumer_context = fm.consumer_context
  const tests = recordedTests(t.coachReport.value)
  const outcome = validate({
    taskId: inputs.taskId, turn: t.turn, task, skipArchReview: true, view, taskWorkResults: {value: player.taskWorkResults},
    independentTests: tests, flags, sink,
  })
  const raw = fromOutcome(ctx, t, outcome, player, {fidelity, assumptions, missing, logs: sink.records, testsHeld: tests.kind === 'stub'})
  if (raw === null) return null
  // Exact means exact: inputs that were rebuilt or assumed but provably cannot reach this turn's values.
  const exact = exactDespiteMissing(ctx, t, raw, raw.coach.step, player.taskWorkResults)
  const verdict: TurnDecision = exact === null ? raw : {...raw, fidelity: 'exact', decisionCertain: true, missingInputs: [], assumptions: [...raw.assumptions, exact]}
  return {
    ...verdict,
    unknowns: player.unknowns ?? [],
    ...(player.signatureUnknown !== undefined && verdict.decision === 'feedback' ? {signatureUnknown: player.signatureUnknown} : {}),
  }
}

interface CoachInputs {
  readonly taskWorkResults: JsonObject
  readonly playerReport: JsonObject
  readonly playerSuccess: boolean
  readonly source: PlayerDetail['source']
  readonly events: readonly PipelineEvent[]
  readonly agentReportKnown: boolean
  /** An input this profile's decision depends on is assumed (e.g. the agent's report). */
  readonly assumedInput: boolean
  /** Inputs the records lack, consulted under an enumerated value (the branches replay the others). */
  readonly unknowns?: readonly UnknownInput[]
  /** The feedback under the enumerated value is a stand-in whose signature cannot be computed. */
  readonly signatureUnknown?: string
  readonly fidelity: Fidelity
  readonly assumptions: readonly string[]
  readonly missing: readonly string[]
}

/** The files the Coach reads under this profile: recorded, or rebuilt by the pipeline model. */
function coachInputsUnder(ctx: ProfileContext, t: TurnInputs, reports: PlayerReports, root: string): CoachInputs {
  const recordedTwr = t.taskWorkResults!.value
  const recordedReport = t.playerReport?.value ?? {}
  const differs = differingFlags(ctx.flags, ctx.asRun, PIPELINE_FLAGS)
  const base = {taskWorkResults: recordedTwr, playerReport: recordedReport, playerSuccess: !t.playerFailed, events: [], agentReportKnown: t.agentReport !== null, assumedInput: false}
  if (ctx.asRun === null) {
    return {...base, assumedInput: true, source: 'recorded', fidelity: 'approximate', assumptions: ['the run\'s GuardKit version is unknown: the recorded Player files are taken as this profile\'s'], missing: []}
  }
  if (differs.length === 0 || t.playerFailed) {
    const note = t.playerFailed && differs.length > 0 ? [`the Player failed on turn ${t.turn}; the recorded files stand in for ${ctx.name}'s`] : []
    return {...base, assumedInput: note.length > 0, source: 'recorded', fidelity: note.length > 0 ? 'approximate' : 'exact', assumptions: note, missing: []}
  }
  return ctx.inputs.mode === 'direct' ? directInputs(ctx, t, reports, root, differs) : taskWorkInputs(ctx, t, reports, root, differs)
}

/** task-work: `_create_player_report_from_task_work` re-run on the results as the writer left them (docs/guardkit-logic.md §4.4). */
function taskWorkInputs(ctx: ProfileContext, t: TurnInputs, reports: PlayerReports, root: string, differs: readonly string[]): CoachInputs {
  const {flags, asRun} = ctx
  const assumptions: string[] = []
  const missing: string[] = []
  const recorded = t.taskWorkResults!.value
  // Undo what the as-run invoker wrote back (D11): the writer's own file never carries promises.
  const written: Record<string, unknown> = clonePyJson(recorded) as Record<string, unknown>
  if (asRun?.writeBackResults) delete written.completion_promises
  if (flags.writerPathFilter && !asRun?.writerPathFilter) {
    for (const key of ['files_created', 'files_modified']) written[key] = asArray(written[key]).filter((p) => typeof p === 'string' && isValidFilePath(p))
  }
  const qg = asObject(recorded.quality_gates) ?? {}
  const parserOutput: Record<string, unknown> = {files_modified: asArray(written.files_modified), files_created: asArray(written.files_created)}
  if (typeof qg.tests_passed === 'number') parserOutput.tests_passed = qg.tests_passed
  let agent = t.agentReport
  if (!agent && asRun?.recoverAgentPromises && recordedPromisesFromAgent(t)) {
    agent = {value: {completion_promises: clonePyJson(t.playerReport!.value.completion_promises)}, basis: `player_turn_${t.turn}.json's promises (only recoverAgentPromises puts the agent's promises there)`}
  }
  // recoverAgentPromises (D9): only a profile that recovers the agent's promises reads its own report. When
  // the code that ran recovered them too, the recorded report shows what that gave; otherwise the overwritten
  // report is an input the records lack, and each value it may have held is replayed (branches.ts).
  let unknown: UnknownInput | null = null
  let coverage: PromiseCoverage = 'none'
  const total = ctx.criteria?.texts.length ?? 0
  if (!agent && flags.recoverAgentPromises && !asRun?.recoverAgentPromises) {
    if (total > 0) {
      unknown = agentPromisesInput(total, t.turn)
      coverage = assumedValue(ctx.assume, unknown) as PromiseCoverage
      const promises = assumedPromises(coverage, total)
      if (promises.length > 0) agent = {value: {completion_promises: promises}, basis: `assumed: ${unknown.values.find((v) => v.value === coverage)!.assume}`}
      assumptions.push(`one of the values enumerated for the agent's own report: ${unknown.values.find((v) => v.value === coverage)!.assume}`)
    } else {
      assumptions.push(`assumes the agent wrote no completion_promises on turn ${t.turn}`)
      missing.push(`player_turn_${t.turn}.json as written by the agent`)
    }
  }
  // The git lists reach the Coach only through file-existence promises or the zero-test check (gitListsMatter).
  const gitMatters = gitListsMatter(ctx, t)
  if (gitMatters) missing.push(`git change lists of turn ${t.turn} (git diff --name-only)`)
  if (lossyWriterUndo(ctx)) missing.push(`the file lists of turn ${t.turn} as the parser gave them (the code that ran had writerPathFilter, which dropped entries that are not file paths)`)
  assumptions.push(`parser output rebuilt from task_work_results.json of turn ${t.turn}; git-detected files not added${gitMatters ? '' : ' (they cannot change this turn\'s verdict: no file-existence promises apply, and the zero-test check does not look at them)'}`)
  const view = viewFor(ctx, t.turn, reports, written, root)
  const sink = collectingSink()
  const rebuilt = createPlayerReportFromTaskWork({
    taskId: ctx.inputs.taskId, turn: t.turn, taskWorkResults: written, taskWorkOutput: parserOutput, gitChanges: null,
    agentReport: agent?.value ?? null, worktree: view,
  }, flags, sink)
  if (!rebuilt.ok) {
    return {taskWorkResults: written, playerReport: {}, playerSuccess: false, source: 'pipeline-task-work', events: rebuilt.events, agentReportKnown: agent !== null,
      assumedInput: true, fidelity: 'approximate', assumptions: [...assumptions, `the invoker raised: ${rebuilt.exception}`], missing}
  }
  return {
    taskWorkResults: (asObject(rebuilt.taskWorkResultsAfter) ?? written) as JsonObject,
    playerReport: rebuilt.playerReport,
    playerSuccess: true,
    source: 'pipeline-task-work',
    events: rebuilt.events,
    agentReportKnown: agent !== null && unknown === null,
    assumedInput: agent === null && flags.recoverAgentPromises && !asRun?.recoverAgentPromises && unknown === null,
    // Rebuilt deterministically from recorded inputs: approximate only where a missing input can reach the Coach.
    fidelity: gitMatters || lossyWriterUndo(ctx) || (agent === null && unknown === null && flags.recoverAgentPromises && !asRun?.recoverAgentPromises) ? 'approximate' : 'exact',
    assumptions: [...assumptions, `the Player side differs from the code that ran (${describeFlags(differs as never[])})`],
    missing,
    unknowns: unknown ? [unknown] : [],
    ...(coverage === 'some' ? {signatureUnknown: SOME_UNKNOWN} : {}),
  }
}

/**
 * Whether the git-detected file lists, which the records do not hold, can change the Coach's verdict on this
 * turn: through the invoker's file-existence fallback (D10: no promises, criteria in the task file's
 * frontmatter, docs/guardkit-logic.md §2 S000 Fix 5) or through the zero-test check (docs/guardkit-logic.md §6.8), which reads `tests_written` unless the
 * independent tests passed with a real command. Test detection is moot: the test result is held as recorded.
 */
function gitListsMatter(ctx: ProfileContext, t: TurnInputs): boolean {
  const fm = frontmatterOf(ctx)
  if (ctx.flags.fileExistencePromises && Array.isArray(fm.acceptance_criteria) && fm.acceptance_criteria.length > 0) return true
  const profile = resolveTaskProfile(ctx.inputs.taskType.value)
  if (profile.ok && !profile.profile.tests_required) return false
  const tests = asObject(asObject(t.coachReport?.value.validation_results)?.independent_tests)
  const passedForReal = tests?.tests_passed === true && typeof tests.test_command === 'string' && tests.test_command !== 'skipped'
  return !passedForReal
}

/** The code that ran filtered the writer's file lists (D5) and this profile does not: what it dropped is gone. */
function lossyWriterUndo(ctx: ProfileContext): boolean {
  return Boolean(ctx.asRun?.writerPathFilter) && !ctx.flags.writerPathFilter
}

/** The recorded report's promises came from the agent (no file-existence evidence, results had none of their own). */
function recordedPromisesFromAgent(t: TurnInputs): boolean {
  const promises = asArray(t.playerReport?.value.completion_promises)
  return promises.length > 0 && promises.every((p) => asObject(p)?.evidence_type === undefined)
}

/** direct mode: `_invoke_player_direct` after the SDK call, on what the SDK left (docs/guardkit-logic.md §5.1). */
function directInputs(ctx: ProfileContext, t: TurnInputs, reports: PlayerReports, root: string, differs: readonly string[]): CoachInputs {
  const report = t.playerReport?.value ?? null
  const notes = typeof report?.implementation_notes === 'string' ? report.implementation_notes : ''
  const synthetic = t.record.player.reportSource?.value === 'direct-synthetic' || notes.startsWith('Direct mode SDK invocation completed (git-detected')
  const assumptions: string[] = [`the Player side differs from the code that ran (${describeFlags(differs as never[])})`]
  const missing: string[] = []
  const sdk = synthetic ? {kind: 'no-report' as const} : report ? {kind: 'report' as const, report} : {kind: 'no-report' as const}
  if (!synthetic && !report) missing.push(`player_turn_${t.turn}.json as the SDK left it`)
  const git = synthetic && report ? {modified: asArray(report.files_modified).filter((f): f is string => typeof f === 'string'), created: asArray(report.files_created).filter((f): f is string => typeof f === 'string')} : null
  if (synthetic) assumptions.push(`git changes of turn ${t.turn} taken from the synthetic report's file lists`)
  const view = viewFor(ctx, t.turn, reports, t.taskWorkResults!.value, root)
  const facts = directModeTaskFacts(view, ctx.inputs.taskId, ctx.flags)
  const flow = runDirectModeTurn({
    taskId: ctx.inputs.taskId, turn: t.turn, worktreeRoot: root, sdk, gitChanges: git, taskType: facts.taskType,
    criteria: facts.criteria, timestamp: String(t.taskWorkResults!.value.timestamp ?? ''),
  }, ctx.flags)
  if (!ctx.inputs.worktreeRoot && !flow.success) {
    assumptions.push('the failure text names the worktree path, which is not recorded')
    missing.push('the worktree path (the failure text names the missing player report by its absolute path)')
  }
  return {
    taskWorkResults: flow.taskWorkResults as JsonObject,
    playerReport: flow.playerReport as JsonObject,
    playerSuccess: flow.success,
    source: 'pipeline-direct',
    events: flow.events,
    agentReportKnown: true,
    assumedInput: !synthetic && !report,
    fidelity: !synthetic && !report ? 'approximate' : 'exact',
    assumptions,
    missing,
  }
}

/** The worktree as the Coach saw it: this profile's player reports, the results file and the task file. */
function viewFor(ctx: ProfileContext, turn: number, reports: PlayerReports, twr: JsonObject, root: string): WorktreeView {
  const dir = `.guardkit/autobuild/${ctx.inputs.taskId}`
  const files: Record<string, string | null> = {[`${dir}/task_work_results.json`]: pyJsonDumps(twr)}
  for (const [k, report] of Object.entries(reports)) if (Number(k) <= turn) files[`${dir}/player_turn_${k}.json`] = pyJsonDumps(report)
  const tf = ctx.inputs.taskFile
  if (tf) {
    const i = tf.file.indexOf('tasks/')
    files[i >= 0 ? tf.file.slice(i) : tf.file] = tf.text
  }
  return createVirtualWorktree({root, files, missing: 'unknown-absent'})
}

function frontmatterOf(ctx: ProfileContext): Record<string, unknown> {
  return ctx.inputs.taskFile?.frontmatter ?? {}
}

/** The independent test result the recorded Coach used, held as recorded (docs/guardkit-logic.md §6.4: tests cannot be re-run). */
function recordedTests(report: JsonObject): IndependentTestsInput {
  const tests = asObject(asObject(report.validation_results)?.independent_tests)
  return tests ? {kind: 'stub', result: tests} : {kind: 'unrecorded'}
}

interface Extra {
  fidelity: Fidelity
  assumptions: string[]
  missing: string[]
  logs: readonly LogRecord[]
  testsHeld: boolean
}

function fromOutcome(ctx: ProfileContext, t: TurnInputs, outcome: CoachValidateOutcome, player: CoachInputs, extra: Extra): TurnDecision | null {
  const playerDetail: PlayerDetail = {
    source: player.source,
    mode: ctx.inputs.mode,
    events: player.events.map((e) => ({...e})),
    coachInputs: {
      taskWorkResults: player.taskWorkResults,
      playerReport: player.playerReport,
      promisesInResults: asArray(player.taskWorkResults.completion_promises).length,
      promisesInReport: asArray(player.playerReport.completion_promises).length,
      synthetic: Boolean(player.taskWorkResults._synthetic),
    },
    agentReportKnown: player.agentReportKnown,
  }
  if (outcome.kind !== 'validated') {
    const why = outcome.kind === 'raised' ? `validate() raised ${outcome.exception}: the orchestrator fell back to the LLM Coach` : `validate() needs ${outcome.missing.join(', ')}`
    if (outcome.kind === 'insufficient') return null
    return {
      decision: t.decision, criteriaMet: t.criteriaMet, criteriaTotal: t.criteriaTotal, feedback: t.feedback?.text ?? null,
      feedbackBasis: t.feedback ? 'recorded' : 'unknown', feedbackFrom: t.feedback?.from ?? null, feedbackIsRecorded: true,
      coachReport: t.coachReport!.value, playerReport: player.playerReport, playerSuccess: player.playerSuccess, recordedCheckpoint: t.checkpointPassed,
      fidelity: 'approximate', decisionCertain: false, assumptions: [...extra.assumptions, `${why}; the recorded LLM Coach decision stands in`], missingInputs: extra.missing, logs: extra.logs,
      player: playerDetail, coach: coachDetail(ctx, t, null, outcome, why),
    }
  }
  const report = outcome.report
  const decision = report.decision === 'approve' ? 'approve' : 'feedback'
  const feedback = decision === 'approve' ? null : extractFeedback(report)
  const requirements = asObject(asObject(report.validation_results)?.requirements)
  const met = countVerifiedCriteria(report)
  const total = requirements && typeof requirements.criteria_total === 'number' ? requirements.criteria_total : (ctx.criteria?.texts.length ?? null)
  if (extra.testsHeld) extra.assumptions.push('independent test result held as recorded (docs/guardkit-logic.md §6.4)')
  if (outcome.unknowns.length > 0) extra.fidelity = worse(extra.fidelity, 'approximate')
  return {
    decision, criteriaMet: met, criteriaTotal: total, feedback, feedbackBasis: feedback === null ? 'unknown' : 'full',
    feedbackFrom: feedback === null ? null : '_extract_feedback over the replayed Coach report', feedbackIsRecorded: false,
    coachReport: report, playerReport: player.playerReport, playerSuccess: player.playerSuccess, recordedCheckpoint: null,
    fidelity: extra.fidelity, decisionCertain: !player.assumedInput, assumptions: extra.assumptions, missingInputs: extra.missing, logs: extra.logs,
    player: playerDetail, coach: coachDetail(ctx, t, report, outcome, null),
  }
}

function coachDetail(ctx: ProfileContext, t: TurnInputs, report: JsonObject | null, outcome: CoachValidateOutcome, why: string | null): CoachDetail {
  const vr = asObject(report?.validation_results)
  const tests = asObject(vr?.independent_tests)
  const validated = outcome.kind === 'validated' ? outcome : null
  return {
    source: validated ? 'validated' : 'recorded-report',
    notValidatedBecause: why,
    taskType: ctx.inputs.taskType.value,
    criteria: ctx.criteria ? {texts: ctx.criteria.texts, source: ctx.criteria.source} : null,
    report: report ?? t.coachReport?.value ?? null,
    step: stepOf(report, outcome),
    gates: asObject(vr?.quality_gates),
    independentTests: tests ? {
      passed: tests.tests_passed,
      command: typeof tests.test_command === 'string' ? tests.test_command : null,
      summary: typeof tests.test_output_summary === 'string' ? tests.test_output_summary : null,
      durationSeconds: typeof tests.duration_seconds === 'number' ? tests.duration_seconds : null,
      basis: 'recorded-report',
    } : null,
    failureClass: failureClassOf(report),
    testCommand: validated?.testCommand ?? null,
    testDispatch: validated?.testDispatch ? {...validated.testDispatch} : null,
    requirements: validated?.requirements ? (JSON.parse(JSON.stringify(validated.requirements.explanation)) as Record<string, unknown>) : null,
    raised: outcome.kind === 'raised' ? outcome.exception : null,
    unknowns: [...outcome.unknowns],
  }
}

function failureClassOf(report: JsonObject | null): CoachDetail['failureClass'] {
  const issue = asObject(asArray(report?.issues)[0])
  if (typeof issue?.failure_classification !== 'string') return null
  return {classification: issue.failure_classification, confidence: typeof issue.failure_confidence === 'string' ? issue.failure_confidence : null}
}

function stepOf(report: JsonObject | null, outcome: CoachValidateOutcome): CoachStep {
  if (outcome.kind === 'raised') return 'raised'
  if (!report) return 'unknown'
  if (report.decision === 'approve') return 'approved'
  switch (asObject(asArray(report.issues)[0])?.category) {
    case 'invalid_task_type':
      return 'invalid-task-type'
    case 'missing_results':
      return 'missing-results'
    case 'test_verification':
      return 'independent-tests'
    case 'missing_requirement':
      return 'requirements'
    case 'zero_test_anomaly':
      return 'zero-test-anomaly'
    default:
      return 'quality-gates'
  }
}
