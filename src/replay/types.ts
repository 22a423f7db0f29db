import type {Evidence} from '../model/evidence.js'
import type {CoachDecision, Outcome} from '../model/outcome.js'
import type {UnknownId} from './unknown-inputs.js'

/**
 * How a replayed value was obtained (docs/json-schema.md): `exact` from the full inputs, `approximate`
 * from partial inputs (what was assumed is listed), `insufficient` when the inputs do not allow a
 * replay of that turn (`missingInputs` says why).
 */
export type Fidelity = 'exact' | 'approximate' | 'insufficient'

/**
 * `recorded`: the turn's inputs are what GuardKit really had. `inferred`: an earlier turn's
 * replayed feedback differed from the recorded one, so this turn, like every turn after the first
 * where the profile's feedback differs, assumes the Player would have acted the same
 * (docs/json-schema.md, `turns[].confidence`).
 */
export type TurnConfidence = 'recorded' | 'inferred'

/** What the stall detector saw and decided on one call (docs/guardkit-logic.md §8.4). */
export interface StallCheck {
  /** Signature appended to the history under this profile (raw or normalised). */
  readonly signature: string
  readonly rawSignature: string
  /** md5 of the normalised feedback, whether or not the profile uses it. */
  readonly normalisedSignature: string
  /** The count fed to the detector (current or peak, D29). */
  readonly count: number
  /** The window the rule examined: (signature, count) pairs, oldest first. */
  readonly window: readonly {readonly turn: number; readonly signature: string; readonly count: number}[]
  readonly threshold: number
  readonly fired: boolean
  /** Why it fired or did not, in a sentence (e.g. "3 different signatures in the last 3 turns"). */
  readonly reason: string
}

export interface ReplayedTurn {
  readonly turn: number
  readonly decision: CoachDecision | null
  readonly criteriaMet: number | null
  readonly criteriaTotal: number | null
  /** The feedback the Player would have received after this turn. */
  readonly feedback: string | null
  /** full: computed from complete inputs; rebuilt: reconstructed exactly from log records (0/N dump); category: only its kind is known. */
  readonly feedbackBasis: 'full' | 'rebuilt' | 'recorded' | 'category' | 'unknown'
  /** The stall detector's signature for this turn's feedback under this profile. */
  readonly signature: string | null
  readonly stall: StallCheck | null
  readonly fidelity: Fidelity
  readonly confidence: TurnConfidence
  readonly missingInputs: readonly string[]
  /** Assumptions behind an approximate value, in words. */
  readonly assumptions: readonly string[]
  /** True when this turn's decision, counts or feedback differ from the recorded turn. */
  readonly diverges: boolean
  /** Model-emitted log records (level, logger, message) for comparison with the captured log. */
  readonly logs: readonly {readonly level: string; readonly logger: string; readonly message: string}[]
  /** Side-channel detail for explain: see {@link TurnDetail}. */
  readonly detail: TurnDetail
}

/**
 * Everything the replay knows about how one turn was replayed under one profile: the side channel
 * the explainer builds findings from (stable; fields are only added). All values are plain JSON.
 *
 * - `player`: how the files the Coach read were obtained (the pipeline model re-run on the raw
 *   Player inputs, or the recorded files taken as they are), with the pipeline's trace events.
 * - `coach`: how the Coach's decision was obtained (`validate()` on rebuilt inputs, the recorded
 *   `coach_turn_N.json`, or log records), the criteria and task type given to the Coach, the report
 *   dict (`coach_turn_N.json` shape), the step `validate()` ended at, the test command/dispatch, the
 *   requirements explanation per criterion (`validateRequirements`' side channel).
 * - `feedback`: the recorded feedback, what the replayed feedback was rebuilt from, both signatures.
 * - `loop`: what `_loop_phase` derived (feedback sent to the Player, perspective reset, counts fed to
 *   the stall detector, checkpoint, pollution rule).
 * - `differences`: recorded vs replayed, field by field (empty when the turn reproduces the record).
 */
export interface TurnDetail {
  readonly player: PlayerDetail
  readonly coach: CoachDetail
  readonly feedback: FeedbackDetail
  readonly loop: LoopDetail
  readonly differences: readonly TurnDifference[]
}

