import {adjustProfile, resolveProfile, type Profile, type ProfileDefinition} from '../logic/profiles.js'
import type {FlagId} from '../logic/changes.js'

/**
 * Which logic profiles a command replays, as the user asked (`--profile`, `--with`, `--without`,
 * `--profiles FILE`) or as a command chose them (the gate's baseline and candidate). Plain data: it
 * crosses to the gate's worker threads. The names were checked by the services layer before RUN
 * was read, so that a typo fails fast (exit 2).
 */
export type ProfileSelection =
  | {
      readonly kind: 'request'
      /** `--profile` names in order; empty: the defaults (the run's era, legacy, fixed). */
      readonly names: readonly string[]
      readonly with: readonly FlagId[]
      readonly without: readonly FlagId[]
      readonly user: readonly ProfileDefinition[]
    }
  | {readonly kind: 'profiles'; readonly profiles: readonly Profile[]; readonly user?: readonly ProfileDefinition[]}

export const DEFAULT_SELECTION: ProfileSelection = {kind: 'request', names: [], with: [], without: [], user: []}

/** The profiles a run is replayed under: the run's era profile first (when it has one), then the selection. */
export interface ProfilePlan {
  /** The era's profile, resolved (null: the records allow none, or the run is outside the modelled window). */
  readonly asRun: Profile | null
  /** Every profile to replay, in display order, each name once. */
  readonly profiles: readonly Profile[]
}

/**
 * The one place a profile list is built and de-duplicated. Without `--profile`: the era's profile,
 * `legacy` and `fixed`, and with `--with`/`--without` one more, the era's profile (or `legacy`)
 * adjusted, so that its effect shows beside the defaults. With `--profile`: exactly those, each
 * adjusted. The era's profile always leads, because the findings compare the replays with it.
 */
export function planProfiles(selection: ProfileSelection, eraProfile: string | null): ProfilePlan {
  const user = selection.user ?? []
  const resolve = (name: string): Profile | null => {
    const r = resolveProfile(name, user)
    return r.ok ? r.profile : null
  }
  const asRun = eraProfile === null ? null : resolve(eraProfile)
  let chosen: (Profile | null)[]
  if (selection.kind === 'profiles') chosen = [...selection.profiles]
  else {
    const adjust = (name: string): Profile | null => {
      const p = resolve(name)
      return p === null ? null : adjustProfile(p, selection.with, selection.without)
    }
    const adjusting = selection.with.length > 0 || selection.without.length > 0
    if (selection.names.length > 0) chosen = selection.names.map(adjust)
    else chosen = [resolve('legacy'), resolve('fixed'), ...(adjusting ? [adjust(eraProfile ?? 'legacy')] : [])]
  }
  return {asRun, profiles: uniqueProfiles([asRun, ...chosen])}
}

function uniqueProfiles(list: readonly (Profile | null)[]): Profile[] {
  const seen = new Set<string>()
  const out: Profile[] = []
  for (const p of list) {
    if (p === null || seen.has(p.name)) continue
    seen.add(p.name)
    out.push(p)
  }
  return out
}
