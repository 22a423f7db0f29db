import type {RequirementsExplanation} from '../logic/coach/requirements/types.js'
import type {ReplayedTurn, TaskReplay} from '../replay/types.js'

/**
 * Typed reads of a replay's side channel. `TurnDetail.coach.requirements` is
 * `validateRequirements`' explanation serialised as plain JSON; it is read back through the logic's
 * own type, checking only the fields this module relies on.
 */
export function requirementsOf(turn: ReplayedTurn): RequirementsExplanation | null {
  const r = turn.detail.coach.requirements
  if (!r || typeof r['strategy'] !== 'string' || !Array.isArray(r['criteria'])) return null
  return r as unknown as RequirementsExplanation
}

/** The replay under a profile, when it ran and is modelled. */
export function modelledReplay(replays: Readonly<Record<string, TaskReplay>>, profile: string | null): TaskReplay | null {
  if (profile === null) return null
  const r = replays[profile]
  return r && r.outcome.kind !== 'not-modelled' ? r : null
}

/** Turns whose inputs the replay had (not `insufficient`), in order. */
export function replayedTurns(replay: TaskReplay): ReplayedTurn[] {
  return replay.turns.filter((t) => t.fidelity !== 'insufficient')
}

/** The turn the replay ended on, or its last replayed turn. */
export function endTurn(replay: TaskReplay): number | null {
  const o = replay.outcome
  if (o.kind === 'replayed' || o.kind === 'recorded-boundary') return o.turn
  if (o.kind === 'undetermined') return o.afterTurn
  const last = replay.turns[replay.turns.length - 1]
  return last ? last.turn : null
}

/** The worst fidelity over the turns that decided the outcome. */
export function replayFidelity(replay: TaskReplay): 'exact' | 'approximate' | 'insufficient' {
  const turns = replay.turns
  if (turns.length === 0) return 'insufficient'
  if (turns.every((t) => t.fidelity === 'insufficient')) return 'insufficient'
  return turns.some((t) => t.fidelity !== 'exact') ? 'approximate' : 'exact'
}

/** A short phrase for a replay's fidelity: what was assumed, what was missing. */
export function fidelityNote(replay: TaskReplay): string | null {
  const f = replayFidelity(replay)
  if (f === 'exact') return null
  const assumptions = [...new Set(replay.turns.flatMap((t) => t.assumptions))]
  const missing = [...new Set([...replay.missingInputs, ...replay.turns.flatMap((t) => t.missingInputs)])]
  const first = assumptions[0] ?? (missing.length ? `missing ${missing[0]}` : null)
  if (!first) return f
  // whole: a renderer that has little room cuts it at a word (the text report, one --verbose away)
  return `${f}: ${first}${assumptions.length + missing.length > 1 ? ' (and more; see explain)' : ''}`
}