/** A pipeline trace event (src/logic/pipeline/trace.ts), as plain data. */
export interface PipelineTraceEvent {
  readonly step: string
  readonly kind: string
  readonly field: string
  readonly values?: readonly unknown[]
  readonly flag?: string
  readonly message: string
}

export interface PlayerDetail {
  /**
   * `pipeline-task-work` / `pipeline-direct` / `state-recovery`: the pipeline model re-ran on the
   * raw Player inputs under this profile; `recorded`: the recorded player report and
   * task_work_results.json were given to the Coach as they are (the profile's pipeline is the
   * recorded one, or the raw inputs are missing); `reconstructed`: task_work_results.json of this
   * turn was overwritten later and was rebuilt from the turn's player report and the last results
   * file; `log`: only log records exist; `none`: no Player ran (cancelled before the Player).
   */
  readonly source: 'pipeline-task-work' | 'pipeline-direct' | 'state-recovery' | 'recorded' | 'reconstructed' | 'log' | 'none'
  readonly mode: 'task-work' | 'direct' | null
  /** What each pipeline step kept, dropped, recovered or generated (empty unless the pipeline ran). */
  readonly events: readonly PipelineTraceEvent[]
  /** What the Coach was given to read, when known. */
  readonly coachInputs: {
    /** task_work_results.json as the Coach read it. */
    readonly taskWorkResults: Readonly<Record<string, unknown>> | null
    /** player_turn_N.json as the Coach could read it. */
    readonly playerReport: Readonly<Record<string, unknown>> | null
    /** `completion_promises` in the results / the report (null: unknown). */
    readonly promisesInResults: number | null
    readonly promisesInReport: number | null
    readonly synthetic: boolean | null
  } | null
  /** The agent-written player report was available (a recording kept it, or nothing overwrote it). */
  readonly agentReportKnown: boolean
}

/** Where `validate()` stopped (docs/guardkit-logic.md §6.1), or the recorded equivalent. */
export type CoachStep =
  | 'invalid-task-type'
  | 'missing-results'
  | 'quality-gates'
  | 'independent-tests'
  | 'requirements'
  | 'zero-test-anomaly'
  | 'approved'
  | 'raised'
  | 'unknown'

/**
 * The steps `validate()` returns at before its requirements step (docs/guardkit-logic.md §6.1): a turn that stopped at
 * one of them had no criterion checked. The zero-test check comes after the requirements step.
 */
export function endsBeforeRequirements(step: CoachStep): boolean {
  return step === 'invalid-task-type' || step === 'missing-results' || step === 'quality-gates' || step === 'independent-tests'
}

export interface CoachDetail {
  /**
   * `validated`: `validate()` ran on the (rebuilt) inputs; `recorded-report`: the decision is the
   * recorded coach_turn_N.json; `recorded-log`: decision and counts from log records; `none`: the
   * turn had no Coach (error turn, cancellation, Player failure).
   */
  readonly source: 'validated' | 'recorded-report' | 'recorded-log' | 'none'
  /** Why `validate()` did not run (or could not finish), in words. */
  readonly notValidatedBecause: string | null
  /** The task dict's `task_type` and where it came from. */
  readonly taskType: string | null
  /** The criteria the Coach got under this profile and where they came from. */
  readonly criteria: {readonly texts: readonly string[]; readonly source: string} | null
  /** The Coach report (coach_turn_N.json shape), replayed or recorded. */
  readonly report: Readonly<Record<string, unknown>> | null
  readonly step: CoachStep
  /** `validation_results.quality_gates` of the report. */
  readonly gates: Readonly<Record<string, unknown>> | null
  /** The independent test result the Coach used, and whether it was held as recorded (docs/guardkit-logic.md §6.4). */
  readonly independentTests: {
    readonly passed: unknown
    readonly command: string | null
    readonly summary: string | null
    readonly durationSeconds: number | null
    readonly basis: 'recorded-report' | 'recorded-log' | 'not-run' | 'unrecorded'
  } | null
  /** `_classify_test_failure` as logged or replayed, when the tests failed. */
  readonly failureClass: {readonly classification: string; readonly confidence: string | null} | null
  /** The test command the model detected (null when the recorded run stood in). */
  readonly testCommand: string | null
  /** How the model would dispatch the test run (SDK / subprocess / shell). */
  readonly testDispatch: Readonly<Record<string, unknown>> | null
  /** `validateRequirements`' explanation (strategy, promise source, per criterion who decided). */
  readonly requirements: Readonly<Record<string, unknown>> | null
  /** `validate()` raised (the orchestrator would fall back to the LLM Coach), with the exception. */
  readonly raised: string | null
  /** Facts the worktree view could not answer. */
  readonly unknowns: readonly string[]
}

