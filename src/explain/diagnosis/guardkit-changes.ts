import {changeById, type FlagId} from '../../logic/changes.js'
import {COMMITS, commitIndex} from '../../logic/change-registry/commits.js'
import type {EraPlacement} from '../../replay/era-timeline.js'
import type {EraInference} from '../../replay/types.js'
import type {GuardkitChanges} from './catalogue/rule.js'

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

/**
 * Which logic changes the GuardKit that wrote a run had, for the catalogue's `guardkit` conditions
 * (docs/signals.md): inside the modelled window, the commit window the run's markers allow (docs/era-markers.md):
 * a window that starts at or after the change's commit has it, one that ends before it does not; outside it, the
 * run's place on the timeline, by day alike. Otherwise the records cannot tell (null). Not the as-run profile's
 * flags: that profile is the newest commit the window allows, so it has every change the window may hold. The place
 * may be given as a function, asked for when a rule needs it.
 */
export function guardkitChanges(window: CommitWindow | null, placementOf: EraSpan | null | (() => EraSpan | null)): GuardkitChanges {
  return (flag: FlagId) => {
    const at = commitIndex(changeById(flag).commit)
    if (window !== null && at >= 0) {
      // no lower bound: the window starts at the modelled window's first commit
      if ((window.from === null ? 0 : commitIndex(window.from)) >= at) return true
      return commitIndex(window.to) < at ? false : null
    }
    // read only here: a streamed analysis records whether it depended on the run's place (services/stream/context.ts)
    const placement = typeof placementOf === 'function' ? placementOf() : placementOf
    if (placement === null) return null
    const landed = COMMITS[at]?.date
    if (landed === undefined) return null
    if (placement.from > landed) return true
    if (placement.to !== null && placement.to < landed) return false
    return null
  }
}

/** The commits a run inside the modelled window may have been written by (EraInference.window, with its newest). */
export interface CommitWindow {
  readonly from: string | null
  readonly to: string
}

/** What a finding family reads of the run's GuardKit: the analysis' answer, else the era's commit window alone. */
export function guardkitOf(input: {readonly guardkit?: GuardkitChanges; readonly era: EraInference}): GuardkitChanges {
  return input.guardkit ?? guardkitChanges(commitWindowOf(input.era), null)
}

/** The commit window of a run's era, when it is inside the modelled window and its markers bound it. */
export function commitWindowOf(era: Pick<EraInference, 'modelled' | 'profile' | 'window'>): CommitWindow | null {
  return era.modelled && era.profile !== null && era.window.to !== null ? {from: era.window.from, to: era.window.to} : null
}
