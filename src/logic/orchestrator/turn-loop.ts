import type {LogicFlags} from '../changes.js'
import {LOGGERS, type LogSink} from '../log-sink.js'
import {pyRepr, pyStr} from '../python/repr.js'
import {checkPollution, checkpointTestsPassed, type Checkpoint, type PollutionCheck} from './checkpoints.js'
import type {PyExceptionValue} from './py-exception.js'
import {countCriteriaPassed} from './criteria-count.js'
import {displayCriteriaProgress} from './criteria-progress.js'
import {featureTaskTimeout} from './feature-timeout.js'
import {crashOrchestration} from './orchestration-crash.js'
import type {LoopResult, LoopState, LoopTurn} from './loop-state.js'
import {checkFeedbackStall} from './stall-detector.js'
import type {TurnOutcome} from './turn-outcome.js'

/** What the loop can be told, in the order it happens (recorded or live). */
export type LoopEvent =
  /**
   * `_execute_turn` returned `outcome`. `cancellation` says where the cooperative cancellation
   * event was seen: between Player and Coach (the outcome is then the synthetic `error` turn), or
   * right after the turn.
   */
  | {readonly kind: 'turn'; readonly outcome: TurnOutcome; readonly cancellation?: 'between-player-and-coach' | 'after-turn'}
  /** The cancellation event was set before the Player phase of the next turn. */
  | {readonly kind: 'cancel'}
  /** An exception escaped `_loop_phase` (e.g. a failing git command while checkpointing). */
  | {readonly kind: 'exception'; readonly exception: PyExceptionValue}
  /** FeatureOrchestrator's `wait_for` fired; the loop's own thread may go on until it sees a cancellation. */
  | {readonly kind: 'timeout'; readonly seconds: number}

const A = LOGGERS.autobuild

/**
 * One step of `AutoBuildOrchestrator._loop_phase` (docs/guardkit-logic.md §8.1): the same reducer serves batch
 * replay (fold the recorded events) and the live dashboard (fold them as they arrive). Events
 * after the loop ended are ignored, except a FeatureOrchestrator timeout.
 */
export function stepLoop(state: LoopState, event: LoopEvent, flags: LogicFlags, log: LogSink): LoopState {
  const {config} = state
  if (event.kind === 'timeout') {
    if (state.timeout || state.result) return state
    const recorded = featureTaskTimeout(config.taskId, event.seconds, log)
    return {...state, timeout: {seconds: event.seconds, error: recorded.error ?? ''}}
  }
  if (state.result) return state
  if (state.nextTurn > config.maxTurns) return endMaxTurns(state, log)
  if (event.kind === 'exception') return end(state, crashResult(config.taskId, event.exception, state.turns.at(-1)?.turn ?? null, log))
  if (event.kind === 'cancel') {
    log.emit('INFO', A, `Cancellation requested for ${config.taskId} at turn ${state.nextTurn} (before Player phase)`)
    return end(state, {outcome: 'cancelled', turn: state.nextTurn, cause: 'cancelled-before-player', exception: null})
  }
  return stepTurn(state, event.outcome, event.cancellation ?? null, flags, log)
}

/** Fold a whole recorded sequence (batch replay). */
export function runLoop(state: LoopState, events: readonly LoopEvent[], flags: LogicFlags, log: LogSink): LoopState {
  return events.reduce((s, e) => stepLoop(s, e, flags, log), state)
}

