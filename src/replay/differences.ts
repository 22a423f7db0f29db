import type {Evidence} from '../model/evidence.js'
import {agreesWithExcerpt, type TurnInputs} from './turn-inputs.js'
import type {ProfileContext} from './profile-context.js'
import {formatReplayOutcome, type ReplayedTurn, type TaskReplay, type TurnDifference} from './types.js'

/**
 * Recorded vs replayed for one turn: decision, criteria counts, feedback (the excerpt when only that
 * was recorded), the stall signature where the log pinned it. Values the record does not hold are
 * not compared.
 */
export function turnDifferences(t: TurnInputs, replayed: ReplayedTurn, ctx: ProfileContext): TurnDifference[] {
  const out: TurnDifference[] = []
  const c = t.record.coach
  const push = (field: TurnDifference['field'], recorded: TurnDifference['recorded'], value: TurnDifference['replayed'], evidence: readonly Evidence[]): void => {
    out.push({field, recorded, replayed: value, evidence})
  }
  if (t.decision !== null && replayed.decision !== null && t.decision !== replayed.decision) push('decision', t.decision, replayed.decision, c.decision?.evidence ?? [])
  if (t.criteriaMet !== null && replayed.criteriaMet !== null && t.criteriaMet !== replayed.criteriaMet) push('criteriaMet', t.criteriaMet, replayed.criteriaMet, c.criteriaMet?.evidence ?? [])
  if (t.criteriaTotal !== null && replayed.criteriaTotal !== null && t.criteriaTotal !== replayed.criteriaTotal) push('criteriaTotal', t.criteriaTotal, replayed.criteriaTotal, c.criteriaTotal?.evidence ?? [])
  const recorded = t.feedback
  if (recorded && replayed.feedback !== null && t.decision === 'feedback' && replayed.decision === 'feedback') {
    const same = recorded.basis === 'category' || replayed.feedbackBasis === 'category'
      ? agreesWithExcerpt(replayed.feedback, recorded.text) || agreesWithExcerpt(recorded.text, replayed.feedback) || recorded.text === replayed.feedback
      : recorded.text === replayed.feedback
    if (!same) push('feedback', recorded.text, replayed.feedback, recorded.evidence)
  }
  const stall = ctx.inputs.recordedStall
  if (stall && stall.kind === 'feedback' && stall.turn === t.turn && stall.signature && replayed.signature && replayed.signature !== stall.signature && sameSignatureKind(ctx)) {
    push('signature', stall.signature, replayed.signature, stall.evidence)
  }
  if (stall && stall.kind === 'feedback' && stall.turn === t.turn && replayed.stall && !replayed.stall.fired && sameLoopRules(ctx)) push('stall', true, false, stall.evidence)
  if (replayed.stall?.fired && (!stall || stall.turn !== t.turn) && sameLoopRules(ctx)) push('stall', false, true, [])
  return out
}

/** The profile signs feedback as the code that ran did (D27): only then is the recorded signature comparable. */
function sameSignatureKind(ctx: ProfileContext): boolean {
  return ctx.asRun !== null && ctx.asRun.stallNormalize === ctx.flags.stallNormalize
}

/** Stall rules as the code that ran (D27-D29): only then is a different stall a divergence from the record. */
function sameLoopRules(ctx: ProfileContext): boolean {
  return ctx.asRun !== null && (['stallNormalize', 'extendedStall', 'peakCriteriaCount'] as const).every((id) => ctx.asRun![id] === ctx.flags[id])
}

/** One turn compared across profiles. */
export interface ProfileTurnComparison {
  readonly turn: number
  readonly profiles: Readonly<Record<string, {
    readonly decision: string | null
    readonly criteriaMet: number | null
    readonly criteriaTotal: number | null
    readonly signature: string | null
    readonly fidelity: string
  } | null>>
  /** Fields on which the profiles disagree. */
  readonly differs: readonly ('decision' | 'criteria' | 'feedback' | 'signature')[]
}

/** Profile against profile, turn by turn, and their outcomes (for the explainer and renderers). */
export interface ProfileComparison {
  readonly outcomes: Readonly<Record<string, string>>
  readonly stallTurns: Readonly<Record<string, number | null>>
  readonly turns: readonly ProfileTurnComparison[]
  /** The first turn at which two profiles disagree, or null. */
  readonly firstDifference: number | null
}

export function compareProfiles(replays: Readonly<Record<string, TaskReplay>>): ProfileComparison {
  const names = Object.keys(replays)
  const turnNumbers = [...new Set(names.flatMap((n) => replays[n]!.turns.map((t) => t.turn)))].sort((a, b) => a - b)
  const turns = turnNumbers.map((turn): ProfileTurnComparison => {
    const at = Object.fromEntries(names.map((n) => [n, replays[n]!.turns.find((t) => t.turn === turn) ?? null]))
    const present = Object.values(at).filter((x): x is ReplayedTurn => x !== null)
    const differs: ProfileTurnComparison['differs'][number][] = []
    const distinct = (f: (t: ReplayedTurn) => unknown): boolean => new Set(present.map((t) => JSON.stringify(f(t)))).size > 1
    if (distinct((t) => t.decision)) differs.push('decision')
    if (distinct((t) => [t.criteriaMet, t.criteriaTotal])) differs.push('criteria')
    if (distinct((t) => t.feedback)) differs.push('feedback')
    if (distinct((t) => t.signature)) differs.push('signature')
    const profiles = Object.fromEntries(Object.entries(at).map(([n, t]) => [n, t && {decision: t.decision, criteriaMet: t.criteriaMet, criteriaTotal: t.criteriaTotal, signature: t.signature, fidelity: t.fidelity}]))
    return {turn, profiles, differs}
  })
  return {
    outcomes: Object.fromEntries(names.map((n) => [n, formatReplayOutcome(replays[n]!.outcome)])),
    stallTurns: Object.fromEntries(names.map((n) => [n, replays[n]!.stallTurn])),
    turns,
    firstDifference: turns.find((t) => t.differs.length > 0 || Object.values(t.profiles).some((p) => p === null))?.turn ?? null,
  }
}

/** Recorded vs replayed for a whole task: the turns that differ and whether the outcome agrees. */
export interface RecordComparison {
  readonly recordedOutcome: string | null
  readonly replayedOutcome: string
  readonly outcomeAgrees: boolean | null
  readonly divergingTurns: readonly number[]
  /** The first turn whose replayed decision or feedback differs from the record. */
  readonly firstDivergence: number | null
}

export function compareWithRecord(recordedOutcome: string | null, replay: TaskReplay): RecordComparison {
  const replayedOutcome = formatReplayOutcome(replay.outcome)
  const o = replay.outcome
  const agrees = recordedOutcome === null || o.kind === 'not-modelled' || o.kind === 'undetermined' || o.kind === 'branches' ? null : o.outcome === recordedOutcome
  const diverging = replay.turns.filter((t) => t.diverges).map((t) => t.turn)
  const first = replay.turns.find((t) => t.detail.differences.some((d) => d.field === 'decision' || d.field === 'feedback'))?.turn ?? null
  return {recordedOutcome, replayedOutcome, outcomeAgrees: agrees, divergingTurns: diverging, firstDivergence: first}
}
