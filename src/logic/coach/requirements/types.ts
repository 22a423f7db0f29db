/**
 * GuardKit's requirements-verification values (docs/guardkit-logic.md §7.8) and the explainer's side channel.
 * Field names are GuardKit's own (snake_case): `criteria_results` feeds `criteria_verification`
 * and `acceptance_criteria_verification` in `coach_turn_N.json`.
 */

export type CriterionVerdict = 'verified' | 'rejected'

/** One `CriterionResult` as serialised: `status` = `result`, `notes` = `evidence`. */
export interface CriterionResult {
  readonly criterion_id: string
  /** The criterion as GuardKit held it (normally a str; frontmatter lists may hold anything). */
  readonly criterion_text: unknown
  readonly result: CriterionVerdict
  readonly status: CriterionVerdict
  /** A promise's own `evidence` is copied as is, so it may be null or not a string. */
  readonly evidence: unknown
  readonly notes: unknown
}

/** `RequirementsValidation`, in GuardKit's key order. */
export interface RequirementsValidation {
  readonly criteria_total: number
  readonly criteria_met: number
  readonly all_criteria_met: boolean
  readonly missing: readonly unknown[]
  readonly criteria_results: readonly CriterionResult[]
}

/** How `validate_requirements` chose to match (the dump's `matching_strategy`, docs/guardkit-logic.md §7.2). */
export type MatchingStrategy = 'synthetic-promises' | 'synthetic-none' | 'promises' | 'hybrid' | 'text'

/** Which step of which strategy settled a criterion. */
export type Decider =
  | 'promise-complete'
  | 'promise-partial'
  | 'promise-rejected'
  | 'promise-missing'
  | 'text-exact'
  | 'text-substring'
  | 'text-keywords'
  | 'text-none'
  | 'hybrid-text'
  | 'synthetic-unmet'

/** Where the promises the Coach used came from (docs/guardkit-logic.md §7.3). */
export type PromiseSource =
  | {readonly kind: 'task_work_results'}
  | {readonly kind: 'current-report'; readonly turn: number; readonly path: string}
  | {readonly kind: 'prior-report'; readonly turn: number; readonly path: string}
  | {readonly kind: 'none'; readonly reason: string}

/** One requirement scored against a criterion by the docs/guardkit-logic.md §7.5 rules. */
export interface RequirementScore {
  readonly index: number
  /** The requirement as the Player wrote it. */
  readonly requirement: unknown
  /** After `_strip_criterion_prefix` (what the substring and keyword steps compare). */
  readonly stripped: string
  readonly exact: boolean
  readonly substring: boolean
  readonly keywords: readonly string[]
  /** Keyword Jaccard similarity with the criterion (0 when either side has no keywords). */
  readonly jaccard: number
  /** The rule the text matcher applies to this pair: exact, substring, or keywords ≥ 0.70. */
  readonly meetsRule: boolean
}

/** What the text strategy saw for one criterion. */
export interface TextTrace {
  /** The twr key the requirements came from (`requirements_met` or `requirements_addressed`), or null when defaulted. */
  readonly source: string | null
  readonly requirements: readonly unknown[]
  /** `pre-acr`: exact match on lower/strip only; `acr`: prefix strip, substring, keyword Jaccard. */
  readonly rules: 'pre-acr' | 'acr'
  readonly stripped: string
  readonly normalized: string
  readonly keywords: readonly string[]
  readonly step: 'exact' | 'substring' | 'keywords' | null
  /** The requirement the step matched (the stripped form for substring/keywords), or null. */
  readonly matched: string | null
  /** The best-scoring requirement, whether or not it met the rule. */
  readonly closest: RequirementScore | null
  readonly threshold: number
}

/** What the promise strategy saw for one criterion. */
export interface PromiseTrace {
  /** The promise with this criterion's id, as the Player wrote it, or null. */
  readonly promise: unknown
  /** Every `criterion_id` the promises named (to spot AC-005a vs AC-005). */
  readonly ids: readonly unknown[]
}

export interface CriterionExplanation {
  readonly index: number
  readonly criterion_id: string
  readonly text: unknown
  readonly verdict: CriterionVerdict
  readonly decidedBy: Decider
  readonly promise: PromiseTrace | null
  readonly text_match: TextTrace | null
}

/** The side channel for the explainer: not part of GuardKit's output. */
export interface RequirementsExplanation {
  readonly strategy: MatchingStrategy
  /** `twr.get("_synthetic", False)` as found. */
  readonly synthetic: unknown
  readonly promiseSource: PromiseSource
  readonly promises: unknown
  /** Requirements the text strategy (or hybrid fallback) used, with their twr key. */
  readonly requirements: {readonly source: string | null; readonly value: unknown} | null
  readonly dumped: boolean
  /** Facts the worktree view could not supply (report contents not recorded, …). */
  readonly unknowns: readonly string[]
  readonly criteria: readonly CriterionExplanation[]
}
