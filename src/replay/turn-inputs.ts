import {clonePyJson} from '../logic/python/json-numbers.js'
import {asArray, asObject, extractFeedback, type JsonObject} from '../logic/orchestrator/index.js'
import {pyLen, pySlice} from '../logic/python/index.js'
import {attemptOf} from '../model/attempt-of.js'
import type {Evidence} from '../model/evidence.js'
import type {CoachDecision, Outcome} from '../model/outcome.js'
import type {ArtifactVersion, RunRecord, StallRecord, TaskRun, TurnRecord} from '../model/run-record.js'

/**
 * What the model can be given for one task run and each of its turns, and what is missing: the
 * turns rebuilt from the records, before any replay (docs/cli.md, `analyze`). Everything here is read
 * from the RunRecord; nothing is replayed yet.
 */
export interface TaskInputs {
  readonly taskId: string
  readonly attempt: number
  readonly mode: 'task-work' | 'direct' | null
  /** The raw `task_type` GuardKit's TaskLoader returns (frontmatter), else the resolved one the log printed. */
  readonly taskType: {readonly value: string | null; readonly source: 'task-file' | 'log' | 'results' | 'default'}
  readonly taskFile: {readonly file: string; readonly text: string; readonly frontmatter: Readonly<Record<string, unknown>>} | null
  /** Criteria texts as recorded (the Coach's report, the task file, the log), when known. */
  readonly criteria: {readonly texts: readonly string[]; readonly source: string; readonly complete: boolean} | null
  readonly settings: LoopSettings
  /** Absolute worktree path as GuardKit saw it, when the records show one. */
  readonly worktreeRoot: string | null
  readonly turns: readonly TurnInputs[]
  readonly boundary: RecordedBoundary | null
  readonly recordedOutcome: {readonly outcome: Outcome; readonly evidence: readonly Evidence[]} | null
  readonly recordedStall: StallRecord | null
  /** The log or artifacts stop before the task ended (no outcome recorded). */
  readonly cut: boolean
  readonly missingInputs: readonly string[]
}

export interface LoopSettings {
  readonly maxTurns: number | null
  readonly perspectiveResetTurns: readonly number[] | null
  readonly rollbackOnPollution: boolean | null
  /** Failing checkpoints of an earlier run the pollution window counted (turn numbers). */
  readonly priorFailingCheckpoints: readonly number[]
}

/** How the recorded loop was cut short by something the model does not decide (a recorded input). */
export type RecordedBoundary =
  | {readonly kind: 'cancelled'; readonly turn: number; readonly where: 'between-player-and-coach' | 'after-turn' | 'before-player'; readonly evidence: readonly Evidence[]}
  | {readonly kind: 'timeout'; readonly turn: number | null; readonly seconds: number | null; readonly evidence: readonly Evidence[]}
  | {readonly kind: 'crash'; readonly turn: number | null; readonly message: string; readonly evidence: readonly Evidence[]}
  | {readonly kind: 'other'; readonly outcome: Outcome; readonly turn: number | null; readonly evidence: readonly Evidence[]}

/** What the Coach's recorded decision was about (docs/guardkit-logic.md §6.1 steps), from its report or the log. */
export type TurnKind = 'approved' | 'invalid-task-type' | 'missing-results' | 'gates' | 'tests' | 'requirements' | 'zero-test' | 'error' | 'unknown'

export interface RecordedFeedback {
  readonly text: string
  /** full: the whole text was recorded; rebuilt: reconstructed exactly from other records; category: only an excerpt. */
  readonly basis: 'full' | 'rebuilt' | 'category'
  readonly from: string
  readonly evidence: readonly Evidence[]
}

