import {pyLen, pyStrip} from '../../logic/python/index.js'
import type {TaskRun} from '../../model/run-record.js'
import {formatReplayOutcome, type Fidelity, type ReplayedTurn, type TaskReplay} from '../../replay/types.js'
import {requirementsOf} from '../replay-view.js'
import type {GateOutcomeKind, GateSide, GateTurnCell} from './types.js'

/** One side of a task as the policy reads it: the outcome, each turn, and whether an approval can be trusted. */
export interface SideView {
  readonly side: GateSide
  readonly cells: ReadonlyMap<number, GateTurnCell>
  /** Why this side's approval cannot be trusted (null: it can, or it does not approve). */
  readonly falseApproval: string | null
  /** An undetermined replay (kind `branches`): each branch as a side of its own, with its condition. */
  readonly branches?: readonly {readonly assume: string; readonly brief: string; readonly view: SideView}[]
}

/** A replay under a profile, seen by the gate. */
export function sideOfReplay(replay: TaskReplay): SideView {
  const o = replay.outcome
  const cells = new Map(replay.turns.map((t) => [t.turn, cellOf(t)] as const))
  let kind: GateOutcomeKind
  let endTurn: number | null
  switch (o.kind) {
    case 'replayed':
      kind = outcomeKind(o.outcome)
      endTurn = o.turn
      break
    case 'recorded-boundary':
      kind = 'boundary'
      endTurn = o.turn
      break
    case 'undetermined':
      kind = 'undetermined'
      endTurn = o.afterTurn
      break
    case 'not-modelled':
      kind = 'not-modelled'
      endTurn = null
      break
    case 'branches':
      // Nothing about the ending holds in every branch: no horizon to compare against (classify.ts reads the branches).
      kind = 'undetermined'
      endTurn = null
      break
  }
  const decisive = replay.turns.filter((t) => endTurn === null || t.turn <= endTurn)
  const side: GateSide = {
    subject: replay.profile,
    outcome: formatReplayOutcome(o),
    kind,
    endTurn,
    stallTurn: replay.stallTurn,
    fidelity: kind === 'not-modelled' ? 'insufficient' : worstFidelity(decisive.map((t) => t.fidelity)),
  }
  const approving = kind === 'approved' && endTurn !== null ? replay.turns.find((t) => t.turn === endTurn) : undefined
  if (o.kind !== 'branches') return {side, cells, falseApproval: approving ? untrustedApproval(approving) : null}
  const branches = o.branches.map((b) => ({
    assume: b.assume,
    brief: b.brief,
    view: sideOfReplay({...replay, outcome: b.replay.outcome, turns: b.replay.turns, stallTurn: b.stallTurn}),
  }))
  return {
    side: {...side, branches: o.branches.map((b) => ({assume: b.assume, brief: b.brief, outcome: b.outcome, stallTurn: b.stallTurn, endTurn: b.endTurn}))},
    cells, falseApproval: null, branches,
  }
}

/** What GuardKit actually did, seen by the gate: the recorded outcome and turns (exact by definition). */
export function sideOfRecord(task: TaskRun): SideView {
  const last = task.turns.at(-1)?.turn ?? 0
  const outcome = task.outcome?.value ?? null
  const stall = task.stall
  const cells = new Map(
    task.turns.map((t): [number, GateTurnCell] => {
      const fb = t.coach.feedback
      const fired = stall !== null && stall.turn === t.turn
      return [t.turn, {
        decision: t.coach.decision?.value ?? null,
        criteriaMet: t.coach.criteriaMet?.value ?? null,
        criteriaTotal: t.coach.criteriaTotal?.value ?? null,
        signature: fired && stall.kind === 'feedback' ? stall.signature : null,
        feedback: fb?.text ?? null,
        feedbackComplete: fb?.completeness === 'full',
        fidelity: 'exact',
        inferred: false,
        stallFired: fired && stall.kind === 'feedback',
      }]
    }),
  )
  let kind: GateOutcomeKind
  let endTurn: number | null = last
  if (outcome === null) kind = 'undetermined'
  else if (outcome === 'cancelled' || outcome === 'timeout') kind = 'boundary'
  else kind = outcomeKind(outcome)
  if (kind === 'stalled' && stall?.turn != null) endTurn = stall.turn
  const side: GateSide = {
    subject: 'recorded',
    outcome: outcome ?? `undetermined after turn ${last}`,
    kind,
    endTurn,
    stallTurn: stall?.kind === 'feedback' ? stall.turn : null,
    fidelity: 'exact',
  }
  return {side, cells, falseApproval: null}
}

/** The side of a run outside the modelled window (or otherwise not replayable), for any subject. */
export function notModelledSide(subject: string): SideView {
  return {side: {subject, outcome: 'not modelled', kind: 'not-modelled', endTurn: null, stallTurn: null, fidelity: 'insufficient'}, cells: new Map(), falseApproval: null}
}

function outcomeKind(outcome: string): GateOutcomeKind {
  if (outcome === 'approved') return 'approved'
  if (outcome === 'unrecoverable_stall') return 'stalled'
  return 'failed'
}

function cellOf(t: ReplayedTurn): GateTurnCell {
  return {
    decision: t.decision,
    criteriaMet: t.criteriaMet,
    criteriaTotal: t.criteriaTotal,
    signature: t.signature,
    feedback: t.feedback,
    feedbackComplete: t.feedbackBasis === 'full' || t.feedbackBasis === 'rebuilt',
    fidelity: t.fidelity,
    inferred: t.confidence === 'inferred',
    stallFired: t.stall?.fired === true,
  }
}

const RANK: Record<Fidelity, number> = {exact: 0, approximate: 1, insufficient: 2}

/** exact < approximate < insufficient. */
export function fidelityRank(f: Fidelity): number {
  return RANK[f]
}

/** The worst of the turns' fidelities; a side without turns has nothing inexact in it. */
function worstFidelity(fs: readonly Fidelity[]): Fidelity {
  if (fs.length === 0) return 'exact'
  if (fs.every((f) => f === 'insufficient')) return 'insufficient'
  return fs.some((f) => f !== 'exact') ? 'approximate' : 'exact'
}

/**
 * An approval the replay itself cannot back: the Coach's own requirements check rejected a
 * criterion, or verified one by a substring match with an empty or one-character requirement (spec
 * docs/guardkit-logic.md §7.5; FUZZY_FALSE_POSITIVE in docs/findings.md). A count below the total alone is not enough:
 * Coaches of some eras approve with criteria pending, unevaluated (api_docs_2 approves with
 * `0/6 verified … 6 pending`), and a log-only turn has no per-criterion results.
 */
function untrustedApproval(t: ReplayedTurn): string | null {
  const criteria = requirementsOf(t)?.criteria ?? []
  const rejected = criteria.find((c) => c.verdict === 'rejected')
  if (rejected) return `its own requirements check rejected ${rejected.criterion_id}`
  for (const c of criteria) {
    const m = c.text_match?.matched
    if (c.verdict === 'verified' && (c.decidedBy === 'text-substring' || c.decidedBy === 'hybrid-text') && typeof m === 'string' && pyLen(pyStrip(m)) <= 2) {
      return `it verifies ${c.criterion_id} by a substring match with ${JSON.stringify(m)}, which is "in" every criterion`
    }
  }
  return null
}
