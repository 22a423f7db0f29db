import type {Evidence} from '../model/evidence.js'
import type {CoachDecision, Outcome} from '../model/outcome.js'

/**
 * How a replayed value was obtained (contract.md): `exact` from the full inputs, `approximate`
 * from partial inputs (what was assumed is listed), `insufficient` when the inputs do not allow a
 * replay of that turn (`missingInputs` says why).
 */
export type Fidelity = 'exact' | 'approximate' | 'insufficient'

/**
 * `recorded`: the turn's inputs are what GuardKit really had. `inferred`: an earlier turn's
 * replayed feedback differed from the recorded one, so this turn assumes the Player would have
 * acted the same (issue: "every turn after the first point where a profile's feedback differs").
 */
export type TurnConfidence = 'recorded' | 'inferred'

/** What the stall detector saw and decided on one call (spec §8.4). */
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
  /** Side-channel detail for explain (criteria strategies, pipeline losses, test command, …). */
  readonly detail: Readonly<Record<string, unknown>>
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

export interface TaskReplay {
  readonly profile: string
  readonly outcome: ReplayOutcome
  /** The turn at which the stall detector fires under this profile, if it does. */
  readonly stallTurn: number | null
  readonly turns: readonly ReplayedTurn[]
  /** Inputs the replay needed and the records did not hold, for the task as a whole. */
  readonly missingInputs: readonly string[]
}

/** The contract's `outcome` string for a replay: `unrecoverable_stall`, `cancelled (recorded)`, `undetermined after turn 18`. */
export function formatReplayOutcome(outcome: ReplayOutcome): string {
  switch (outcome.kind) {
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

/** Which GuardKit version wrote the run, from documented markers (docs/findings.md lists them). */
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
}