export interface TurnInputs {
  readonly turn: number
  readonly record: TurnRecord
  readonly decision: CoachDecision | null
  readonly criteriaMet: number | null
  readonly criteriaTotal: number | null
  readonly kind: TurnKind
  /** The as-run Coach's feedback, as well as the records allow. */
  readonly feedback: RecordedFeedback | null
  /** The log's excerpt or full text (what `recorded.turns[].feedback` shows). */
  readonly loggedFeedback: {readonly text: string; readonly completeness: 'full' | 'truncated'} | null
  /** The checkpoint's `tests: pass|fail`, as recorded. */
  readonly checkpointPassed: boolean | null
  readonly coachReport: {readonly value: JsonObject; readonly file: string} | null
  /** task_work_results.json as the Coach read it on this turn. */
  readonly taskWorkResults: {readonly value: JsonObject; readonly file: string; readonly basis: 'recorded' | 'reconstructed'} | null
  /** player_turn_N.json as it stood after the turn (the invoker's rewrite in task-work mode). */
  readonly playerReport: {readonly value: JsonObject; readonly file: string} | null
  /** The report the agent wrote before the invoker replaced it: null value = it wrote none; absent = unknown. */
  readonly agentReport: {readonly value: JsonObject | null; readonly basis: string} | null
  readonly playerFailed: boolean
  readonly missingInputs: readonly string[]
}

/** The AutoBuild summary's default (docs/guardkit-logic.md §8.1). */
export const DEFAULT_MAX_TURNS = 5
const TASK_WORK_NOTES = 'Implementation via task-work delegation'
const FEEDBACK_PREVIEW = 80

export function collectTaskInputs(run: RunRecord, task: TaskRun): TaskInputs {
  const turns = [...task.turns].sort((a, b) => a.turn - b.turn)
  const history = taskFileFeedback(task, turns)
  const lastTwrTurn = turns.filter((t) => t.artifacts.taskWorkResults.length > 0).at(-1)?.turn ?? null
  const finalTwr = lastTwrTurn === null ? null : asObject(turns.find((t) => t.turn === lastTwrTurn)!.artifacts.taskWorkResults.at(-1)!.json)
  const versions = resultsVersionsByTurn(turns)
  const inputs = turns.map((t) => collectTurn(task, t, history.get(t.turn) ?? null, finalTwr, lastTwrTurn, versions.get(t.turn) ?? null))
  const missing = new Set<string>()
  for (const t of inputs) for (const m of t.missingInputs) missing.add(m)
  const attempt = attemptOf(run, task.attempt, (a) => a.taskIds.includes(task.taskId)) ?? null
  const settings: LoopSettings = {
    maxTurns: task.maxTurns?.value ?? attempt?.settings.maxTurns?.value ?? maxTurnsFromContext(task),
    perspectiveResetTurns: attempt?.settings.enablePerspectiveReset?.value === false ? [] : (attempt?.settings.resetTurns?.value ?? null),
    rollbackOnPollution: attempt?.settings.rollbackOnPollution?.value ?? null,
    priorFailingCheckpoints: priorFailing(task, turns),
  }
  if (settings.maxTurns === null) missing.add('the max-turns setting (the log prints it as "Executing turn 1/N")')
  return {
    taskId: task.taskId,
    attempt: task.attempt,
    mode: task.mode?.value ?? null,
    taskType: taskTypeOf(task),
    taskFile: task.taskFile ? {file: task.taskFile.file, text: task.taskFile.text, frontmatter: task.taskFile.frontmatter} : null,
    criteria: task.criteria ? {texts: task.criteria.texts, source: task.criteria.source, complete: task.criteria.complete} : null,
    settings,
    worktreeRoot: worktreeRootOf(task),
    turns: inputs,
    boundary: boundaryOf(task),
    recordedOutcome: task.outcome ? {outcome: task.outcome.value, evidence: task.outcome.evidence} : null,
    recordedStall: task.stall,
    cut: task.outcome === null,
    missingInputs: [...missing],
  }
}

/**
 * task_work_results.json is rewritten every turn; a recording keeps the earlier versions (oldest
 * first, the final file last), which ingest files under the last turn. With one version per turn
 * they are the turns' own results files, in order.
 */
function resultsVersionsByTurn(turns: readonly TurnRecord[]): Map<number, ArtifactVersion> {
  const out = new Map<number, ArtifactVersion>()
  const holder = turns.filter((t) => t.artifacts.taskWorkResults.length > 0).at(-1)
  if (!holder) return out
  const versions = holder.artifacts.taskWorkResults
  const upTo = turns.filter((t) => t.turn <= holder.turn)
  if (versions.length > upTo.length) return out
  const owners = upTo.slice(upTo.length - versions.length)
  owners.forEach((t, i) => out.set(t.turn, versions[i]!))
  return out
}