export interface FeedbackDetail {
  /** The recorded feedback text (full, or the log's 80-code-point excerpt), when recorded. */
  readonly recorded: string | null
  readonly recordedCompleteness: 'full' | 'truncated' | null
  /** What the replayed feedback was obtained from, in words (e.g. "the 0/6 diagnostic dump"). */
  readonly rebuiltFrom: string | null
  readonly evidence: readonly Evidence[]
  /** md5 of the feedback as sent, and after `_normalize_feedback_for_stall` (both, whatever the profile uses). */
  readonly rawSignature: string | null
  readonly normalisedSignature: string | null
  /**
   * `computed`: from the replayed feedback text; `recorded`: taken from the log's
   * `Feedback stall: … (sig=…)` record (its window's turns, feedback not rebuildable);
   * `excerpt`: computed on the 80-code-point excerpt (approximate); `withheld`: this profile's own feedback text
   * is not in the records (another wording, or a stand-in), so no signature is shown; `branches`: the branches
   * of an undetermined replay sign this turn differently (or only some reach it).
   */
  readonly signatureBasis: 'computed' | 'recorded' | 'excerpt' | 'withheld' | 'branches' | null
}

export interface LoopDetail {
  /** The feedback `_execute_turn` passed to the Player (null on a perspective reset). */
  readonly previousFeedback: string | null
  readonly perspectiveReset: boolean
  /** `_count_criteria_passed` for this turn, and the peak fed to the detector (D29), when used. */
  readonly criteriaPassed: number
  readonly peakCriteriaPassed: number | null
  /** The checkpoint the pollution rule saw (tests_passed is the task-work gate value, docs/guardkit-logic.md §8.1). */
  readonly checkpoint: {readonly testsPassed: boolean; readonly basis: 'replayed' | 'recorded'} | null
  readonly pollution: {readonly kind: 'clear' | 'rollback' | 'no-passing-checkpoint'; readonly window: readonly number[]; readonly target: number | null} | null
  /** Why the stall detector was not called for this turn, when it was not. */
  readonly stallSkipped: 'not-feedback' | 'empty-feedback' | 'loop-ended-before' | 'context-pollution' | null
}

/** One recorded-vs-replayed difference of a turn. */
export interface TurnDifference {
  readonly field: 'decision' | 'criteriaMet' | 'criteriaTotal' | 'feedback' | 'signature' | 'stall'
  readonly recorded: string | number | boolean | null
  readonly replayed: string | number | boolean | null
  readonly evidence: readonly Evidence[]
}

/** How the replayed loop ended. */
export type ReplayOutcome =
  /** The model decided it. */
  | {readonly kind: 'replayed'; readonly outcome: Outcome; readonly turn: number}
  /** A recorded boundary ended it (timeout, cancellation, crash): taken from the record. */
  | {readonly kind: 'recorded-boundary'; readonly outcome: Outcome; readonly turn: number; readonly evidence: readonly Evidence[]}
  /** The profile would go on past the last recorded turn: no invented outcome. */
  | {readonly kind: 'undetermined'; readonly afterTurn: number}
  /** The run's era is outside the modelled window. */
  | {readonly kind: 'not-modelled'; readonly reason: string}
  /**
   * The outcome depends on an input the records lack: one branch per outcome the values they allow give
   * (replay/branches.ts). The contract's `outcome: "undetermined"` with `branches`.
   */
  | {readonly kind: 'branches'; readonly branches: readonly ReplayBranch[]}

