import type {Evidence} from '../model/evidence.js'
import type {EraPlacement} from '../replay/era-timeline.js'
import type {EraInference} from '../replay/types.js'

/**
 * The run's era said once, for the head of every report (docs/era-markers.md): which GuardKit
 * wrote it (the timeline) and whether the February 2026 logic is replayed (the modelled window).
 * A run outside the window is not replayed at all: this one statement says so, instead of a
 * "not modelled" line per task and profile.
 */
export interface RunEra {
  /** `June 2026`, `December 2025 – January 2026`; null when the records place the run nowhere. */
  readonly label: string | null
  /** `LangGraph harness`. */
  readonly name: string | null
  /** ISO days the era spans (the first era's start, the last era's end; null: open). */
  readonly from: string | null
  readonly to: string | null
  /** The February 2026 logic is replayed (the run is inside the modelled window). */
  readonly replayed: boolean
  /** The one line: `GuardKit of June 2026 (LangGraph harness): the February 2026 logic is not replayed; the diagnosis reads the records`. */
  readonly statement: string
  /** The records that place the run, in words. */
  readonly basis: readonly string[]
  readonly confidence: 'high' | 'medium' | 'low' | null
  readonly evidence: readonly Evidence[]
}

export function describeRunEra(era: EraInference, placement: EraPlacement | null): RunEra {
  const of = placement === null ? null : `GuardKit of ${placement.label} (${placement.name})`
  const statement = !era.modelled
    ? `${of ?? 'GuardKit outside the modelled window'}: the February 2026 logic is not replayed; the diagnosis reads the records`
    : era.profile !== null
      ? `${of ?? 'GuardKit of February 2026'}: the modelled logic, replayed as it ran under ${era.profile}`
      : `${of ?? 'GuardKit era not placed by the records'}: no marker places it inside the modelled window; replayed under the chosen profiles`
  return {
    label: placement?.label ?? null,
    name: placement?.name ?? null,
    from: placement?.first.from ?? null,
    to: placement?.last.to ?? null,
    replayed: era.modelled,
    statement,
    basis: placement?.basis ?? [],
    confidence: placement?.confidence ?? null,
    evidence: placement?.evidence ?? [],
  }
}