function collectTurn(task: TaskRun, t: TurnRecord, historyFeedback: string | null, finalTwr: JsonObject | null, lastTwrTurn: number | null, ownTwr: ArtifactVersion | null): TurnInputs {
  const missing: string[] = []
  const coachVersion = t.artifacts.coachReport
  const coachJson = asObject(coachVersion?.json)
  const coachReport = coachJson && coachVersion && isModelledCoachReport(coachJson) ? {value: coachJson, file: coachVersion.file} : null
  const playerVersion = t.artifacts.playerReport.at(-1)
  const playerJson = asObject(playerVersion?.json)
  const playerReport = playerJson && playerVersion ? {value: playerJson, file: playerVersion.file} : null
  const twrVersion = ownTwr ?? t.artifacts.taskWorkResults.at(-1)
  const twrJson = asObject(twrVersion?.json)
  let taskWorkResults: TurnInputs['taskWorkResults'] = twrJson && twrVersion ? {value: twrJson, file: twrVersion.file, basis: 'recorded'} : null
  if (!taskWorkResults && finalTwr && playerReport && lastTwrTurn !== null && t.turn < lastTwrTurn) {
    taskWorkResults = {value: reconstructResults(finalTwr, playerReport.value, coachReport?.value ?? null), file: `task_work_results.json (turn ${t.turn}, rebuilt)`, basis: 'reconstructed'}
    missing.push(`task_work_results.json of turn ${t.turn} (overwritten by turn ${lastTwrTurn}; rebuilt from player_turn_${t.turn}.json)`)
  }
  const playerFailed = t.player.status?.value === 'error' || t.stateRecovery !== null
  const agentReport = agentReportOf(t, playerReport?.value ?? null, task.mode?.value ?? null)
  const logged = t.coach.feedback ? {text: t.coach.feedback.text, completeness: t.coach.feedback.completeness} : null
  const kind = turnKind(t, coachReport?.value ?? null)
  const feedback = bestFeedback(task, t, coachReport, historyFeedback, kind)
  if (t.coach.decision?.value === 'feedback' && feedback?.basis === 'category') missing.push(`the full feedback text of turn ${t.turn} (the log keeps ${FEEDBACK_PREVIEW} characters)`)
  return {
    turn: t.turn,
    record: t,
    decision: t.coach.decision?.value ?? null,
    criteriaMet: t.coach.criteriaMet?.value ?? (coachReport ? verifiedIn(coachReport.value) : null),
    criteriaTotal: t.coach.criteriaTotal?.value ?? null,
    kind,
    feedback,
    loggedFeedback: logged,
    checkpointPassed: t.checkpoint?.value.testsPassed ?? null,
    coachReport,
    taskWorkResults,
    playerReport,
    agentReport,
    playerFailed,
    missingInputs: missing,
  }
}

/** Coach reports of the modelled shape (docs/guardkit-logic.md §7.8); the LLM Coach's v4 reports are not. */
function isModelledCoachReport(report: JsonObject): boolean {
  const vr = asObject(report.validation_results)
  return vr !== null && ('quality_gates' in vr || 'requirements' in vr || 'independent_tests' in vr) && !('requirements_met' in vr)
}

function verifiedIn(report: JsonObject): number {
  return asArray(asObject(report.acceptance_criteria_verification)?.criteria_results).filter((r) => asObject(r)?.status === 'verified').length
}

/**
 * task_work_results.json keeps only the last turn (docs/record-formats.md §6.12). For an earlier turn the file is
 * rebuilt from that turn's player report, which the invoker built from it: file lists, tests written,
 * promises (when the era writes them back) and the test count; the gate booleans from the Coach's report.
 */
