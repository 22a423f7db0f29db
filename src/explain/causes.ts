import type {FindingCode} from '../model/finding.js'
import type {FindingDraft} from './draft.js'

/**
 * Cause → effect links between findings of one task run, so that a report can print the chains the
 * seeds draw by hand: seed 002's INFRA_TEST_FAILURE → FEEDBACK_NOT_ACTIONABLE →
 * STALL_DEFEATED_BY_VARIABLE_OUTPUT → ENDED_BY_TIMEOUT_NOT_STALL, seed 000/001/004's lost promises →
 * ZERO_OF_N_TEXT_MATCH_EMPTY → STALL_FIRED, seed 003's doom loop GRAPHITI_CONNECTION_DEGRADED →
 * PLAYER_TIMEOUT → SYNTHETIC_REPORT_WITHOUT_PROMISES. A link is made only when both findings fired
 * for the task, and (per rule) when their turns line up; the table is acyclic.
 */
type When = 'task' | 'overlap' | 'before'

interface CauseRule {
  readonly effect: FindingCode
  readonly causes: readonly FindingCode[]
  readonly when: When
}

export const CAUSE_RULES: readonly CauseRule[] = [
  {effect: 'ENV_PARITY_GAP', causes: ['INFRA_TEST_FAILURE'], when: 'overlap'},
  {effect: 'FEEDBACK_NOT_ACTIONABLE', causes: ['INFRA_TEST_FAILURE'], when: 'overlap'},
  {effect: 'STALL_DEFEATED_BY_VARIABLE_OUTPUT', causes: ['FEEDBACK_NOT_ACTIONABLE', 'INFRA_TEST_FAILURE'], when: 'overlap'},
  {effect: 'STALL_WINDOW_BROKEN', causes: ['GATES_SHORT_CIRCUIT', 'PLAYER_TIMEOUT'], when: 'overlap'},
  {effect: 'ENDED_BY_TIMEOUT_NOT_STALL', causes: ['STALL_DEFEATED_BY_VARIABLE_OUTPUT', 'STALL_WINDOW_BROKEN'], when: 'task'},
  {effect: 'MAX_TURNS_WITHOUT_STALL', causes: ['STALL_DEFEATED_BY_VARIABLE_OUTPUT', 'STALL_WINDOW_BROKEN'], when: 'task'},
  {effect: 'RESULTS_NOT_ENRICHED', causes: ['FILE_TRACKING_KEY_MISMATCH'], when: 'before'},
  {effect: 'SYNTHETIC_FLAG_MISSING', causes: ['DIRECT_MODE_WITH_CRITERIA'], when: 'task'},
  {effect: 'SYNTHETIC_REPORT_WITHOUT_PROMISES', causes: ['DIRECT_MODE_WITH_CRITERIA', 'PLAYER_TIMEOUT'], when: 'before'},
  {effect: 'PLAYER_TIMEOUT', causes: ['GRAPHITI_CONNECTION_DEGRADED'], when: 'before'},
  {
    effect: 'ZERO_OF_N_TEXT_MATCH_EMPTY',
    causes: ['AGENT_PROMISES_OVERWRITTEN', 'RESULTS_NOT_ENRICHED', 'SYNTHETIC_FLAG_MISSING', 'SYNTHETIC_REPORT_WITHOUT_PROMISES', 'PROMISES_LOST_ACROSS_TURNS', 'TASK_ID_MISSING_IN_RESULTS', 'PROMISES_NOT_PASSED_TO_COACH', 'FILE_TRACKING_KEY_MISMATCH'],
    when: 'overlap',
  },
  {effect: 'ZERO_OF_N_TEXT_MATCH_EMPTY', causes: ['CRITERIA_COUNT_INFLATED'], when: 'task'},
  {effect: 'STALL_FIRED', causes: ['ZERO_OF_N_TEXT_MATCH_EMPTY', 'TEXT_MATCH_NEAR_MISS', 'TEXT_MATCH_MISSED_ALL', 'CRITERION_ID_MISMATCH', 'ZERO_TEST_ANOMALY', 'SYNTHETIC_REPORT_WITHOUT_PROMISES'], when: 'overlap'},
  {effect: 'STALL_ON_CORRECT_WORK', causes: ['PROMISES_LOST_ACROSS_TURNS', 'AGENT_PROMISES_OVERWRITTEN'], when: 'before'},
  {effect: 'STALL_ON_CORRECT_WORK', causes: ['STALL_FIRED'], when: 'overlap'},
  {effect: 'CONTEXT_POLLUTION_STALL', causes: ['PLAYER_TIMEOUT', 'ZERO_TEST_ANOMALY'], when: 'overlap'},
  {effect: 'FIXED_STILL_FAILS', causes: ['DIRECT_MODE_WITH_CRITERIA', 'SYNTHETIC_REPORT_WITHOUT_PROMISES', 'INFRA_TEST_FAILURE'], when: 'task'},
]

function linked(cause: FindingDraft, effect: FindingDraft, when: When): boolean {
  if (when === 'task' || cause.turns.length === 0 || effect.turns.length === 0) return true
  if (when === 'overlap') return cause.turns.some((t) => effect.turns.includes(t))
  return Math.min(...cause.turns) <= Math.max(...effect.turns)
}

/** Fill every draft's `causeKeys` from the rules; the drafts are one task run's. */
export function linkCauses(drafts: readonly FindingDraft[]): FindingDraft[] {
  return drafts.map((effect) => {
    const keys: string[] = []
    for (const rule of CAUSE_RULES) {
      if (rule.effect !== effect.code) continue
      for (const cause of drafts) {
        if (cause === effect || !rule.causes.includes(cause.code) || keys.includes(cause.key)) continue
        if (linked(cause, effect, rule.when)) keys.push(cause.key)
      }
    }
    return {...effect, causeKeys: [...effect.causeKeys, ...keys.filter((k) => !effect.causeKeys.includes(k))]}
  })
}
