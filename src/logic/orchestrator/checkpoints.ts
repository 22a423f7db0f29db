import {pyTruthy} from '../python/strings.js'
import {asObject, type TurnOutcome} from './turn-outcome.js'

/** A worktree checkpoint as the pollution rule reads it (`[guardkit-checkpoint] Turn N complete (tests: pass|fail)`). */
export interface Checkpoint {
  readonly turn: number
  readonly testsPassed: boolean
}

/** Consecutive failing checkpoints that count as context pollution (docs/guardkit-logic.md §8.1). */
export const POLLUTION_WINDOW = 3

/**
 * `_extract_tests_passed(turn_record)` (docs/guardkit-logic.md §8.1): the task-work gate value, not the independent
 * tests. False without a successful Coach result; else `quality_gates.tests_passed` when the
 * gates dict has the key, else `validation_results.tests_passed`, which Coach reports never carry.
 */
export function checkpointTestsPassed(rec: TurnOutcome): boolean {
  const coach = rec.coachResult
  if (!coach?.success || !coach.report) return false
  const validation = asObject(coach.report.validation_results) ?? {}
  const gates = asObject(validation.quality_gates)
  if (gates && Object.hasOwn(gates, 'tests_passed')) return pyTruthy(gates.tests_passed)
  return pyTruthy(validation.tests_passed)
}

/** What the pollution rule saw after one checkpoint. */
export type PollutionCheck =
  | {readonly kind: 'clear'; readonly window: readonly Checkpoint[]}
  /** Three failing in a row and a passing checkpoint to go back to. */
  | {readonly kind: 'rollback'; readonly window: readonly Checkpoint[]; readonly target: number}
  /** Three failing in a row and none passing: `unrecoverable_stall`. */
  | {readonly kind: 'no-passing-checkpoint'; readonly window: readonly Checkpoint[]}

/** `WorktreeCheckpointManager.should_rollback` + `find_last_passing_checkpoint`. */
export function checkPollution(checkpoints: readonly Checkpoint[]): PollutionCheck {
  const window = checkpoints.slice(-POLLUTION_WINDOW)
  if (checkpoints.length < POLLUTION_WINDOW || window.some((c) => c.testsPassed)) return {kind: 'clear', window}
  const target = [...checkpoints].reverse().find((c) => c.testsPassed)
  return target ? {kind: 'rollback', window, target: target.turn} : {kind: 'no-passing-checkpoint', window}
}
