import type {Checkpoint, PollutionCheck} from './checkpoints.js'
import type {PyExceptionValue} from './py-exception.js'
import type {CriteriaProgress} from './criteria-progress.js'
import {INITIAL_STALL_STATE, STALL_THRESHOLD, type StallCheck, type StallDetectorState} from './stall-detector.js'
import type {NumberedTurn, TurnOutcome} from './turn-outcome.js'

/** `_loop_phase`'s settings (docs/guardkit-logic.md §8.1). */
export interface LoopConfig {
  readonly taskId: string
  /** Default 5 (CLI `--max-turns`; the pre-loop may replace it). */
  readonly maxTurns: number
  /** 1 unless resumed. */
  readonly startTurn?: number
  /** On resume: the last saved feedback, sent to the first turn. */
  readonly resumeFeedback?: string | null
  /** Default true → resets at turns [3, 5]. */
  readonly enablePerspectiveReset?: boolean
  readonly perspectiveResetTurns?: readonly number[]
  /** Checkpoints and rollback on pollution are on by default; FeatureOrchestrator keeps them on. */
  readonly enableCheckpoints?: boolean
  readonly rollbackOnPollution?: boolean
  /** Checkpoints loaded from an existing `checkpoints.json`. */
  readonly initialCheckpoints?: readonly Checkpoint[]
  /** The task's acceptance criteria (the progress display is a no-op without them). */
  readonly acceptanceCriteria?: readonly string[]
  readonly stallThreshold?: number
}

export type ResolvedLoopConfig = Required<Omit<LoopConfig, 'enablePerspectiveReset' | 'initialCheckpoints'>>

/** Why a feedback turn did not reach `_is_feedback_stalled`. */
export type StallSkip = 'not-feedback' | 'empty-feedback' | 'loop-ended-before' | 'context-pollution'

/** One executed turn with everything the loop derived from it. */
export interface LoopTurn {
  readonly turn: number
  readonly outcome: TurnOutcome
  /** The feedback `_execute_turn` passed to the Player (`null` on a perspective reset). */
  readonly previousFeedback: string | null
  readonly perspectiveReset: boolean
  readonly progress: CriteriaProgress
  /** `_count_criteria_passed(rec)` for this turn. */
  readonly criteriaPassed: number
  /** `_max_criteria_passed` after this turn (peakCriteriaCount), else null. */
  readonly peakCriteriaPassed: number | null
  readonly checkpoint: Checkpoint | null
  readonly pollution: PollutionCheck | null
  readonly stall: StallCheck | null
  readonly stallSkipped: StallSkip | null
}

/** How `_loop_phase` ended. */
export interface LoopResult {
  /** approved | unrecoverable_stall | max_turns_exceeded | cancelled | error */
  readonly outcome: string
  /** The turn it ended on (null: before any turn, or after the last one for max turns). */
  readonly turn: number | null
  /** What ended it, for explanations. */
  readonly cause:
    | 'approved'
    | 'feedback-stall'
    | 'context-pollution'
    | 'max-turns'
    | 'cancelled-before-player'
    | 'cancelled-after-turn'
    | 'critical-error'
    | 'invalid-decision'
    | 'exception'
  /** Set when an exception escaped `_loop_phase` (legacy display crash, failing git command). */
  readonly exception: PyExceptionValue | null
}

export interface LoopState {
  readonly config: ResolvedLoopConfig
  readonly nextTurn: number
  readonly previousFeedback: string | null
  readonly turns: readonly LoopTurn[]
  readonly stall: StallDetectorState
  /** `_max_criteria_passed` (fixed); kept at 0 when the flag is off. */
  readonly maxCriteriaPassed: number
  readonly checkpoints: readonly Checkpoint[]
  /** null while the loop is running. */
  readonly result: LoopResult | null
  /** Set when FeatureOrchestrator's task timeout fired (the recorded outcome is then `timeout`). */
  readonly timeout: {readonly seconds: number; readonly error: string} | null
}

export function resolveLoopConfig(config: LoopConfig): ResolvedLoopConfig {
  const reset = config.enablePerspectiveReset ?? true
  return {
    taskId: config.taskId,
    maxTurns: config.maxTurns,
    startTurn: config.startTurn ?? 1,
    resumeFeedback: config.resumeFeedback ?? null,
    perspectiveResetTurns: reset ? (config.perspectiveResetTurns ?? [3, 5]) : [],
    enableCheckpoints: config.enableCheckpoints ?? true,
    rollbackOnPollution: config.rollbackOnPollution ?? true,
    acceptanceCriteria: config.acceptanceCriteria ?? [],
    stallThreshold: config.stallThreshold ?? STALL_THRESHOLD,
  }
}

/**
 * The loop before its first turn. A loop whose start turn is already past `max_turns` never runs
 * a turn; the first event then ends it with `max_turns_exceeded`.
 */
export function initialLoopState(config: LoopConfig): LoopState {
  const resolved = resolveLoopConfig(config)
  return {
    config: resolved,
    nextTurn: resolved.startTurn,
    previousFeedback: resolved.resumeFeedback,
    turns: [],
    stall: INITIAL_STALL_STATE,
    maxCriteriaPassed: 0,
    checkpoints: config.initialCheckpoints ?? [],
    result: null,
    timeout: null,
  }
}

/** The outcome FeatureOrchestrator records: its own `timeout` wins over whatever the loop did after. */
export function recordedOutcome(state: LoopState): string | null {
  return state.timeout ? 'timeout' : (state.result?.outcome ?? null)
}

/** The turn history as `_build_error_message` / `_build_summary_details` read it. */
export function turnHistory(state: LoopState): NumberedTurn[] {
  return state.turns.map((t) => ({turn: t.turn, ...t.outcome}))
}

/** The turn at which the stall detector fired, if it did. */
export function stallTurn(state: LoopState): number | null {
  return state.turns.find((t) => t.stall?.stalled)?.turn ?? null
}