function stepTurn(
  state: LoopState,
  rec: TurnOutcome,
  cancellation: 'between-player-and-coach' | 'after-turn' | null,
  flags: LogicFlags,
  log: LogSink,
): LoopState {
  const {config} = state
  const turn = state.nextTurn
  log.emit('INFO', A, `Executing turn ${turn}/${config.maxTurns}`)
  const perspectiveReset = config.perspectiveResetTurns.includes(turn)
  if (perspectiveReset) log.emit('INFO', A, `Perspective reset triggered at turn ${turn} (scheduled reset)`)
  const previousFeedback = perspectiveReset ? null : state.previousFeedback
  const criteriaPassed = countCriteriaPassed(rec)
  let entry: LoopTurn = {
    turn, outcome: rec, previousFeedback, perspectiveReset, progress: {kind: 'skipped'}, criteriaPassed,
    peakCriteriaPassed: null, checkpoint: null, pollution: null, stall: null, stallSkipped: 'loop-ended-before',
  }
  let next: LoopState = {...state, nextTurn: turn + 1, previousFeedback, turns: [...state.turns, entry]}
  const update = (patch: Partial<LoopTurn>, statePatch: Partial<LoopState> = {}): void => {
    entry = {...entry, ...patch}
    next = {...next, ...statePatch, turns: [...state.turns, entry]}
  }

  if (cancellation === 'between-player-and-coach') {
    log.emit('INFO', A, `Cancellation detected for ${config.taskId} between Player and Coach at turn ${turn}`)
  }
  if (cancellation) {
    log.emit('INFO', A, `Cancellation detected after turn ${turn} for ${config.taskId}`)
    return end(next, {outcome: 'cancelled', turn, cause: 'cancelled-after-turn', exception: null})
  }
  const progress = displayCriteriaProgress(rec, config.acceptanceCriteria, turn, flags, log)
  update({progress})
  if (progress.kind === 'crashed') return end(next, crashResult(config.taskId, progress.exception, turn, log))
  if (rec.decision === 'approve') {
    log.emit('INFO', A, `Coach approved on turn ${turn}`)
    if (config.enableCheckpoints) update({checkpoint: {turn, testsPassed: checkpointTestsPassed(rec)}})
    return end(next, {outcome: 'approved', turn, cause: 'approved', exception: null})
  }
  if (rec.decision === 'error') {
    log.emit('ERROR', A, `Critical error on turn ${turn}`)
    return end(next, {outcome: 'error', turn, cause: 'critical-error', exception: null})
  }

  if (config.enableCheckpoints) {
    const checkpoint: Checkpoint = {turn, testsPassed: checkpointTestsPassed(rec)}
    const checkpoints = [...next.checkpoints, checkpoint]
    const pollution = config.rollbackOnPollution ? checkPollution(checkpoints) : null
    update({checkpoint, pollution}, {checkpoints})
    if (pollution && pollution.kind !== 'clear') return applyPollution(next, entry, pollution, log)
  }

  // An empty or missing feedback skips the detector: nothing is appended to the history.
  if (rec.decision === 'feedback' && rec.feedback) {
    // peakCriteriaCount (D29): fixed feeds the running peak, legacy this turn's count.
    const peak = flags.peakCriteriaCount ? Math.max(criteriaPassed, next.maxCriteriaPassed) : null
    const step = checkFeedbackStall(next.stall, rec.feedback, peak ?? criteriaPassed, flags, log, config.stallThreshold)
    update({stall: step.check, stallSkipped: null, peakCriteriaPassed: peak}, {stall: step.state, maxCriteriaPassed: peak ?? next.maxCriteriaPassed})
    if (step.check.stalled) {
      log.emit('ERROR', A, stallErrorText(config.taskId, criteriaPassed, flags))
      return end(next, {outcome: 'unrecoverable_stall', turn, cause: 'feedback-stall', exception: null})
    }
  } else {
    update({stallSkipped: rec.decision === 'feedback' ? 'empty-feedback' : 'not-feedback'})
  }
  if (rec.decision !== 'feedback') {
    log.emit('ERROR', A, `Invalid decision: ${pyStr(rec.decision)}`)
    return end(next, {outcome: 'error', turn, cause: 'invalid-decision', exception: null})
  }
  log.emit('INFO', A, `Coach provided feedback on turn ${turn}`)
  next = {...next, previousFeedback: rec.feedback}
  return next.nextTurn > config.maxTurns ? endMaxTurns(next, log) : next
}

/** docs/guardkit-logic.md §8.7: the ERROR after a feedback stall prints the current count, not the peak (D29). */
function stallErrorText(taskId: string, current: number, flags: LogicFlags): string {
  // stallLogText (D30)
  return flags.stallLogText
    ? `Feedback stall detected for ${taskId}: identical feedback with no criteria progress (${current} criteria passing). Exiting loop early.`
    : `Feedback stall detected for ${taskId}: identical feedback for 3 consecutive turns with 0% criteria progress. Exiting loop early.`
}

/** Three failing checkpoints in a row: roll back to the newest passing one, or give up (docs/guardkit-logic.md §8.1). */
function applyPollution(state: LoopState, entry: LoopTurn, pollution: Exclude<PollutionCheck, {kind: 'clear'}>, log: LogSink): LoopState {
  const {config} = state
  const turn = entry.turn
  const turns = [...state.turns.slice(0, -1), {...entry, stallSkipped: 'context-pollution' as const}]
  log.emit('WARNING', LOGGERS.worktreeCheckpoints, `Context pollution detected: ${pollution.window.length} consecutive test failures in turns ${pyRepr(pollution.window.map((c) => c.turn))}`)
  if (pollution.kind === 'no-passing-checkpoint') {
    log.emit('WARNING', LOGGERS.worktreeCheckpoints, 'No passing checkpoints found in history')
    log.emit('ERROR', A, `Unrecoverable stall detected for ${config.taskId}: context pollution detected but no passing checkpoint exists. Exiting loop early to avoid wasting turns.`)
    return end({...state, turns}, {outcome: 'unrecoverable_stall', turn, cause: 'context-pollution', exception: null})
  }
  const target = pollution.target
  log.emit('WARNING', A, `Context pollution detected, rolling back from turn ${turn} to turn ${target}`)
  log.emit('INFO', A, `Continuing from turn ${target + 1} after rollback`)
  const next: LoopState = {
    ...state,
    turns,
    checkpoints: state.checkpoints.filter((c) => c.turn <= target),
    previousFeedback: turns.find((t) => t.turn === target)?.outcome.feedback ?? null,
  }
  return next.nextTurn > config.maxTurns ? endMaxTurns(next, log) : next
}

function endMaxTurns(state: LoopState, log: LogSink): LoopState {
  log.emit('WARNING', A, `Max turns (${state.config.maxTurns}) exceeded for ${state.config.taskId}`)
  return end(state, {outcome: 'max_turns_exceeded', turn: null, cause: 'max-turns', exception: null})
}

function crashResult(taskId: string, exception: PyExceptionValue, turn: number | null, log: LogSink): LoopResult {
  crashOrchestration(taskId, exception, log)
  return {outcome: 'error', turn, cause: 'exception', exception}
}

function end(state: LoopState, result: LoopResult): LoopState {
  return {...state, result}
}
