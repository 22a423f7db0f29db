import {pyLen, pySlice} from '../python/strings.js'
import {extractFeedback} from './extract-feedback.js'
import {dictGet, type AgentResult, type TurnOutcome} from './turn-outcome.js'

const FEEDBACK_PREVIEW = 80

/**
 * The decision part of `_execute_turn` (docs/guardkit-logic.md §8.2 steps 7-8), for replaying a turn from its
 * recorded Player and Coach results: no successful Coach result → `error`; otherwise the report's
 * `decision` (default `feedback`): `approve` approves, anything else is feedback with the text of
 * `_extract_feedback`.
 */
export function decideTurn(playerResult: AgentResult | null, coachResult: AgentResult | null): TurnOutcome {
  if (!coachResult?.success || !coachResult.report) return {decision: 'error', feedback: null, playerResult, coachResult}
  const decision = dictGet(coachResult.report, 'decision', 'feedback')
  if (decision === 'approve') return {decision: 'approve', feedback: null, playerResult, coachResult}
  return {decision: 'feedback', feedback: extractFeedback(coachResult.report), playerResult, coachResult}
}

/** The progress line after a feedback turn: `Feedback: {first 80 code points}...` when longer. */
export function feedbackProgressLine(feedback: string): string {
  return pyLen(feedback) > FEEDBACK_PREVIEW ? `Feedback: ${pySlice(feedback, 0, FEEDBACK_PREVIEW)}...` : `Feedback: ${feedback}`
}