/** One outcome of an undetermined replay and the values of the enumerated inputs that give it. */
export interface ReplayBranch {
  /** The condition, in words: "the 6 promises recovered on turn 1 were complete for all 6 criteria". */
  readonly assume: string
  /** The same once the input has been named in an earlier branch ("they verified only some of them"). */
  readonly brief: string
  /** The values (of `TaskReplay.enumerated`) that give this outcome: one list per input, a value or several. */
  readonly values: Readonly<Partial<Record<UnknownId, readonly string[]>>>
  /** How that replay ends, as `formatReplayOutcome` words it (`approved`, `undetermined after turn 4`, `cancelled (recorded)`). */
  readonly outcome: string
  readonly stallTurn: number | null
  /** The turn the loop ends on in this branch (null when it would go on past the records). */
  readonly endTurn: number | null
  /** The branch's replay, for explain: its turns as this branch plays them. */
  readonly replay: {readonly outcome: Exclude<ReplayOutcome, {kind: 'branches'}>; readonly turns: readonly ReplayedTurn[]}
}

/** An input the replay enumerated (unknown-inputs.ts), and whether its value changes the outcome. */
export interface EnumeratedInput {
  readonly id: UnknownId
  readonly input: string
  readonly values: readonly {readonly value: string; readonly assume: string; readonly brief: string}[]
  readonly turns: readonly number[]
  /** False: every value gives the same outcome, stall turn and end turn, so it is not a branch. */
  readonly changesOutcome: boolean
}

export interface TaskReplay {
  readonly profile: string
  readonly outcome: ReplayOutcome
  /** The turn at which the stall detector fires under this profile, if it does. */
  readonly stallTurn: number | null
  readonly turns: readonly ReplayedTurn[]
  /** Inputs the replay needed and the records did not hold, for the task as a whole. */
  readonly missingInputs: readonly string[]
  /** Inputs the records lack whose possible values were each replayed (empty when none was needed). */
  readonly enumerated?: readonly EnumeratedInput[]
}

/**
 * The contract's `outcome` string for a replay: `unrecoverable_stall`, `cancelled (recorded)`, `undetermined
 * after turn 18` (the profile would go on past the records), `undetermined` (it depends on a missing input:
 * see its branches).
 */
export function formatReplayOutcome(outcome: ReplayOutcome): string {
  switch (outcome.kind) {
    case 'branches':
      return 'undetermined'
    case 'replayed':
      return outcome.outcome
    case 'recorded-boundary':
      return `${outcome.outcome} (recorded)`
    case 'undetermined':
      return `undetermined after turn ${outcome.afterTurn}`
    case 'not-modelled':
      return 'not modelled'
  }
}

/** Which GuardKit version wrote the run, from documented markers (docs/era-markers.md lists them; `inferEra`). */
export interface EraInference {
  /** `as-run:<commit>`, `legacy`, `pre-acr`, … or null when the markers say nothing. */
  readonly profile: string | null
  /** Window of commits consistent with the markers, oldest and newest (short shas), when bounded. */
  readonly window: {readonly from: string | null; readonly to: string | null}
  readonly reason: string
  readonly confidence: 'high' | 'medium' | 'low'
  readonly evidence: readonly Evidence[]
  /** False when the run is older or newer than the modelled window: replay is not modelled. */
  readonly modelled: boolean
  /**
   * No marker and no date bounds the window from above: its newest commit (`window.to`) is only the newest commit
   * modelled, and the run may be that one or any later one.
   */
  readonly openAbove?: boolean
}

/** A detail with nothing known, for builders and tests (every field present, all empty). */
export function emptyTurnDetail(): TurnDetail {
  return {
    player: {source: 'none', mode: null, events: [], coachInputs: null, agentReportKnown: false},
    coach: {
      source: 'none', notValidatedBecause: null, taskType: null, criteria: null, report: null, step: 'unknown', gates: null,
      independentTests: null, failureClass: null, testCommand: null, testDispatch: null, requirements: null, raised: null, unknowns: [],
    },
    feedback: {recorded: null, recordedCompleteness: null, rebuiltFrom: null, evidence: [], rawSignature: null, normalisedSignature: null, signatureBasis: null},
    loop: {previousFeedback: null, perspectiveReset: false, criteriaPassed: 0, peakCriteriaPassed: null, checkpoint: null, pollution: null, stallSkipped: null},
    differences: [],
  }
}
