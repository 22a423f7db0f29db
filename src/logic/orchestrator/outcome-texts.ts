import type {LogicFlags} from '../changes.js'
import {pyStr} from '../python/repr.js'
import {pyTruthy} from '../python/strings.js'
import type {NumberedTurn} from './turn-outcome.js'

const STALL_HINT_DEFAULT = 'Review task_type classification and acceptance criteria.'
const STALL_HINT_SDK =
  'Stall caused by SDK API errors — check ANTHROPIC_BASE_URL configuration and SDK model name compatibility (see vllm-serve.sh SERVED_MODEL_NAME).'
const SDK_API_ERROR = 'SDK API error'
/** The SDK hint looks at the last (up to) this many non-empty feedback texts. */
const SDK_HINT_WINDOW = 3
/** The error of an `error` outcome without an error turn; the summary box adds where the worktree is. */
const UNKNOWN_ERROR = 'Unknown error occurred'

/**
 * `AutoBuildOrchestrator._build_error_message(turn_history, final_decision)` (docs/guardkit-logic.md §8.7, identical
 * in both versions): `OrchestrationResult.error`. `null` where GuardKit returns None (success,
 * and outcomes it has no message for, such as the FeatureOrchestrator's `timeout`).
 */
export function buildErrorMessage(finalDecision: string, turns: readonly NumberedTurn[], maxTurns: number): string | null {
  switch (finalDecision) {
    case 'max_turns_exceeded':
      return `Maximum turns (${maxTurns}) exceeded without approval`
    case 'unrecoverable_stall':
      return `Unrecoverable stall detected after ${turns.length} turn(s). AutoBuild cannot make forward progress.`
    case 'cancelled':
      return `Task cancelled via cooperative cancellation after ${turns.length} turn(s)`
    case 'pre_loop_blocked':
      return 'Pre-loop quality gates blocked execution'
    case 'design_extraction_failed':
      return 'Phase 0 design extraction failed - MCP tools unavailable or design URL invalid'
    case 'error': {
      const last = turns.at(-1)
      if (!last || last.decision !== 'error') return UNKNOWN_ERROR
      const error = last.coachResult ? last.coachResult.error : last.playerResult?.error
      return error || 'Unknown error'
    }
    default:
      return null
  }
}

/**
 * `AutoBuildOrchestrator._build_summary_details(turn_history, final_decision)` (docs/guardkit-logic.md §8.7): the
 * text of the final report box. Outcomes without a branch of their own (cancelled, error, …) use
 * the error branch, which prints the last turn's error with Python's `str` (so `None`).
 */
export function buildSummaryDetails(
  finalDecision: string,
  turns: readonly NumberedTurn[],
  maxTurns: number,
  worktreesDir: string,
  flags: LogicFlags,
): string {
  const n = turns.length
  if (finalDecision === 'approved') {
    const report = turns.at(-1)?.coachResult?.report
    // conditionalApprovalSummary (D33): fixed names an approval granted without independent tests.
    if (flags.conditionalApprovalSummary && report && pyTruthy(report.approved_without_independent_tests)) {
      return [
        `APPROVED (infra-dependent, independent tests skipped) after ${n} turn(s).`,
        `Worktree preserved at: ${worktreesDir}`,
        'Review and merge manually when ready.',
        'Note: Independent tests were skipped due to infrastructure dependencies without Docker.',
      ].join('\n')
    }
    return [`Coach approved implementation after ${n} turn(s).`, `Worktree preserved at: ${worktreesDir}`, 'Review and merge manually when ready.'].join('\n')
  }
  if (finalDecision === 'max_turns_exceeded') {
    return [`Maximum turns (${maxTurns}) reached without approval.`, 'Worktree preserved for inspection.', 'Review implementation and provide manual guidance.'].join('\n')
  }
  if (finalDecision === 'unrecoverable_stall') {
    // sdkApiErrorHint (D32): fixed blames SDK API errors when the last feedbacks all report one.
    const hint = flags.sdkApiErrorHint && lastFeedbacksAllSdkErrors(turns) ? STALL_HINT_SDK : STALL_HINT_DEFAULT
    return [
      `Unrecoverable stall detected after ${n} turn(s).`,
      'AutoBuild cannot make forward progress.',
      'Worktree preserved for inspection.',
      `Suggested action: ${hint}`,
    ].join('\n')
  }
  const last = turns.at(-1)
  if (last && last.decision === 'error') {
    const error = last.coachResult ? last.coachResult.error : (last.playerResult?.error ?? null)
    return `Critical error on turn ${last.turn}:\n${pyStr(error)}\nWorktree preserved for debugging.`
  }
  return `${UNKNOWN_ERROR}. Worktree preserved for inspection.`
}

/** At least one, and every one of the last (up to) 3 non-empty feedbacks of feedback turns, mention an SDK API error. */
function lastFeedbacksAllSdkErrors(turns: readonly NumberedTurn[]): boolean {
  const feedbacks = turns.filter((t) => t.decision === 'feedback' && t.feedback).map((t) => t.feedback!)
  const recent = feedbacks.slice(-SDK_HINT_WINDOW)
  return recent.length > 0 && recent.every((f) => f.includes(SDK_API_ERROR))
}