function reconstructResults(finalTwr: JsonObject, report: JsonObject, coach: JsonObject | null): JsonObject {
  const out: Record<string, unknown> = clonePyJson(finalTwr) as Record<string, unknown>
  for (const key of ['files_modified', 'files_created', 'tests_written'] as const) if (key in report) out[key] = clonePyJson(report[key])
  if ('completion_promises' in finalTwr) {
    if (asArray(report.completion_promises).length > 0) out.completion_promises = clonePyJson(report.completion_promises)
    else delete out.completion_promises
  }
  const qg = {...(asObject(finalTwr.quality_gates) ?? {})} as Record<string, unknown>
  if (typeof report.tests_passed_count === 'number') qg.tests_passed = report.tests_passed_count
  const gates = asObject(asObject(coach?.validation_results)?.quality_gates)
  if (gates) {
    if (typeof gates.all_gates_passed === 'boolean') qg.all_passed = gates.all_gates_passed
    if (typeof gates.tests_passed === 'boolean') qg.tests_passing = gates.tests_passed
  }
  out.quality_gates = qg
  return out
}

function agentReportOf(t: TurnRecord, final: JsonObject | null, mode: string | null): TurnInputs['agentReport'] {
  const versions = t.artifacts.playerReport
  // A recording keeps every version: the first is the agent's when the invoker rewrote it.
  if (versions.length >= 2) {
    const first = asObject(versions[0]!.json)
    if (first && !isInvokerReport(first)) return {value: first, basis: `${versions[0]!.file} (first version, as the agent wrote it)`}
  }
  if (mode === 'direct') return final ? {value: final, basis: 'player_turn_N.json (direct mode keeps the agent report)'} : null
  if (final && !isInvokerReport(final)) return {value: final, basis: `${versions.at(-1)!.file} (not rewritten by the invoker)`}
  const recovered = t.player.promisesRecovered?.value ?? 0
  if (recovered > 0 && final && asArray(final.completion_promises).length === recovered) {
    // The invoker copied the agent's promises as they were (D9): what the Coach needs of the agent report.
    const value: Record<string, unknown> = {completion_promises: clonePyJson(final.completion_promises)}
    if (asArray(final.requirements_addressed).length > 0) value.requirements_addressed = clonePyJson(final.requirements_addressed)
    return {value, basis: `the "Recovered ${recovered} completion_promises from agent-written player report" record and ${versions.at(-1)!.file}`}
  }
  return null
}

function isInvokerReport(report: JsonObject): boolean {
  return typeof report.implementation_notes === 'string' && report.implementation_notes.startsWith(TASK_WORK_NOTES)
}

function turnKind(t: TurnRecord, report: JsonObject | null): TurnKind {
  if (report) {
    if (report.decision === 'approve') return 'approved'
    const category = asObject(asArray(report.issues)[0])?.category
    switch (category) {
      case 'invalid_task_type':
        return 'invalid-task-type'
      case 'missing_results':
        return 'missing-results'
      case 'test_verification':
        return 'tests'
      case 'missing_requirement':
        return 'requirements'
      case 'zero_test_anomaly':
        return 'zero-test'
      case 'coverage':
      case 'test_failure':
      case 'arch_review':
      case 'plan_audit':
        return 'gates'
    }
  }
  const c = t.coach
  if (c.decision?.value === 'approve') return 'approved'
  if (c.decision?.value === 'error') return 'error'
  if (c.gates?.value.allPassed === false) return 'gates'
  if (c.independentTests?.value.passed === false && !c.independentTests.value.skipped) return 'tests'
  if (c.zeroTestAnomaly?.value) return 'zero-test'
  if (c.missingCriteria || c.diagnosticDump) return 'requirements'
  const text = c.feedback?.text ?? ''
  if (text.startsWith('- Not all acceptance criteria met')) return 'requirements'
  if (text.startsWith('- Task-work results not found') || text.startsWith('- Player report not found') || t.stateRecovery) return 'missing-results'
  return 'unknown'
}

/** The as-run Coach's feedback: full from a file, rebuilt exactly from log records, else the excerpt. */
function bestFeedback(task: TaskRun, t: TurnRecord, coach: {value: JsonObject; file: string} | null, history: string | null, kind: TurnKind): RecordedFeedback | null {
  const logged = t.coach.feedback
  if (t.coach.decision?.value === 'approve') return null
  if (logged?.completeness === 'full') return {text: logged.text, basis: 'full', from: logged.evidence.some((e) => e.pointer !== undefined) ? 'the feedback file' : 'the log (shorter than 80 code points, shown whole)', evidence: logged.evidence}
  if (coach) {
    const text = extractFeedback(coach.value)
    if (text !== null) return {text, basis: 'full', from: `_extract_feedback over ${coach.file}`, evidence: [{file: coach.file, pointer: '/issues'}]}
  }
  if (history !== null) return {text: history, basis: 'full', from: `${task.taskFile!.file} autobuild_state.turns[${t.turn}].feedback`, evidence: [{file: task.taskFile!.file, note: `autobuild_state turn ${t.turn}`}]}
  const rebuilt = rebuildFromLog(t, kind)
  if (rebuilt) return rebuilt
  if (logged) return {text: logged.text, basis: 'category', from: 'the log excerpt (80 code points)', evidence: logged.evidence}
  return null
}

