import type {LogicFlags} from '../logic/changes.js'
import {collectingSink} from '../logic/log-sink.js'
import {stallTurn, stepLoop} from '../logic/orchestrator/index.js'
import type {Evidence} from '../model/evidence.js'
import {replayWithBranches, type FoldedReplay} from './branches.js'
import {createProfileContext, type ProfileContext} from './profile-context.js'
import {initialReplayState, stepReplay, type RecordedSignatures, type ReplayState} from './replay-step.js'
import type {TaskInputs} from './turn-inputs.js'
import type {ReplayOutcome, TaskReplay} from './types.js'
import type {Assumptions} from './unknown-inputs.js'

/** A profile to replay under: its name and flags. */
export interface ReplayProfile {
  readonly name: string
  readonly flags: LogicFlags
}

/**
 * Fold the model over one task run's recorded turns under one profile: each turn's
 * Player side and Coach are rebuilt where the records allow, the loop step decides, recorded
 * boundaries (cancellation, feature timeout, crash) are inputs, and a loop still running after the
 * last recorded turn ends `undetermined after turn N` (docs/counterfactuals.md). `asRun` is the
 * profile inferred for the run's era (null when unknown): it says which recorded facts the profile may
 * reuse as they are.
 */
export function replayTask(inputs: TaskInputs, profile: ReplayProfile, asRun: ReplayProfile | null): TaskReplay {
  const sigs = recordedSignatures(inputs)
  // When a turn consults an input the records lack (unknown-inputs.ts), every value it may take is replayed.
  return replayWithBranches((assume) => foldReplay(inputs, profile, asRun, assume, sigs))
}

/** One fold over the recorded turns, with the given values for the inputs the records lack. */
function foldReplay(inputs: TaskInputs, profile: ReplayProfile, asRun: ReplayProfile | null, assume: Assumptions, sigs: RecordedSignatures): FoldedReplay {
  const ctx = createProfileContext(inputs, profile.name, profile.flags, asRun, assume)
  let state = initialReplayState(ctx)
  for (const t of inputs.turns) state = stepReplay(state, ctx, t, sigs)
  return {replay: finishReplay(state, ctx), unknowns: state.unknowns}
}

/** The replay of a run whose era is outside the modelled window: its records only. */
export function notModelledReplay(profile: string, reason: string): TaskReplay {
  return {profile, outcome: {kind: 'not-modelled', reason}, stallTurn: null, turns: [], missingInputs: [reason]}
}

/** The end of the fold: the loop's own outcome, a recorded boundary, or `undetermined after turn N`. */
export function finishReplay(state: ReplayState, ctx: ProfileContext): TaskReplay {
  const inputs = ctx.inputs
  const boundary = inputs.boundary
  let loop = state.loop
  const last = state.turns.at(-1)?.turn ?? 0
  if (!loop.result && state.stoppedAt === null && boundary?.kind === 'cancelled' && boundary.where === 'before-player') {
    loop = stepLoop(loop, {kind: 'cancel'}, ctx.flags, collectingSink())
  }
  const missing = new Set<string>(inputs.missingInputs)
  for (const t of state.turns) for (const m of t.missingInputs) missing.add(m)
  let outcome: ReplayOutcome
  const result = loop.result
  if (result && (result.outcome === 'cancelled' || result.cause === 'exception') && boundary && boundary.kind !== 'timeout') {
    outcome = {kind: 'recorded-boundary', outcome: result.outcome, turn: result.turn ?? last, evidence: boundary.evidence}
  } else if (result) {
    outcome = {kind: 'replayed', outcome: result.outcome, turn: result.turn ?? last}
  } else if (state.stoppedAt === null && boundary && boundary.kind !== 'cancelled') {
    outcome = boundaryOutcome(boundary, last)
  } else {
    const after = state.stoppedAt !== null ? state.stoppedAt - 1 : last
    outcome = {kind: 'undetermined', afterTurn: after}
    missing.add(state.stoppedAt !== null
      ? `the Coach's decision on turn ${state.stoppedAt}`
      : `what the Player would have done after turn ${after} (the record ends there${inputs.cut ? ': the capture stops mid-run' : ''})`)
  }
  return {profile: ctx.name, outcome, stallTurn: stallTurn(loop), turns: state.turns, missingInputs: [...missing]}
}

function boundaryOutcome(boundary: NonNullable<TaskInputs['boundary']>, last: number): ReplayOutcome {
  const evidence: readonly Evidence[] = boundary.evidence
  switch (boundary.kind) {
    case 'timeout':
      return {kind: 'recorded-boundary', outcome: 'timeout', turn: boundary.turn ?? last, evidence}
    case 'crash':
      return {kind: 'recorded-boundary', outcome: 'error', turn: boundary.turn ?? last, evidence}
    case 'other':
      return {kind: 'recorded-boundary', outcome: boundary.outcome, turn: boundary.turn ?? last, evidence}
    case 'cancelled':
      return {kind: 'recorded-boundary', outcome: 'cancelled', turn: boundary.turn, evidence}
  }
}

/**
 * The signatures the log's stall record pins: the detector fired on `windowTurns` identical
 * signatures, so the last that many feedback turns up to the stall turn all carried it.
 */
export function recordedSignatures(inputs: TaskInputs): RecordedSignatures {
  const stall = inputs.recordedStall
  const out = new Map<number, string>()
  if (!stall || stall.kind !== 'feedback' || stall.turn === null || !stall.signature) return out
  const window = stall.windowTurns ?? 3
  const feedbackTurns = inputs.turns.filter((t) => t.turn <= stall.turn! && t.decision === 'feedback' && (t.feedback?.text ?? '') !== '').map((t) => t.turn)
  for (const turn of feedbackTurns.slice(-window)) out.set(turn, stall.signature)
  return out
}
