import {collectingSink, type LogRecord} from '../../logic/log-sink.js'
import {
  asObject,
  buildErrorMessage,
  buildSummaryDetails,
  checkDisplayCrash,
  completionPromiseFromDict,
  countCriteriaPassed,
  DEFAULT_TASK_TIMEOUT_SECONDS,
  displayCriteriaProgress,
  extractFeedback,
  featureTaskTimeout,
  feedbackSignature,
  formatPyException,
  initialLoopState,
  normalizeFeedbackForStall,
  runFeedbackStallSequence,
  stepLoop,
  STALL_THRESHOLD,
  type AgentResult,
  type JsonObject,
  type LoopState,
  type NumberedTurn,
  type TurnOutcome,
} from '../../logic/orchestrator/index.js'
import {UnsupportedInput, type AdapterTable} from './types.js'

/** How the oracle harness printed log records: `"LEVEL: message"`. */
function formatLog(r: LogRecord): string {
  return `${r.level}: ${r.message}`
}

const LEVELS = ['DEBUG', 'INFO', 'WARNING', 'ERROR'] as const
function logsAtLeast(records: readonly LogRecord[], level: (typeof LEVELS)[number]): string[] {
  return records.filter((r) => LEVELS.indexOf(r.level) >= LEVELS.indexOf(level)).map(formatLog)
}

function str(input: JsonObject, key: string): string {
  const v = input[key]
  if (typeof v !== 'string') throw new UnsupportedInput(`input.${key} is not a string`)
  return v
}

function num(input: JsonObject, key: string, fallback: number): number {
  const v = input[key] ?? fallback
  if (typeof v !== 'number') throw new UnsupportedInput(`input.${key} is not a number`)
  return v
}

/** The harness's stub Coach report: `criteria_verified` of `criteria_total` criteria verified. */
function stubCoachReport(t: JsonObject): JsonObject {
  const total = typeof t.criteria_total === 'number' ? t.criteria_total : 0
  const verified = typeof t.criteria_verified === 'number' ? t.criteria_verified : 0
  const results = Array.from({length: Math.max(total, verified)}, (_, i) => ({
    criterion_id: `AC-${String(i + 1).padStart(3, '0')}`,
    status: i < verified ? 'verified' : 'rejected',
  }))
  return {decision: t.decision, acceptance_criteria_verification: {criteria_results: results}}
}

/** A vector's turn (`decision`, `feedback`, `player_error`, `coach_error`, `has_coach`, `coach_report`, …) as a TurnOutcome. */
function turnOutcomeOf(t: JsonObject): TurnOutcome {
  const decision = typeof t.decision === 'string' ? t.decision : 'feedback'
  const coachReport = asObject(t.coach_report) ?? ('criteria_total' in t || 'criteria_verified' in t ? stubCoachReport(t) : null)
  const hasCoach = t.has_coach === true || coachReport !== null || typeof t.coach_error === 'string'
  const coachResult: AgentResult | null = hasCoach
    ? {success: decision !== 'error', report: coachReport ?? {}, error: typeof t.coach_error === 'string' ? t.coach_error : null}
    : null
  const playerResult: AgentResult = {
    success: typeof t.player_error !== 'string',
    report: asObject(t.player_report) ?? {},
    error: typeof t.player_error === 'string' ? t.player_error : null,
  }
  return {decision, feedback: typeof t.feedback === 'string' ? t.feedback : null, playerResult, coachResult}
}

function numberedTurns(input: JsonObject): NumberedTurn[] {
  const turns = Array.isArray(input.turns) ? input.turns : []
  return turns.map((raw, i) => {
    const t = asObject(raw) ?? {}
    return {turn: typeof t.turn === 'number' ? t.turn : i + 1, ...turnOutcomeOf(t)}
  })
}

function loopPhase(input: JsonObject, flags: Parameters<typeof stepLoop>[2]): unknown {
  const sink = collectingSink()
  const turns = (Array.isArray(input.turns) ? input.turns : []).map((t) => asObject(t) ?? {})
  let state: LoopState = initialLoopState({
    taskId: typeof input.task_id === 'string' ? input.task_id : 'TASK-X',
    maxTurns: num(input, 'max_turns', 5),
    enablePerspectiveReset: input.enable_perspective_reset !== false,
    // The loop_phase vectors ran with checkpoints disabled (docs/guardkit-logic.md §8.1).
    enableCheckpoints: input.enable_checkpoints === true,
    acceptanceCriteria: Array.isArray(input.acceptance_criteria) ? input.acceptance_criteria.map(String) : [],
  })
  while (!state.result) {
    const t = turns[state.turns.length]
    if (!t) throw new UnsupportedInput(`the loop asked for turn ${state.nextTurn}, the vector records ${turns.length}`)
    state = stepLoop(state, {kind: 'turn', outcome: turnOutcomeOf(t)}, flags, sink)
  }
  // `_loop_phase` itself raises: the wrapping into OrchestrationError happens in orchestrate().
  if (state.result.exception) return {exception: formatPyException(state.result.exception)}
  return {
    final_decision: state.result.outcome,
    turns_executed: state.turns.length,
    previous_feedback_per_turn: state.turns.map((t) => t.previousFeedback),
    logs: logsAtLeast(sink.records, 'WARNING'),
  }
}

