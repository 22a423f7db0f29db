import type {Evidence} from './evidence.js'
import type {RootCause} from './root-cause.js'

/** Finding codes of docs/findings.md; docs/findings.md has one entry per code with its evidence rule. */
export const FINDING_CODES = [
  'FILE_TRACKING_KEY_MISMATCH',
  'AGENT_PROMISES_OVERWRITTEN',
  'RESULTS_NOT_ENRICHED',
  'SPURIOUS_FILE_ENTRIES',
  'ABSOLUTE_RELATIVE_DUPLICATES',
  'SYNTHETIC_REPORT_WITHOUT_PROMISES',
  'SYNTHETIC_FLAG_MISSING',
  'DIRECT_MODE_WITH_CRITERIA',
  'PROMISES_LOST_ACROSS_TURNS',
  'TASK_ID_MISSING_IN_RESULTS',
  'PROMISES_NOT_PASSED_TO_COACH',
  'ZERO_OF_N_TEXT_MATCH_EMPTY',
  'TEXT_MATCH_NEAR_MISS',
  'TEXT_MATCH_MISSED_ALL',
  'CRITERION_ID_MISMATCH',
  'CRITERIA_COUNT_INFLATED',
  'CRITERIA_UNVERIFIABLE',
  'GATES_SHORT_CIRCUIT',
  'INFRA_TEST_FAILURE',
  'ENV_PARITY_GAP',
  'FEEDBACK_NOT_ACTIONABLE',
  'STALL_FIRED',
  'STALL_DEFEATED_BY_VARIABLE_OUTPUT',
  'STALL_WINDOW_BROKEN',
  'ENDED_BY_TIMEOUT_NOT_STALL',
  'MAX_TURNS_WITHOUT_STALL',
  'STALL_ON_CORRECT_WORK',
  'ORCHESTRATION_CRASH',
  'GRAPHITI_CONNECTION_DEGRADED',
  'ZERO_TEST_ANOMALY',
  'CONTEXT_POLLUTION_STALL',
  'PLAYER_TIMEOUT',
  'FUZZY_FALSE_POSITIVE',
  'FIXED_STILL_FAILS',
  'DUPLICATE_TEST_PATHS_UNNORMALISED',
  'REPLAY_DIVERGES_FROM_RECORD',
  'LOG_SIGNAL',
  'CAUSE_NOT_RECORDED',
  'APPROVAL_OVERRIDDEN',
  'PLAYER_ERROR_NOT_IN_LOG',
] as const

export type FindingCode = (typeof FINDING_CODES)[number]

export type Severity = 'critical' | 'high' | 'medium' | 'low' | 'info'

export const SEVERITY_ORDER: readonly Severity[] = ['critical', 'high', 'medium', 'low', 'info']

/**
 * One explained fact about a run. `certain`: seen directly in the records; `inferred`: deduced,
 * and `deduction` says how. A seed describing a failure is never evidence that a run had it.
 */
export interface Finding {
  /** Stable within a report: `f1`, `f2`, … in report order. */
  readonly id: string
  readonly code: FindingCode
  /** Where the failure it describes started (docs/root-causes.md; docs/findings.md gives each code's). */
  readonly category: RootCause
  readonly severity: Severity
  readonly confidence: 'certain' | 'inferred'
  readonly taskId: string | null
  readonly attempt: number | null
  readonly turns: readonly number[]
  /** One sentence a person can act on. */
  readonly message: string
  readonly evidence: readonly Evidence[]
  /** The command that shows the detail. */
  readonly reproduce: string
  /** What to do now. */
  readonly remediation: string
  /** The logic change(s) that fix it in the modelled range, or null when none does. */
  readonly fixedIn: {readonly flags: readonly string[]; readonly commit: string} | null
  /** Ids of findings this one follows from (cause → effect). */
  readonly causes: readonly string[]
  /** The GuardKit function it concerns and the section(s) of docs/guardkit-logic.md describing it (`docs/guardkit-logic.md §8.4`). */
  readonly source: {readonly function: string; readonly spec: string}
  /** For `inferred`: the deduction, in a sentence. */
  readonly deduction?: string
  /** Structured detail for `explain` and the HTML report (criterion tables, signature windows, …). */
  readonly detail?: Readonly<Record<string, unknown>>
}
