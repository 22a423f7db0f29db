import type {Evidence} from '../../model/evidence.js'
import type {Severity} from '../../model/finding.js'
import type {Fidelity} from '../../replay/types.js'

/**
 * The CI regression gate's verdict on one task run (docs/ci.md): baseline vs candidate, each a
 * logic profile or `recorded` (what GuardKit actually did). Plain JSON data: the same values go
 * into the `--json` report, the shard files `gate merge` reads, JUnit and the HTML report.
 */
export type GateClass = 'unchanged' | 'improved' | 'regressed' | 'changed' | 'skipped'

/**
 * What a policy rule says about a difference. A `note` (a drop in fidelity) never decides the
 * class: it says how far the verdict can be trusted, not that it changed.
 */
export type GateEffect = 'regression' | 'improvement' | 'change' | 'note'

/** Differences that make a task regressed (docs/ci.md, "The policy"). */
export const REGRESSION_RULES = [
  'approval-lost',
  'approval-later',
  'false-approval',
  'stall-later',
  'stall-missing',
  'criterion-lost',
  'new-error',
  'expectation-unmet',
] as const

/** Differences that make a task improved. */
export const IMPROVEMENT_RULES = ['approval-gained', 'approval-earlier', 'stall-earlier', 'stall-caught', 'criteria-gained', 'error-fixed'] as const

/** Differences that are neither (a task with only these is `changed`); `--fail-on` can promote some. */
export const CHANGE_RULES = [
  'outcome-changed',
  'became-undetermined',
  'fidelity-dropped',
  'decision-changed',
  'criteria-total-changed',
  'feedback-changed',
  'signature-changed',
  'expectation-met',
] as const

export type GateRule = (typeof REGRESSION_RULES)[number] | (typeof IMPROVEMENT_RULES)[number] | (typeof CHANGE_RULES)[number]

export const GATE_RULES: readonly GateRule[] = [...REGRESSION_RULES, ...IMPROVEMENT_RULES, ...CHANGE_RULES]

/**
 * Tightenings of the default policy (`--fail-on`): `changed` fails tasks classified changed,
 * `skipped` fails tasks (and runs) that could not be gated, `undetermined` makes a candidate that
 * becomes undetermined where the baseline decided a regression, `approximate` makes a drop in
 * fidelity (the candidate's verdict rests on less exact inputs than the baseline's) a regression.
 */
export const FAIL_ON = ['changed', 'skipped', 'undetermined', 'approximate'] as const
export type FailOn = (typeof FAIL_ON)[number]

export interface GatePolicy {
  /** Always fails on regressions; these tighten it. Sorted, no duplicates. */
  readonly failOn: readonly FailOn[]
}

/** How one side's loop ended, in the gate's terms. */
export type GateOutcomeKind =
  /** The Coach approved (the model's verdict, or the record's). */
  | 'approved'
  /** `unrecoverable_stall`: the feedback-stall detector or the context-pollution rule stopped the loop. */
  | 'stalled'
  /** Another outcome the loop decided itself: `max_turns_exceeded`, `error` (a crash the model raises), … */
  | 'failed'
  /** A recorded boundary ended it (cancellation, feature timeout, a crash outside the modelled logic). */
  | 'boundary'
  /** The loop would go on past the last recorded turn: nothing is invented after it. */
  | 'undetermined'
  /** The run's era is outside the modelled window. */
  | 'not-modelled'

/** One side (baseline or candidate) of a task: its outcome as the contract formats it, and how exact it is. */
export interface GateSide {
  /** The profile name, or `recorded`. */
  readonly subject: string
  /** `approved`, `unrecoverable_stall`, `cancelled (recorded)`, `undetermined after turn 18`, `not modelled`. */
  readonly outcome: string
  readonly kind: GateOutcomeKind
  /** The turn the loop ended on (approved, stalled, …); for `undetermined`, the last turn covered. */
  readonly endTurn: number | null
  /** The turn at which the feedback-stall detector fires (null: it does not). */
  readonly stallTurn: number | null
  /** The worst fidelity over the turns up to `endTurn` (`exact` for `recorded`). */
  readonly fidelity: Fidelity
  /** An undetermined replay's branches (the outcome depends on an input the records lack). */
  readonly branches?: readonly {readonly assume: string; readonly brief?: string; readonly outcome: string; readonly stallTurn: number | null; readonly endTurn: number | null}[]
}