/** `_extract_feedback` of a missing-requirement issue: `- desc:` + up to 5 bullets cut at 100 code points (docs/guardkit-logic.md §8.3). */
export function missingCriteriaFeedback(missing: readonly string[]): string {
  return extractFeedback({issues: [{severity: 'must_fix', category: 'missing_requirement', description: 'Not all acceptance criteria met', missing_criteria: [...missing]}]}) ?? ''
}

/**
 * Feedback the log allows to rebuild exactly: a 0/N (or partial) text-match turn from the
 * `Requirements not met … missing [...]` list or the 0/N dump (both hold the criteria cut no shorter
 * than the 100 code points the feedback keeps), accepted only when it agrees with the log's excerpt.
 */
function rebuildFromLog(t: TurnRecord, kind: TurnKind): RecordedFeedback | null {
  const logged = t.coach.feedback
  if (kind !== 'requirements' || !logged) return null
  const candidates: {missing: readonly string[]; from: string; evidence: readonly Evidence[]}[] = []
  if (t.coach.missingCriteria) candidates.push({missing: t.coach.missingCriteria.value, from: 'the "Requirements not met … missing [...]" record', evidence: t.coach.missingCriteria.evidence})
  const dump = t.coach.diagnosticDump
  if (dump && dump.value.met === 0) candidates.push({missing: dump.value.criteria, from: `the 0/${dump.value.total} diagnostic dump`, evidence: dump.evidence})
  for (const c of candidates) {
    const text = missingCriteriaFeedback(c.missing)
    if (agreesWithExcerpt(text, logged.text)) return {text, basis: 'rebuilt', from: c.from, evidence: c.evidence}
  }
  return null
}

/** The progress line keeps `feedback[:80]` (docs/guardkit-logic.md §8.2 step 8); a rebuilt text must start with it. */
export function agreesWithExcerpt(full: string, excerpt: string): boolean {
  if (pyLen(full) <= FEEDBACK_PREVIEW) return full === excerpt
  return pySlice(full, 0, FEEDBACK_PREVIEW) === excerpt
}

/**
 * The task file's `autobuild_state.turns[].feedback` holds full feedback texts, but it often describes
 * another run (docs/record-formats.md §6.8): it is used only when every turn it shares with this run agrees with the
 * log's excerpts (and decisions), and at least one does.
 */
function taskFileFeedback(task: TaskRun, turns: readonly TurnRecord[]): Map<number, string> {
  const out = new Map<number, string>()
  const state = asObject(task.taskFile?.frontmatter.autobuild_state)
  if (!state) return out
  let agreeing = 0
  for (const entry of asArray(state.turns)) {
    const e = asObject(entry)
    const turn = typeof e?.turn === 'number' ? e.turn : null
    const feedback = typeof e?.feedback === 'string' ? e.feedback : null
    if (turn === null || feedback === null) continue
    const t = turns.find((x) => x.turn === turn)
    if (!t) continue
    const logged = t.coach.feedback
    if (e?.decision !== undefined && t.coach.decision && e.decision !== t.coach.decision.value) return new Map()
    if (logged && !agreesWithExcerpt(feedback, logged.text)) return new Map()
    if (logged) agreeing++
    out.set(turn, feedback)
  }
  return agreeing > 0 ? out : new Map()
}

function taskTypeOf(task: TaskRun): TaskInputs['taskType'] {
  const fm = task.taskFile?.frontmatter
  if (fm && 'task_type' in fm) return {value: typeof fm.task_type === 'string' ? fm.task_type : null, source: 'task-file'}
  if (task.taskType) {
    const fromLog = task.taskType.evidence.some((e) => e.line !== undefined)
    return {value: task.taskType.value, source: fromLog ? 'log' : 'results'}
  }
  return {value: null, source: 'default'}
}

