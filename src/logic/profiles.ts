import {COMMITS, FIXED_COMMIT, LEGACY_COMMIT, PRE_ACR_COMMIT} from './change-registry/commits.js'
import {FLAG_IDS, flagsAtCommit, flagsFrom, isFlagId, type FlagId, type LogicFlags} from './changes.js'
import {didYouMean} from '../shared/suggest.js'

/**
 * A logic profile: a named set of logic-change flags. `legacy` = the logic at f86b1bf9 (only the
 * ACR changes already landed), `fixed` = all, `pre-acr` = none, `as-run:<commit>` = the flags
 * landed at or before that commit (docs/guardkit-logic.md §0.3).
 */
export interface Profile {
  readonly name: string
  readonly description: string
  readonly flags: LogicFlags
}

/** A user-defined profile (from `--profiles FILE`), before resolution. */
export interface ProfileDefinition {
  readonly name: string
  readonly description?: string
  /** A profile name to start from (default: none). */
  readonly base?: string
  readonly with?: readonly string[]
  readonly without?: readonly string[]
}

export type ProfileResult = {ok: true; profile: Profile} | {ok: false; message: string}

export const BUILTIN_PROFILE_NAMES = ['legacy', 'fixed', 'pre-acr'] as const

/**
 * A built-in profile by name. Built once per name: the findings ask for `legacy`, `fixed` and the era's
 * profile many times per task, and building a flag record walks the whole registry.
 */
export function builtinProfile(name: string): Profile | null {
  let hit = BUILT.get(name)
  if (hit === undefined) BUILT.set(name, (hit = buildProfile(name)))
  return hit
}

const BUILT = new Map<string, Profile | null>()

function buildProfile(name: string): Profile | null {
  switch (name) {
    case 'legacy':
      return frozen({name, description: `GuardKit at ${LEGACY_COMMIT}, before the seed fixes`, flags: flagsFrom(flagsAtCommit(LEGACY_COMMIT))})
    case 'fixed':
      return frozen({name, description: `GuardKit at ${FIXED_COMMIT}, every seed fix landed`, flags: flagsFrom(FLAG_IDS)})
    case 'pre-acr':
      return frozen({name, description: `GuardKit at ${PRE_ACR_COMMIT}, before TASK-ACR (seed 003)`, flags: flagsFrom([])})
  }
  const m = /^as-run:([0-9a-f]{6,40})$/.exec(name)
  if (m) {
    const sha = m[1]!
    const commit = COMMITS.find((c) => c.sha.startsWith(sha) || sha.startsWith(c.sha))
    if (!commit) return null
    return frozen({name: `as-run:${commit.sha}`, description: `GuardKit as it ran at ${commit.sha} (${commit.date}): ${commit.note}`, flags: flagsFrom(flagsAtCommit(commit.sha))})
  }
  return null
}

/** Shared between callers, so nobody may change it. */
function frozen(p: Profile): Profile {
  Object.freeze(p.flags)
  return Object.freeze(p)
}

export function asRunProfileNames(): string[] {
  return COMMITS.map((c) => `as-run:${c.sha}`)
}

/** Resolve a profile name against the built-ins and the user's own definitions. */
export function resolveProfile(name: string, user: readonly ProfileDefinition[] = [], seen: readonly string[] = []): ProfileResult {
  const own = user.find((p) => p.name === name)
  if (!own) {
    const builtin = builtinProfile(name)
    if (builtin) return {ok: true, profile: builtin}
    const near = didYouMean(name, [...BUILTIN_PROFILE_NAMES, ...asRunProfileNames(), ...user.map((p) => p.name)])
    return {ok: false, message: `unknown profile "${name}".${near} Use legacy, fixed, pre-acr, as-run:<commit> (see \`guardkit-replay profiles\`) or a profile from --profiles`}
  }
  if (seen.includes(name)) return {ok: false, message: `profile "${name}" is defined in terms of itself (${[...seen, name].join(' → ')})`}
  let on = new Set<FlagId>()
  if (own.base) {
    const base = resolveProfile(own.base, user, [...seen, name])
    if (!base.ok) return base
    on = new Set(FLAG_IDS.filter((id) => base.profile.flags[id]))
  }
  for (const id of own.with ?? []) {
    if (!isFlagId(id)) return {ok: false, message: `profile "${name}": unknown flag "${id}" in with.${didYouMean(id, FLAG_IDS)}`}
    on.add(id)
  }
  for (const id of own.without ?? []) {
    if (!isFlagId(id)) return {ok: false, message: `profile "${name}": unknown flag "${id}" in without.${didYouMean(id, FLAG_IDS)}`}
    on.delete(id)
  }
  return {ok: true, profile: {name, description: own.description ?? `user profile${own.base ? ` based on ${own.base}` : ''}`, flags: flagsFrom(on)}}
}

/** A profile adjusted by --with/--without, named so that the change shows. */
export function adjustProfile(base: Profile, withFlags: readonly FlagId[], withoutFlags: readonly FlagId[]): Profile {
  if (withFlags.length === 0 && withoutFlags.length === 0) return base
  const on = new Set(FLAG_IDS.filter((id) => base.flags[id]))
  for (const id of withFlags) on.add(id)
  for (const id of withoutFlags) on.delete(id)
  const suffix = [...withFlags.map((f) => `+${f}`), ...withoutFlags.map((f) => `-${f}`)].join('')
  return {name: `${base.name}${suffix}`, description: `${base.description}, adjusted`, flags: flagsFrom(on)}
}
