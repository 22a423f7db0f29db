/**
 * GuardKit's `TurnRecord` as the loop sees it (docs/guardkit-logic.md §8.1, §8.2): what `_execute_turn` returned.
 * The reports are GuardKit's own dicts (player_turn_N.json, coach_turn_N.json), unchanged.
 */
export type JsonObject = {readonly [key: string]: unknown}

/** `AgentInvocationResult` of the Player or the Coach. */
export interface AgentResult {
  readonly success: boolean
  readonly report: JsonObject | null
  readonly error: string | null
}

/** One turn's result: `decision` is `approve`, `feedback`, `error` (anything else is an invalid decision). */
export interface TurnOutcome {
  readonly decision: string
  readonly feedback: string | null
  readonly playerResult: AgentResult | null
  readonly coachResult: AgentResult | null
}

/** A turn outcome with its number, as kept in the loop's turn history. */
export interface NumberedTurn extends TurnOutcome {
  readonly turn: number
}

export function asObject(value: unknown): JsonObject | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : null
}

export function asArray(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : []
}

/** `d.get(key, default)`: the default only when the key is absent (a present `None` stays). */
export function dictGet(d: JsonObject, key: string, fallback: unknown): unknown {
  return Object.hasOwn(d, key) ? d[key] : fallback
}
