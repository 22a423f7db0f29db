import {FLAG_IDS} from '../../logic/changes.js'
import type {ProfileDefinition} from '../../logic/profiles.js'
import type {GateSubjectInfo} from '../../render/gate-report.js'
import {UsageError} from '../../shared/errors.js'
import {resolveProfileOrThrow} from '../user-profiles.js'
import type {SubjectSpec} from './gate-run.js'
import {neutralised} from '../../shared/neutralise.js'

/**
 * `--baseline`/`--candidate` → what to replay: `recorded` (what GuardKit did), `as-run` (each run's
 * inferred profile), or any profile name (legacy, fixed, pre-acr, as-run:<commit>, the user's).
 * An unknown name is a usage error before any run is read.
 */
export function resolveSubject(name: string, flag: string, user: readonly ProfileDefinition[]): {spec: SubjectSpec; info: GateSubjectInfo} {
  if (name === 'recorded') {
    return {spec: {kind: 'recorded'}, info: {name, kind: 'recorded', description: 'what GuardKit actually did, as the records show it', flags: null}}
  }
  if (name === 'as-run') {
    return {spec: {kind: 'as-run'}, info: {name, kind: 'as-run', description: "each run's own GuardKit version (the profile inferred for its era)", flags: null}}
  }
  let profile
  try {
    profile = resolveProfileOrThrow(name, user)
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(neutralised`${flag} ${error.message}`, 'Use recorded, as-run, legacy, fixed, pre-acr, as-run:<commit> or a profile from --profiles (`guardkit-replay profiles` lists them).')
    throw error
  }
  return {
    spec: {kind: 'profile', name: profile.name, description: profile.description, flags: profile.flags},
    info: {name: profile.name, kind: 'profile', description: profile.description, flags: FLAG_IDS.filter((id) => profile.flags[id])},
  }
}

/** `--shard i/n` (1-based): which slice of the sorted corpus this process gates. */
export function parseShard(text: string | undefined): {index: number; count: number} | null {
  if (text === undefined) return null
  const m = /^(\d+)\/(\d+)$/.exec(text.trim())
  const index = m ? Number(m[1]) : NaN
  const count = m ? Number(m[2]) : NaN
  if (!m || count < 1 || index < 1 || index > count) {
    throw new UsageError(neutralised`--shard ${text}: expected i/n with 1 ≤ i ≤ n, e.g. --shard 2/4.`, 'In a GitHub Actions matrix: --shard ${{ matrix.shard }}/${{ strategy.job-total }}.')
  }
  return {index, count}
}

/** Shard i of n takes every n-th run of the sorted corpus, starting at the i-th: the same split on every machine. */
export function shardOf<T>(sorted: readonly T[], shard: {index: number; count: number} | null): T[] {
  if (shard === null) return [...sorted]
  return sorted.filter((_, i) => i % shard.count === shard.index - 1)
}
