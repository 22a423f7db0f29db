import type {Evidence} from '../model/evidence.js'
import type {EraMarker, RunRecord} from '../model/run-record.js'
import {agreeingSubset} from './agreeing-subset.js'
import {deriveEra, type DerivedEra} from './era-markers.js'

/**
 * GuardKit from December 2025 to August 2026 as a timeline of eras, each marked by the record
 * formats it introduced (docs/era-markers.md "Timeline"). `placeRun` names the era a run's records
 * belong to, with the records that say so: the report's header states it once. Which logic is
 * replayed is inferEra's business (era.ts); this only names the GuardKit that wrote the run.
 */
export interface GuardKitEra {
  readonly id: 'feature-build' | 'checkpoints' | 'stall-detection' | 'local-models' | 'langgraph' | 'coach-evidence'
  /** When it starts and ends, in words (`December 2025`, `early February 2026`). */
  readonly start: string
  readonly end: string
  /** First and last day (ISO), `to` null for the newest. */
  readonly from: string
  readonly to: string | null
  /** What marks it, in a few words. */
  readonly name: string
}

export const ERAS: readonly GuardKitEra[] = [
  {id: 'feature-build', start: 'December 2025', end: 'January 2026', from: '2025-12-01', to: '2026-01-23', name: '/feature-build, the first AutoBuild'},
  {id: 'checkpoints', start: 'late January 2026', end: 'early February 2026', from: '2026-01-24', to: '2026-02-10', name: 'worktree checkpoints, no stall detector yet'},
  {id: 'stall-detection', start: 'February 2026', end: 'February 2026', from: '2026-02-11', to: '2026-02-28', name: 'the stall detector'},
  {id: 'local-models', start: 'March 2026', end: 'May 2026', from: '2026-03-01', to: '2026-06-02', name: 'timestamped progress, turn budgets, local model servers'},
  {id: 'langgraph', start: 'June 2026', end: 'June 2026', from: '2026-06-03', to: '2026-06-30', name: 'LangGraph harness'},
  {id: 'coach-evidence', start: 'July 2026', end: 'August 2026', from: '2026-07-01', to: null, name: 'Coach evidence bundles'},
]

const NEWEST = ERAS.length - 1
const index = (id: GuardKitEra['id']): number => ERAS.findIndex((e) => e.id === id)

/**
 * Which eras a marker allows: `[first, last]` indices into ERAS. Markers of the modelled commits
 * (era-markers.ts MARKER_BOUNDS `from`/`before`) are placed by their commit's date.
 */
const MARKER_ERAS: Readonly<Record<string, readonly [number, number]>> = {
  // the orchestrator's settings grew with each generation (src/ingest/log/build/era-markers.ts)
  'orchestrator-init-v1': [0, 0],
  'orchestrator-init-v2': [1, 1],
  'orchestrator-init-v3': [1, 1],
  'orchestrator-init-v4': [2, NEWEST],
  'progress-without-timestamps': [0, 2],
  'waves-without-task-timeout': [0, 1],
  'no-stall-detection': [0, 1],
  'approval-without-criteria': [0, 1],
  'pollution-window-2': [0, 1],
  'coach_turn.v1': [0, 2],
  'approval-without-criteria-with-stall-detection': [2, 2],
  'stall-error-v1': [2, 2],
  'stall-error-v2': [2, NEWEST],
  'stall-extended-threshold': [2, NEWEST],
  'partial-progress-stall': [2, NEWEST],
  'progress-timestamps': [3, NEWEST],
  'timeout-budget': [3, NEWEST],
  'player-invocation-stall': [3, NEWEST],
  'player_turn.v3': [3, NEWEST],
  'task_work_results.v3': [3, NEWEST],
  'turn_state_turn.v1': [3, NEWEST],
  'llm-coach': [4, NEWEST],
  'langgraph-harness': [4, NEWEST],
  'specialist-invocations': [3, NEWEST],
  'coach-verdict-emission': [4, NEWEST],
  'coach_turn.v3': [4, NEWEST],
  'coach_turn.v4': [4, NEWEST],
  'task_work_results.v4': [4, NEWEST],
  'turn_context.v2': [4, NEWEST],
  'checkpoints.v2': [4, NEWEST],
  'checkpoints.v3': [4, NEWEST],
  'specialist_results.v1': [4, NEWEST],
  'state_transitions.v1': [4, NEWEST],
  'phase_4_summary.v1': [4, NEWEST],
  'feature_yaml.v2': [4, NEWEST],
  'coach_evidence_turn.v1': [5, NEWEST],
}

/**
 * Markers of texts the modelled commits introduced: from the window on. (Texts they removed say
 * nothing here: later GuardKit changed many of them again.)
 */