function maxTurnsFromContext(task: TaskRun): number | null {
  const ctx = asObject(task.taskArtifacts?.turnContext?.json)
  return typeof ctx?.max_turns === 'number' ? ctx.max_turns : null
}

/** The pollution window's turns that are not turns of this run: failing checkpoints loaded from an earlier one. */
function priorFailing(task: TaskRun, turns: readonly TurnRecord[]): number[] {
  const own = new Set(turns.map((t) => t.turn))
  const prior = new Set<number>()
  for (const e of task.events) if (e.kind === 'context-pollution') for (const n of e.turns) if (!own.has(n)) prior.add(n)
  const cp = asObject(task.taskArtifacts?.checkpoints?.json)
  for (const c of asArray(cp?.checkpoints)) {
    const entry = asObject(c)
    if (entry?.from_prior_run && entry.tests_passed === false && typeof entry.turn === 'number') prior.add(entry.turn)
  }
  return [...prior].sort((a, b) => a - b)
}

function boundaryOf(task: TaskRun): RecordedBoundary | null {
  const cancels = task.events.filter((e) => e.kind === 'cancelled')
  const between = cancels.find((e) => e.where === 'between-player-and-coach')
  if (between) return {kind: 'cancelled', turn: between.turn ?? lastTurn(task), where: 'between-player-and-coach', evidence: between.evidence}
  const after = cancels.find((e) => e.where === 'after-turn')
  if (after) return {kind: 'cancelled', turn: after.turn ?? lastTurn(task), where: 'after-turn', evidence: after.evidence}
  const other = cancels[0]
  if (other) return {kind: 'cancelled', turn: other.turn ?? lastTurn(task) + 1, where: 'before-player', evidence: other.evidence}
  for (const e of task.events) {
    if (e.kind === 'orchestration-crash' && !/is not a valid CriterionStatus/.test(e.message)) return {kind: 'crash', turn: e.turn, message: e.message, evidence: e.evidence}
    if (e.kind === 'timeout-budget-exhausted') return {kind: 'other', outcome: 'timeout_budget_exhausted', turn: e.turn, evidence: e.evidence}
  }
  // the feature's task timeout ends the task only when none of its turns came after it: GuardKit's feature
  // orchestrator stops waiting for the task while its own loop may run on (docs/findings.md, "Recorded end")
  const timeout = task.events.find((e) => e.kind === 'feature-timeout')
  const endedByTimeout = timeout?.turn == null || !task.turns.some((t) => t.turn > timeout.turn!)
  if (timeout && timeout.kind === 'feature-timeout' && endedByTimeout) return {kind: 'timeout', turn: timeout.turn, seconds: timeout.seconds, evidence: timeout.evidence}
  const outcome = task.outcome?.value
  if (outcome && !['approved', 'unrecoverable_stall', 'max_turns_exceeded', 'error', 'cancelled', 'timeout'].includes(outcome)) {
    return {kind: 'other', outcome, turn: task.turnCount?.value ?? lastTurn(task), evidence: task.outcome!.evidence}
  }
  return null
}

function lastTurn(task: TaskRun): number {
  return task.turns.reduce((m, t) => Math.max(m, t.turn), 0)
}

/** The worktree root: the part before `/.guardkit/` of any absolute path GuardKit wrote into a report. */
function worktreeRootOf(task: TaskRun): string | null {
  for (const t of task.turns) {
    const reports = [...t.artifacts.taskWorkResults, ...t.artifacts.playerReport].map((v) => asObject(v.json))
    for (const r of reports) {
      for (const key of ['files_created', 'files_modified']) {
        for (const f of asArray(r?.[key])) {
          if (typeof f !== 'string') continue
          const i = f.indexOf('/.guardkit/autobuild/')
          if (f.startsWith('/') && i > 0) return f.slice(0, i)
        }
      }
    }
    const error = t.player.error?.value ?? ''
    const m = /(\/\S+?)\/\.guardkit\/autobuild\//.exec(error)
    if (m) return m[1]!
  }
  return null
}
