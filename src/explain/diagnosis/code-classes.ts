import type {FindingCode} from '../../model/finding.js'
import type {RootCause} from '../../model/root-cause.js'
import type {Role, Stage} from './stages.js'

/**
 * Where each finding code's failure started (docs/findings.md lists the category of every code;
 * docs/root-causes.md the stages and roles): its root-cause category, the stage of the turn it
 * belongs to, and whether it can be a task's primary cause. A family may give one finding another
 * category when its records say so (a zero-test rejection caused by the test glob is test-selection).
 */
export interface CodeClass {
  readonly category: RootCause
  readonly stage: Stage
  readonly role: Role
}

export const CODE_CLASSES: Readonly<Record<FindingCode, CodeClass>> = {
  FILE_TRACKING_KEY_MISMATCH: {category: 'pipeline-data-loss', stage: 'pipeline', role: 'cause'},
  AGENT_PROMISES_OVERWRITTEN: {category: 'pipeline-data-loss', stage: 'pipeline', role: 'cause'},
  RESULTS_NOT_ENRICHED: {category: 'pipeline-data-loss', stage: 'pipeline', role: 'cause'},
  SPURIOUS_FILE_ENTRIES: {category: 'pipeline-data-loss', stage: 'pipeline', role: 'contributing'},
  ABSOLUTE_RELATIVE_DUPLICATES: {category: 'test-selection', stage: 'coach-tests', role: 'contributing'},
  SYNTHETIC_REPORT_WITHOUT_PROMISES: {category: 'agent-report', stage: 'player-report', role: 'cause'},
  SYNTHETIC_FLAG_MISSING: {category: 'pipeline-data-loss', stage: 'pipeline', role: 'contributing'},
  DIRECT_MODE_WITH_CRITERIA: {category: 'configuration', stage: 'setup', role: 'contributing'},
  PROMISES_LOST_ACROSS_TURNS: {category: 'cross-turn-memory', stage: 'pipeline', role: 'cause'},
  TASK_ID_MISSING_IN_RESULTS: {category: 'pipeline-data-loss', stage: 'pipeline', role: 'cause'},
  PROMISES_NOT_PASSED_TO_COACH: {category: 'pipeline-data-loss', stage: 'pipeline', role: 'cause'},
  ZERO_OF_N_TEXT_MATCH_EMPTY: {category: 'criteria-matching', stage: 'criteria', role: 'cause'},
  TEXT_MATCH_NEAR_MISS: {category: 'criteria-matching', stage: 'criteria', role: 'cause'},
  TEXT_MATCH_MISSED_ALL: {category: 'criteria-matching', stage: 'criteria', role: 'cause'},
  CRITERION_ID_MISMATCH: {category: 'criteria-parsing', stage: 'criteria', role: 'cause'},
  CRITERIA_COUNT_INFLATED: {category: 'criteria-parsing', stage: 'criteria', role: 'cause'},
  CRITERIA_UNVERIFIABLE: {category: 'task-spec', stage: 'criteria', role: 'cause'},
  GATES_SHORT_CIRCUIT: {category: 'quality-gate', stage: 'gates', role: 'contributing'},
  INFRA_TEST_FAILURE: {category: 'test-environment', stage: 'coach-tests', role: 'cause'},
  ENV_PARITY_GAP: {category: 'test-environment', stage: 'coach-tests', role: 'cause'},
  FEEDBACK_NOT_ACTIONABLE: {category: 'loop-control', stage: 'loop-control', role: 'contributing'},
  STALL_FIRED: {category: 'loop-control', stage: 'loop-control', role: 'contributing'},
  STALL_DEFEATED_BY_VARIABLE_OUTPUT: {category: 'loop-control', stage: 'loop-control', role: 'contributing'},
  STALL_WINDOW_BROKEN: {category: 'loop-control', stage: 'loop-control', role: 'contributing'},
  ENDED_BY_TIMEOUT_NOT_STALL: {category: 'timeout', stage: 'outer-limits', role: 'contributing'},
  MAX_TURNS_WITHOUT_STALL: {category: 'loop-control', stage: 'loop-control', role: 'contributing'},
  STALL_ON_CORRECT_WORK: {category: 'loop-control', stage: 'loop-control', role: 'cause'},
  ORCHESTRATION_CRASH: {category: 'orchestrator-defect', stage: 'coach', role: 'cause'},
  GRAPHITI_CONNECTION_DEGRADED: {category: 'external-service', stage: 'setup', role: 'contributing'},
  ZERO_TEST_ANOMALY: {category: 'quality-gate', stage: 'gates', role: 'cause'},
  CONTEXT_POLLUTION_STALL: {category: 'loop-control', stage: 'loop-control', role: 'contributing'},
  PLAYER_TIMEOUT: {category: 'agent-budget', stage: 'player-agent', role: 'cause'},
  FUZZY_FALSE_POSITIVE: {category: 'criteria-matching', stage: 'criteria', role: 'contributing'},
  FIXED_STILL_FAILS: {category: 'criteria-matching', stage: 'criteria', role: 'context'},
  DUPLICATE_TEST_PATHS_UNNORMALISED: {category: 'test-selection', stage: 'coach-tests', role: 'contributing'},
  REPLAY_DIVERGES_FROM_RECORD: {category: 'unknown', stage: 'loop-control', role: 'context'},
  LOG_SIGNAL: {category: 'unknown', stage: 'loop-control', role: 'cause'},
  CAUSE_NOT_RECORDED: {category: 'unknown', stage: 'outer-limits', role: 'cause'},
  APPROVAL_OVERRIDDEN: {category: 'loop-control', stage: 'loop-control', role: 'cause'},
  PLAYER_ERROR_NOT_IN_LOG: {category: 'unknown', stage: 'player-agent', role: 'cause'},
}