/** Oracle adapters for the orchestrator functions (docs/guardkit-logic.md §12). */
export const ORCHESTRATOR_ADAPTERS: AdapterTable = {
  feedback_signature: (input, {flags}) => feedbackSignature(str(input, 'feedback'), flags),

  normalize_feedback_for_stall: (input, {flags}) => {
    // stallNormalize (D27): the function does not exist before 5c2b5d82.
    if (!flags.stallNormalize) throw new UnsupportedInput('_normalize_feedback_for_stall does not exist in this version')
    return normalizeFeedbackForStall(str(input, 'feedback'))
  },

  is_feedback_stalled_sequence: (input, {flags}) => {
    const calls = (Array.isArray(input.calls) ? input.calls : []).map((c): [string, number] => {
      if (!Array.isArray(c) || typeof c[0] !== 'string' || typeof c[1] !== 'number') throw new UnsupportedInput('a call is not [feedback, count]')
      return [c[0], c[1]]
    })
    const run = runFeedbackStallSequence(calls, flags, collectingSink(), num(input, 'threshold', STALL_THRESHOLD))
    return {results: run.results, history: run.state.history.map((e) => [e.signature, e.count])}
  },

  loop_phase: (input, {flags}) => loopPhase(input, flags),

  extract_feedback: (input) => extractFeedback(asObject(input.coach_report) ?? {}),

  count_criteria_passed: (input) => {
    const report = asObject(input.coach_report)
    return countCriteriaPassed({decision: 'feedback', feedback: null, playerResult: null, coachResult: report ? {success: true, report, error: null} : null})
  },

  display_criteria_progress: (input, {flags}) => {
    const sink = collectingSink()
    const rec: TurnOutcome = {
      decision: 'feedback',
      feedback: null,
      playerResult: {success: true, report: asObject(input.player_report) ?? {}, error: null},
      coachResult: {success: true, report: asObject(input.coach_report) ?? {}, error: null},
    }
    const ac = Array.isArray(input.acceptance_criteria) ? input.acceptance_criteria.map(String) : []
    const progress = displayCriteriaProgress(rec, ac, num(input, 'turn', 1), flags, sink)
    if (progress.kind === 'crashed') return {exception: formatPyException(progress.exception)}
    return {info_logs: logsAtLeast(sink.records, 'INFO')}
  },

  build_error_message: (input) => buildErrorMessage(str(input, 'final_decision'), numberedTurns(input), num(input, 'max_turns', 5)) ?? '',

  build_summary_details: (input, {flags}) =>
    buildSummaryDetails(
      str(input, 'final_decision'),
      numberedTurns(input),
      num(input, 'max_turns', 5),
      // The harness's orchestrator had this placeholder as its worktrees directory.
      typeof input.worktrees_dir === 'string' ? input.worktrees_dir : '<worktrees_dir>',
      flags,
    ),

  completion_promise_from_dict: (input, {flags}) => {
    const sink = collectingSink()
    const parsed = completionPromiseFromDict(asObject(input.data) ?? {}, flags, sink)
    if (!parsed.ok) return {exception: formatPyException(parsed.exception)}
    return {promise: parsed.value, logs: logsAtLeast(sink.records, 'INFO')}
  },

  orchestrate_display_crash: (input, {flags}) => {
    const taskId = typeof input.task_id === 'string' ? input.task_id : 'TASK-X'
    const check = checkDisplayCrash(taskId, input.player_report_completion_promises, flags, collectingSink())
    if (check.kind === 'crash') {
      const {final_decision, total_turns, error} = check.crash.featureResult
      return {raises: check.crash.raises, feature_orchestrator_task_result: {final_decision, total_turns, error}}
    }
    const accepted = [...new Set(check.statuses.filter((s) => s !== 'complete' && s !== 'incomplete'))].map((s) => s.toUpperCase())
    const display = accepted.length
      ? accepted.map((name) => `${name} status accepted (CriterionStatus.${name} added in ${check.sinceCommit})`).join('; ')
      : 'every status is a valid CriterionStatus'
    return {raises: null, display}
  },

  feature_task_timeout: (input) => featureTaskTimeout(str(input, 'task_id'), num(input, 'task_timeout', DEFAULT_TASK_TIMEOUT_SECONDS), collectingSink()),
}
