import {changeById, type FlagId} from '../../logic/changes.js'
import {COMMITS} from '../../logic/change-registry/commits.js'
import type {EraPlacement} from '../../replay/era-timeline.js'
import {flagsOfProfile} from '../recorded-stall.js'
import type {GuardkitChanges} from './catalogue/rule.js'

/**
 * Which logic changes the GuardKit that wrote a run had, for the catalogue's `guardkit` conditions
 * (docs/signals.md): inside the modelled window, the as-run profile's flags; outside it, the run's
 * place on the timeline (docs/era-markers.md) — an era that starts after the change landed has it, one
 * that ends before does not; otherwise the records cannot tell (null). The place may be given as a function,
 * asked for when a rule needs it.
 */
/**
 * What the conditions read of the run's place on the timeline: the first day of its earliest possible era and the
 * last day of its latest (null: still current). Only this, so that a streamed analysis that read it is checked
 * against the final place on these two days, not on marker counts that grow as the log is read.
 */
export interface EraSpan {
  readonly from: string
  readonly to: string | null
}

/** The span of a placement (null when the records place the run nowhere). */
export function spanOf(placement: EraPlacement | null): EraSpan | null {
  return placement === null ? null : {from: placement.first.from, to: placement.last.to}
}

export function guardkitChanges(asRun: string | null, placementOf: EraSpan | null | (() => EraSpan | null)): GuardkitChanges {
  const flags = asRun === null ? null : flagsOfProfile(asRun)
  return (flag: FlagId) => {
    if (flags !== null) return flags[flag]
    // read only here: a streamed analysis records whether it depended on the run's place (services/stream/context.ts)
    const placement = typeof placementOf === 'function' ? placementOf() : placementOf
    if (placement === null) return null
    const landed = COMMITS.find((c) => c.sha === changeById(flag).commit)?.date
    if (landed === undefined) return null
    if (placement.from > landed) return true
    if (placement.to !== null && placement.to < landed) return false
    return null
  }
}
