import type {Evidence} from '../../../model/evidence.js'
import type {EraMarker} from '../../../model/run-record.js'
import type {LogEvent} from '../events.js'

/**
 * Documented version markers (docs/guardkit-logic.md §1 difference table, docs/record-formats.md §6): wordings and records that
 * only some GuardKit commits print. Analyze infers the run's era from them; docs/findings.md lists
 * the ids.
 */
/** Most events mark nothing: one shared empty list rather than a new one per event. */
const NONE: readonly string[] = []

export function markersOf(e: LogEvent): readonly string[] {
  switch (e.kind) {
    case 'ab-stall-error':
      return [e.wording] // D30
    case 'ab-stall-warning':
      return e.extended ? ['stall-extended-threshold'] : NONE // D28
    case 'ab-partial-stall':
      return ['partial-progress-stall'] // D28
    case 'ai-tool-keys':
      return ['tool-input-keys-log'] // D2
    case 'ai-recovered':
      return e.what === 'completion_promises' ? ['promises-recovered-log'] : NONE // D9
    case 'ai-player-report':
      return e.how === 'synthetic' ? ['direct-synthetic-from-git'] : NONE // docs/record-formats.md §6.5
    case 'cv-tests-skipped':
      return e.reason.startsWith('tests not required for') ? ['tests-skipped-by-task-type'] : e.reason === 'tests_required=False' ? ['tests-skipped-required-flag'] : NONE // D18
    case 'cv-test-run':
      return e.via === 'sdk' ? ['independent-tests-via-sdk'] : e.via === 'subprocess' ? ['independent-tests-via-subprocess'] : ['independent-tests-shell'] // D19
    case 'cv-test-class':
      return e.classification === 'unclassified' ? NONE : ['test-failure-classified'] // D23
    case 'cv-dump-header':
      return ['diagnostic-dump'] // docs/guardkit-logic.md §7.2 (pre-acr prints none)
    case 'ab-use-coach':
      return e.coach === 'llm' ? ['llm-coach'] : NONE
    case 'ab-init':
      return orchestratorGeneration(e.params)
    case 'waves-start':
      return e.taskTimeout === null ? ['waves-without-task-timeout'] : NONE // docs/record-formats.md §5.4 fo_phase2: `(task_timeout=…)` from February
    case 'ab-verdict-failed':
      return ['coach-verdict-emission'] // the LLM Coach's verdict file (June 2026)
    case 'ai-error':
      return e.text.includes('LangGraphHarness') ? ['langgraph-harness'] : NONE
    case 'ab-orchestration-failed':
      return /is not a valid CriterionStatus/.test(e.message) ? ['criterion-status-crash'] : NONE // D31
    case 'ab-invocation-stall':
      return e.fatal ? ['player-invocation-stall'] : NONE
    case 'ab-timeout-budget':
      return ['timeout-budget']
    case 'c-status-box':
      return e.lines.some((l) => l.includes('Stall caused by SDK API errors')) ? ['stall-sdk-hint'] // D32
        : e.lines.some((l) => l.includes('APPROVED (infra-dependent')) ? ['conditional-approval-summary'] : NONE // D33
    case 'note':
      return NOTE_MARKERS[e.name] ?? NONE
    default:
      return NONE
  }
}

/**
 * `AutoBuildOrchestrator initialized: …` lists the orchestrator's settings, and each generation of
 * GuardKit added some: checkpoints and perspective resets (late January 2026), the knowledge-graph
 * context (early February), the context loader and its factory (the modelled window on).
 */
function orchestratorGeneration(params: Readonly<Record<string, string>>): readonly string[] {
  if (params.repo === undefined || params.max_turns === undefined) return NONE
  if (params.enable_checkpoints === undefined) return ['orchestrator-init-v1']
  if (params.enable_context === undefined) return ['orchestrator-init-v2']
  if (params.context_loader === undefined) return ['orchestrator-init-v3']
  return ['orchestrator-init-v4']
}

/**
 * Progress lines carry a timestamp from March 2026 (docs/record-formats.md §5.4 pr_ts_prefix). Which
 * kind a run prints is tallied once per attempt and kind (the builder asks), not on every line.
 */
export function progressMarker(stamped: boolean): string {
  return stamped ? 'progress-timestamps' : 'progress-without-timestamps'
}

const NOTE_MARKERS: Readonly<Record<string, readonly string[]>> = {
  'synthetic-detected': ['synthetic-report-detected'],
  'synthetic-no-promises': ['synthetic-no-promises'],
  'hybrid-fallback': ['hybrid-fallback'], // D24
  'cumulative-diff': ['test-detection-cumulative-diff'], // D21
  'conditional-approval': ['conditional-approval-check'], // D23
  'seam-recommendation': ['seam-test-recommendation'], // D34
  'unknown-criterion-status': ['unknown-criterion-status-warning'], // D31 fixed
  'prior-turn-promises': ['prior-turn-promises-log'], // docs/guardkit-logic.md §7.3, S004 Fix 1
  harness: ['langgraph-harness'], // guardkitfactory.harness.langgraph_harness (June 2026)
  specialist: ['specialist-invocations'], // guardkit.orchestrator.specialist_invocations (June 2026)
}

// a Set: most note names are not in NOTE_MARKERS, and a missed property lookup walks the prototype chain
const MARKER_NOTES = new Set(Object.keys(NOTE_MARKERS))

export function isMarkerNote(name: string): boolean {
  return MARKER_NOTES.has(name)
}

const MAX_MARKER_EVIDENCE = 5

export interface MarkerTally {
  add(id: string, evidence: Evidence): void
  list(): EraMarker[]
}

export function createMarkerTally(): MarkerTally {
  const byId = new Map<string, {count: number; evidence: Evidence[]}>()
  return {
    add(id, evidence) {
      let m = byId.get(id)
      if (m === undefined) byId.set(id, (m = {count: 0, evidence: []}))
      m.count++
      if (m.evidence.length < MAX_MARKER_EVIDENCE) m.evidence.push(evidence)
    },
    list() {
      return [...byId.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([id, m]) => ({id, count: m.count, evidence: [...m.evidence]}))
    },
  }
}