/** One turn as one side saw it. */
export interface GateTurnCell {
  readonly decision: string | null
  readonly criteriaMet: number | null
  readonly criteriaTotal: number | null
  readonly signature: string | null
  /** The feedback the Player would have received after this turn (full text when known). */
  readonly feedback: string | null
  /** `feedback` is the whole text (false: an excerpt, e.g. the log's 80-code-point preview, or only its kind). */
  readonly feedbackComplete: boolean
  readonly fidelity: Fidelity
  /** The turn assumes the Player acted as recorded after an earlier difference in feedback. */
  readonly inferred: boolean
  /** The stall detector fired on this turn. */
  readonly stallFired: boolean
}

export interface GateTurnRow {
  readonly turn: number
  readonly recorded: GateTurnCell | null
  readonly baseline: GateTurnCell | null
  readonly candidate: GateTurnCell | null
}

/** One difference the policy found, and what it counts as. */
export interface GateReason {
  readonly rule: GateRule
  readonly effect: GateEffect
  /** The turn it happens at, when it is about one turn. */
  readonly turn: number | null
  /** One sentence: "fixed approves at turn 1; legacy does not (undetermined after turn 1)". */
  readonly message: string
  /** It rests on approximate, insufficient or inferred turns. */
  readonly approximate: boolean
  /** Set when expectations.yaml (or a `--fail-on` tightening) changed what this reason counts as. */
  readonly note?: string
  /** expectations.yaml declared this change wanted: it no longer counts towards the class. */
  readonly waived?: boolean
}

/** A finding of the task's analysis that explains a regression. */
export interface GateFinding {
  readonly code: string
  readonly severity: Severity
  readonly confidence: 'certain' | 'inferred'
  readonly turns: readonly number[]
  readonly message: string
  readonly fixedIn: {readonly flags: readonly string[]; readonly commit: string} | null
  /** The first few pieces of evidence (file + line or pointer). */
  readonly evidence: readonly Evidence[]
  readonly reproduce: string
  /** The rules of this task it explains. */
  readonly explains: readonly GateRule[]
  /** Why it was chosen: "fixed by stallNormalize, which the candidate lacks", "names turn 5". */
  readonly why: string
}

/** What expectations.yaml says about this task, and whether the replays meet it. */
export interface GateExpectationResult {
  /** expectations.yaml, relative to the working directory. */
  readonly file: string
  /** The entry's key: `<run key> / TASK-X` or `<run key> / TASK-X#2`. */
  readonly key: string
  readonly pins: readonly {
    readonly role: 'baseline' | 'candidate'
    readonly subject: string
    /** As written: `unrecoverable_stall@5`, `[cancelled, undetermined]`. */
    readonly expected: string
    readonly found: string
    readonly met: boolean
  }[]
  /** Rules declared wanted for this task (`any`: every change is wanted). */
  readonly wanted: readonly string[]
  readonly note: string | null
}

export interface GateTask {
  readonly taskId: string
  readonly attempt: number
  readonly classification: GateClass
  /** Counts against the verdict: regressed, or a class `--fail-on` tightens. */
  readonly failing: boolean
  /** Every reason deciding the class is approximate. */
  readonly approximate: boolean
  /** Most important first: regressions, improvements, changes. */
  readonly reasons: readonly GateReason[]
  /** Why the task could not be gated (not modelled, no turns), else null. */
  readonly skipReason: string | null
  readonly baseline: GateSide
  readonly candidate: GateSide
  readonly recorded: {readonly outcome: string | null; readonly turns: number; readonly stallTurn: number | null}
  readonly expectation: GateExpectationResult | null
  /** Turn by turn (recorded, baseline, candidate): only for tasks that are not unchanged. */
  readonly turns: readonly GateTurnRow[] | null
  /** Findings that explain the regressions (empty for tasks that did not regress). */
  readonly findings: readonly GateFinding[]
  /** `guardkit-replay explain RUN --task ID …` under the candidate. */
  readonly reproduce: string
}

export interface GateSummary {
  readonly runs: number
  readonly tasks: number
  readonly unchanged: number
  readonly improved: number
  readonly regressed: number
  readonly changed: number
  readonly skipped: number
  /** Tasks that count against the verdict, plus runs that could not be read when `--fail-on skipped`. */
  readonly failing: number
  /** Tasks whose class rests only on approximate values. */
  readonly approximate: number
}
