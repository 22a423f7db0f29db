import {COACH_CHANGES} from './change-registry/coach.js'
import {MODE_CHANGES} from './change-registry/mode.js'
import {ORCHESTRATOR_CHANGES} from './change-registry/orchestrator.js'
import {PIPELINE_CHANGES} from './change-registry/pipeline.js'
import {REQUIREMENTS_CHANGES} from './change-registry/requirements.js'
import type {LogicChange} from './change-registry/types.js'
import {commitIndex, COMMITS} from './change-registry/commits.js'

export type {LogicChange} from './change-registry/types.js'

/** Every legacy→fixed logic change, one flag each (docs/logic-changes.md has one entry per id). */
export const LOGIC_CHANGES = [
  ...REQUIREMENTS_CHANGES,
  ...PIPELINE_CHANGES,
  ...COACH_CHANGES,
  ...ORCHESTRATOR_CHANGES,
  ...MODE_CHANGES,
] as const satisfies readonly LogicChange[]

export type FlagId = (typeof LOGIC_CHANGES)[number]['id']

/** The flags a logic function reads: one boolean per logic change. */
export type LogicFlags = {readonly [K in FlagId]: boolean}

export const FLAG_IDS: readonly FlagId[] = LOGIC_CHANGES.map((c) => c.id)

export function isFlagId(id: string): id is FlagId {
  return (FLAG_IDS as readonly string[]).includes(id)
}

export function changeById(id: FlagId): LogicChange {
  return LOGIC_CHANGES.find((c) => c.id === id)!
}

/** Build a flag record from the set of flags that are on. */
export function flagsFrom(on: Iterable<FlagId>): LogicFlags {
  const set = new Set(on)
  return Object.fromEntries(FLAG_IDS.map((id) => [id, set.has(id)])) as LogicFlags
}

export function flagsOn(flags: LogicFlags): FlagId[] {
  return FLAG_IDS.filter((id) => flags[id])
}

/** Flags landed at or before `sha` (an as-run profile). */
export function flagsAtCommit(sha: string): FlagId[] {
  const at = commitIndex(sha)
  if (at < 0) return []
  return LOGIC_CHANGES.filter((c) => commitIndex(c.commit) <= at).map((c) => c.id)
}

export {COMMITS}
