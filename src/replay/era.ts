import {COMMITS, commitIndex, FIXED_COMMIT, LEGACY_COMMIT, PRE_ACR_COMMIT} from '../logic/change-registry/commits.js'
import type {Evidence} from '../model/evidence.js'
import type {EraMarker, RunRecord} from '../model/run-record.js'
import {agreeingSubset} from './agreeing-subset.js'
import {deriveEra, type DerivedEra, MARKER_BOUNDS, type MarkerBound} from './era-markers.js'
import type {EraInference} from './types.js'

/** One marker seen in the run with the commit window it allows (indices into COMMITS). */
interface Constraint {
  readonly id: string
  readonly bound: MarkerBound
  readonly low: number
  readonly high: number
  readonly count: number
  readonly evidence: readonly Evidence[]
}

/**
 * Which GuardKit version wrote the run, from documented markers: log texts that
 * changed between commits, artifact shapes, outcome vocabulary and the run's date. Each marker
 * bounds the commit window (docs/era-markers.md); the inferred profile is the newest commit the
 * markers allow. A marker that only exists before or after the modelled window (pre-acr 28534d78
 * … fixed 5c1aea32) makes the run not modelled.
 */
export function inferEra(run: RunRecord, derived: DerivedEra = deriveEra(run)): EraInference {
  const markers = [...run.eraMarkers, ...derived.markers]
  const known = markers.filter((m) => MARKER_BOUNDS[m.id] !== undefined)
  const outside = known.filter((m) => MARKER_BOUNDS[m.id]!.outside)
  if (outside.length > 0) return notModelled(outside)
  const constraints = known.map(toConstraint)
  if (constraints.length === 0) {
    const date = derived.date
    return {
      profile: null,
      window: {from: null, to: null},
      reason: `no documented version marker in the records${date ? ` (dated ${date.date})` : ''}; replayed under the requested profiles only`,
      confidence: 'low',
      evidence: date ? [...date.evidence] : [],
      modelled: true,
    }
  }
  const {kept, dropped} = consistentSubset(constraints)
  const low = Math.max(0, ...kept.map((c) => c.low))
  const high = Math.min(COMMITS.length - 1, ...kept.map((c) => c.high))
  const date = derived.date
  // A run cannot have used a commit made after it ran.
  const byDate = date ? COMMITS.reduce((last, c, i) => (c.date <= date.date ? i : last), -1) : COMMITS.length - 1
  const newest = byDate >= low ? Math.min(high, byDate) : high
  const sha = COMMITS[newest]!.sha
  const bounded = {lower: kept.some((c) => c.bound.from !== undefined), upper: kept.some((c) => c.bound.before !== undefined) || (date !== null && byDate < high)}
  const confidence: EraInference['confidence'] = dropped.length > 0 ? 'low' : bounded.lower && bounded.upper ? 'high' : 'medium'
  const window = {from: bounded.lower ? COMMITS[low]!.sha : null, to: COMMITS[newest]!.sha}
  const evidence = kept.flatMap((c) => c.evidence.slice(0, 2))
  if (date && byDate < high) evidence.push(...date.evidence)
  return {
    profile: profileName(sha),
    window,
    reason: describe(window, kept, dropped, date && byDate < high ? date.date : null, bounded.upper),
    confidence,
    evidence,
    modelled: true,
    ...(bounded.upper ? {} : {openAbove: true}),
  }
}

function toConstraint(m: EraMarker): Constraint {
  const bound = MARKER_BOUNDS[m.id]!
  const low = bound.from ? Math.max(0, commitIndex(bound.from)) : 0
  const high = bound.before ? commitIndex(bound.before) - 1 : COMMITS.length - 1
  return {id: m.id, bound, low, high, count: m.count, evidence: m.evidence}
}

/** Drop the least-attested markers until the rest agree on a non-empty window (conflicts are reported). */
function consistentSubset(all: readonly Constraint[]): {kept: Constraint[]; dropped: Constraint[]} {
  return agreeingSubset(all, (c) => c.low, (c) => c.high, -Infinity, Infinity)
}

/** `pre-acr`, `legacy` and `fixed` are the names of their pins; other commits are `as-run:<sha>`. */
export function profileName(sha: string): string {
  if (sha === PRE_ACR_COMMIT) return 'pre-acr'
  if (sha === LEGACY_COMMIT) return 'legacy'
  if (sha === FIXED_COMMIT) return 'fixed'
  return `as-run:${sha}`
}

/**
 * `boundedAbove`: a marker or the run's date bounds the window from above. Without one, the window's newest commit is
 * only the newest the model holds (the fixed pin): the run may be that commit or any later one, and the text says so.
 */
function describe(window: {from: string | null; to: string | null}, kept: readonly Constraint[], dropped: readonly Constraint[], date: string | null, boundedAbove: boolean): string {
  const span = window.from === null ? `at or before ${window.to}` : window.from === window.to ? `at ${window.to}` : `between ${window.from} and ${window.to}`
  const parts = kept.map((c) => `${c.id} (${c.bound.from ? `from ${c.bound.from}` : `before ${c.bound.before}`}, ${c.count}×${firstPlace(c.evidence)})`)
  if (date) parts.push(`run dated ${date}`)
  const conflict = dropped.length > 0 ? `; conflicting markers set aside: ${dropped.map((c) => c.id).join(', ')}` : ''
  if (!boundedAbove && window.from !== null) {
    return `GuardKit from ${window.from} on: ${window.to} is the newest commit modelled, and no record bounds the run from above (it may be a later GuardKit): ${parts.join('; ')}${conflict}`
  }
  return `GuardKit ${span}, the newest commit the markers allow: ${parts.join('; ')}${conflict}`
}

function notModelled(outside: readonly EraMarker[]): EraInference {
  const newer = outside.filter((m) => MARKER_BOUNDS[m.id]!.outside === 'newer')
  const older = outside.filter((m) => MARKER_BOUNDS[m.id]!.outside === 'older')
  const side = newer.length >= older.length ? 'newer' : 'older'
  const used = side === 'newer' ? newer : older
  const list = used.map((m) => `${m.id} (${MARKER_BOUNDS[m.id]!.what}; ${m.count}×${firstPlace(m.evidence)})`).join('; ')
  const reason = side === 'newer'
    ? `the run is newer than the modelled window (${PRE_ACR_COMMIT}…${FIXED_COMMIT}, 2026-02-15…02-25): ${list}. Replay is not modelled for it; its recorded facts are reported as they are.`
    : `the run is older than the modelled window (${PRE_ACR_COMMIT}…${FIXED_COMMIT}): ${list}. Replay is not modelled for it; its recorded facts are reported as they are.`
  const conflicting = side === 'newer' ? older : newer
  return {
    profile: null,
    window: side === 'newer' ? {from: FIXED_COMMIT, to: null} : {from: null, to: PRE_ACR_COMMIT},
    reason: conflicting.length > 0 ? `${reason} (also seen: ${conflicting.map((m) => m.id).join(', ')})` : reason,
    confidence: used.length >= 2 || used.some((m) => m.count >= 3) ? 'high' : 'medium',
    evidence: used.flatMap((m) => m.evidence.slice(0, 2)),
    modelled: false,
  }
}

function firstPlace(evidence: readonly Evidence[]): string {
  const e = evidence[0]
  if (!e) return ''
  return ` e.g. ${e.file}${e.line !== undefined ? `:${e.line}` : e.pointer !== undefined ? `#${e.pointer}` : ''}`
}
