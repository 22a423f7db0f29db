/**
 * Which artifact a file is, from its name alone. Apart from the eras and their zod schemas
 * (kinds.ts): discovery and the log-only path need names, and loading zod costs ~80 ms of start-up.
 */

/** The JSON files GuardKit writes into `.guardkit/autobuild/TASK-X/` (docs/record-formats.md §4.1). */
export type ArtifactKind =
  | 'player_turn'
  | 'coach_turn'
  | 'coach_feedback_for_turn'
  | 'coach_evidence_turn'
  | 'work_state_turn'
  | 'turn_state_turn'
  | 'task_work_results'
  | 'turn_context'
  | 'checkpoints'
  | 'specialist_results'
  | 'state_transitions'
  | 'phase_4_summary'
  | 'phase_4_checkpoint'

const PER_TURN = /^(player_turn|coach_turn|coach_feedback_for_turn|coach_evidence_turn|work_state_turn|turn_state_turn)_(\d+)\.json$/
const SINGLE: ReadonlySet<string> = new Set(['task_work_results', 'turn_context', 'checkpoints', 'specialist_results', 'state_transitions', 'phase_4_summary', 'phase_4_checkpoint'])

export type NamedArtifact = {readonly kind: ArtifactKind; readonly turn: number | null} | {readonly kind: null; readonly turn: null}

/** GuardKit numbers turns from 1; the report's turns are safe integers (docs/json-schema.md). */
export function isTurnNumber(n: unknown): n is number {
  return Number.isSafeInteger(n) && (n as number) >= 1
}

/** A per-turn file name whose number is no turn (`player_turn_0.json`, beyond 2^53): GuardKit never writes one. */
export function hasBadTurnNumber(name: string): boolean {
  const m = PER_TURN.exec(name)
  return m !== null && !isTurnNumber(Number(m[2]))
}

/** What a file in a task folder is, from its name alone; a per-turn name whose number is no turn is of no kind. */
export function classifyArtifactName(name: string): NamedArtifact {
  const m = PER_TURN.exec(name)
  if (m) return isTurnNumber(Number(m[2])) ? {kind: m[1] as ArtifactKind, turn: Number(m[2])} : {kind: null, turn: null}
  if (name.endsWith('.json') && SINGLE.has(name.slice(0, -5))) return {kind: name.slice(0, -5) as ArtifactKind, turn: null}
  return {kind: null, turn: null}
}