const WINDOW_FROM = new Set(['tool-input-keys-log', 'promises-recovered-log', 'prior-turn-promises-log', 'hybrid-fallback', 'diagnostic-dump', 'synthetic-no-promises',
  'seam-test-recommendation', 'direct-synthetic-from-git', 'test-detection-cumulative-diff', 'independent-tests-via-sdk', 'independent-tests-via-subprocess',
  'test-failure-classified', 'test-failure-confidence', 'conditional-approval-check', 'conditional-approval-summary', 'tests-skipped-by-task-type',
  'unknown-criterion-status-warning', 'stall-sdk-hint', 'synthetic-report-detected', 'zero-test-search-text', 'results-promises-written-back',
  'coach-approved-without-tests-key', 'coach-skipped-by-task-type'])

function erasOf(id: string): readonly [number, number] | null {
  const known = MARKER_ERAS[id]
  if (known !== undefined) return known
  return WINDOW_FROM.has(id) ? [index('stall-detection'), NEWEST] : null
}

export interface EraPlacement {
  /** The era, or the eras the records leave open (oldest first). */
  readonly first: GuardKitEra
  readonly last: GuardKitEra
  /** `June 2026`, `December 2025 – early February 2026`. */
  readonly label: string
  /** `LangGraph harness`; eras left open are joined with "or". */
  readonly name: string
  /** The markers (and date) that place it, in words, each with an example place. */
  readonly basis: readonly string[]
  readonly evidence: readonly Evidence[]
  /** `high`: one era; `medium`: the records leave several open; `low`: markers disagree (some were set aside). */
  readonly confidence: 'high' | 'medium' | 'low'
}

interface Placed {
  readonly id: string
  readonly eras: readonly [number, number]
  readonly count: number
  readonly evidence: readonly Evidence[]
}

/** The run's era from its markers and its date, or null when the records hold neither. */
export function placeRun(run: RunRecord, derived: DerivedEra = deriveEra(run)): EraPlacement | null {
  const seen = new Map<string, EraMarker>()
  for (const m of [...run.eraMarkers, ...derived.markers]) if (!seen.has(m.id)) seen.set(m.id, m)
  const placed: Placed[] = []
  for (const m of seen.values()) {
    const eras = erasOf(m.id)
    if (eras !== null) placed.push({id: m.id, eras, count: m.count, evidence: m.evidence})
  }
  const date = derived.date
  const dateEra = date === null ? null : eraOfDate(date.date)
  const {kept, dropped} = agreeing(placed)
  let lo = Math.max(0, ...kept.map((p) => p.eras[0]))
  let hi = Math.min(NEWEST, ...kept.map((p) => p.eras[1]))
  // A run cannot use code newer than the day it ran; alone, a date is the best guess of its era.
  let dated = false
  if (dateEra !== null && dateEra >= lo && dateEra < hi) {
    hi = dateEra
    dated = true
  }
  if (dateEra !== null && !kept.some((p) => p.eras[0] > 0)) {
    lo = Math.min(Math.max(lo, dateEra), hi)
    dated = true
  }
  if (kept.length === 0 && !dated) return null
  const newest = kept.filter((p) => p.eras[0] === lo && lo > 0)
  const oldest = kept.filter((p) => p.eras[1] === hi && hi < NEWEST)
  const used = [...new Set([...newest, ...oldest, ...(newest.length + oldest.length === 0 ? kept : [])])]
  const basis = used.map((p) => `${p.id} (${p.count}×${place(p.evidence)})`)
  const evidence = used.flatMap((p) => p.evidence.slice(0, 1))
  if (dated && date !== null) {
    basis.push(`dated ${date.date}`)
    evidence.push(...date.evidence)
  }
  if (dropped.length > 0) basis.push(`set aside as contradicting the rest: ${dropped.map((p) => p.id).join(', ')}`)
  const first = ERAS[lo]!
  const last = ERAS[hi]!
  return {
    first,
    last,
    label: first.start === last.end ? first.start : `${first.start} – ${last.end}`,
    name: ERAS.slice(lo, hi + 1).map((e) => e.name).join(' or '),
    basis,
    evidence,
    confidence: dropped.length > 0 ? 'low' : lo === hi ? 'high' : 'medium',
  }
}

function eraOfDate(date: string): number {
  for (let i = NEWEST; i >= 0; i--) if (date >= ERAS[i]!.from) return i
  return 0
}

/** The markers that agree on a non-empty range of eras; the least attested go first. */
function agreeing(all: readonly Placed[]): {kept: Placed[]; dropped: Placed[]} {
  return agreeingSubset(all, (p) => p.eras[0], (p) => p.eras[1], 0, NEWEST)
}

function place(evidence: readonly Evidence[]): string {
  const e = evidence[0]
  if (e === undefined) return ''
  return ` e.g. ${e.file}${e.line !== undefined ? `:${e.line}` : e.pointer !== undefined ? `#${e.pointer}` : ''}`
}
