import type {Evidence} from '../model/evidence.js'
import type {EraMarker, RunRecord, TaskRun, TurnRecord} from '../model/run-record.js'
import {asArray, asObject} from '../logic/orchestrator/index.js'

/**
 * What one documented marker says about the GuardKit commit that wrote a run (docs/era-markers.md has
 * one entry per id with its commit bound and source). `from`: the marker needs this commit or a later
 * one; `before`: it needs an earlier one; `outside`: the marker only exists outside the modelled window.
 */
export interface MarkerBound {
  readonly from?: string
  readonly before?: string
  readonly outside?: 'older' | 'newer'
  readonly what: string
}

/** Markers recorded by ingest (src/ingest/log/build/era-markers.ts, artifact schema eras) and derived here. */
export const MARKER_BOUNDS: Readonly<Record<string, MarkerBound>> = {
  // Log texts (docs/guardkit-logic.md §1 rows, docs/record-formats.md §5).
  'stall-error-v1': {before: '723e5f4e', what: 'stall ERROR "identical feedback for 3 consecutive turns with 0% criteria progress" (D30 legacy wording)'},
  'stall-error-v2': {from: '723e5f4e', what: 'stall ERROR "identical feedback with no criteria progress (N criteria passing)" (D30)'},
  'stall-extended-threshold': {from: '723e5f4e', what: 'stall WARNING "(extended threshold for partial progress)" (D28)'},
  'partial-progress-stall': {from: '723e5f4e', what: '"Partial progress stall warning" (D28)'},
  'tool-input-keys-log': {from: '723e5f4e', what: '"ToolUseBlock Write input keys" INFO (D2)'},
  'promises-recovered-log': {from: '723e5f4e', what: '"Recovered N completion_promises from agent-written player report" (D9)'},
  'prior-turn-promises-log': {from: 'edb5fd18', what: '"No completion_promises in current turn — recovered from player_turn_N.json" (docs/guardkit-logic.md §7.3, S004 Fix 1)'},
  'hybrid-fallback': {from: '723e5f4e', what: 'hybrid text fallback INFO (D24)'},
  'diagnostic-dump': {from: '98ee6962', what: '"Criteria verification 0/N - diagnostic dump" (docs/guardkit-logic.md §7.2; pre-ACR prints none)'},
  'synthetic-no-promises': {from: '98ee6962', what: '"Synthetic report has no completion_promises" (docs/guardkit-logic.md §7.1, ACR)'},
  'seam-test-recommendation': {from: 'de1ce9b8', what: 'seam-test recommendation soft gate (D34)'},
  'direct-synthetic-from-git': {from: 'c4d01fcf', what: '"SDK did not write player_turn_N.json … creating synthetic report from git detection" (D13)'},
  'test-detection-cumulative-diff': {from: '351c53fa', what: '"Found test files via cumulative diff" (D21)'},
  'independent-tests-shell': {before: '5c2b5d82', what: '"Running independent tests: CMD" without SDK/subprocess (D19 legacy)'},
  'independent-tests-via-sdk': {from: '5c2b5d82', what: '"Running independent tests via SDK (environment parity)" (D19)'},
  'independent-tests-via-subprocess': {from: '5c2b5d82', what: '"Running independent tests via subprocess" (D19)'},
  'test-failure-classified': {from: '5c2b5d82', what: '"Independent test verification failed … (classification=…)" (D23)'},
  'test-failure-confidence': {from: 'ca7c161a', what: 'failure classification with a confidence tier (D23, ca7c161a)'},
  'conditional-approval-check': {from: 'ca7c161a', what: '"conditional_approval check:" (D23)'},
  'conditional-approval-summary': {from: 'ca7c161a', what: '"APPROVED (infra-dependent …)" summary (D33)'},
  'tests-skipped-required-flag': {before: 'b72e08bf', what: '"Independent test verification skipped … (tests_required=False)" (D18 legacy)'},
  'tests-skipped-by-task-type': {from: 'b72e08bf', what: '"… skipped (tests not required for T tasks)" (D18)'},
  'criterion-status-crash': {before: 'c3feae49', what: '"\'partial\' is not a valid CriterionStatus" crash (D31)'},
  'unknown-criterion-status-warning': {from: 'c3feae49', what: '"Unknown CriterionStatus value" WARNING (D31)'},
  'stall-sdk-hint': {from: 'c3feae49', what: '"Stall caused by SDK API errors" hint (D32)'},
  'synthetic-report-detected': {from: '5c1aea32', what: '"Synthetic report detected" for a direct-mode report (docs/record-formats.md §6.5: from 2026-02-25, DMCP-003)'},
  // its log record first in a run of 2026-06-03; the coach_turn_N.json it writes (v4) only from 2026-06-09 (docs/record-formats.md §4.2)
  'llm-coach': {outside: 'newer', what: 'the LLM Coach (`Using LLM Coach (primary)`, logged from 2026-06-03; its coach_turn_N.json v4 from 2026-06-09)'},
  'timeout-budget': {outside: 'newer', what: '"Timeout budget exhausted" / timeout_budget_exhausted outcome (docs/record-formats.md §5.6)'},
  'player-invocation-stall': {outside: 'newer', what: 'player_invocation_stall outcome (docs/record-formats.md §5.6)'},
  'progress-timestamps': {outside: 'newer', what: 'progress lines stamped [ISO-8601 Z] (from 2026-03-01)'},
  'langgraph-harness': {outside: 'newer', what: 'the LangGraph harness (guardkitfactory.harness, LangGraphHarness errors; June 2026)'},
  'specialist-invocations': {outside: 'newer', what: 'run_specialist(…) specialist invocations (June 2026)'},
  'coach-verdict-emission': {outside: 'newer', what: '"Coach verdict-emission failed" of the LLM Coach (June 2026)'},
  'orchestrator-init-v1': {outside: 'older', what: 'AutoBuildOrchestrator settings without checkpoints (December 2025 – January 2026)'},
  'orchestrator-init-v2': {outside: 'older', what: 'AutoBuildOrchestrator settings with checkpoints but no knowledge-graph context (late January 2026)'},
  'orchestrator-init-v3': {outside: 'older', what: 'AutoBuildOrchestrator settings with context but no context loader (early February 2026)'},
  'waves-without-task-timeout': {outside: 'older', what: '"Phase 2 (Waves): Executing N waves" without the per-task timeout (before 2026-02-14)'},
  // Artifact schema eras (docs/ingest.md, docs/record-formats.md §4.2).
  'coach_turn.v1': {outside: 'older', what: 'coach_turn_N.json without criteria_verification (January 2026; every modelled Coach writes the key)'},
  'coach_turn.v3': {outside: 'newer', what: 'coach_turn_N.json synthetic-feedback keys (2026-06-08)'},
  'coach_turn.v4': {outside: 'newer', what: 'coach_turn_N.json of the LLM Coach (2026-06-09)'},
  'player_turn.v3': {outside: 'newer', what: 'player_turn_N.json sdk_turns_used/files_authored (2026-03-01)'},
  'task_work_results.v3': {outside: 'newer', what: 'task_work_results.json agent_invocations (2026-04-24)'},
  'task_work_results.v4': {outside: 'newer', what: 'task_work_results.json files_authored/plan_audit/task_type (2026-06-08)'},
  'turn_context.v2': {outside: 'newer', what: 'turn_context.json promise_schema_reminder (2026-06-08)'},
  'checkpoints.v2': {outside: 'newer', what: 'checkpoints.json from_prior_run (2026-06-08)'},
  'checkpoints.v3': {outside: 'newer', what: 'checkpoints.json evidence_commits (2026-06-13)'},
  'turn_state_turn.v1': {outside: 'newer', what: 'turn_state_turn_N.json (2026-04-11)'},
  'specialist_results.v1': {outside: 'newer', what: 'specialist_results.json (2026-06-08)'},
  'state_transitions.v1': {outside: 'newer', what: 'state_transitions.json (2026-06-08)'},
  'phase_4_summary.v1': {outside: 'newer', what: 'phase_4_summary.json (2026-06-09)'},
  'coach_evidence_turn.v1': {outside: 'newer', what: 'coach_evidence_turn_N.json (2026-07-04)'},
  'feature_yaml.v2': {outside: 'newer', what: 'feature YAML smoke_gates/bootstrap_extras (June 2026)'},
  // Derived from the records by this module.
  'zero-of-n-without-dump': {before: '98ee6962', what: 'criteria rejected 0/N with no diagnostic dump (pre-ACR, docs/guardkit-logic.md §7.2)'},
  'no-stall-detection': {outside: 'older', what: 'three or more identical complete feedbacks with equal counts and no stall (before stall detection, first logged 2026-02-11)'},
  'prior-turn-promises-not-recovered': {before: 'edb5fd18', what: 'text matching on a later turn although an earlier player report had completion_promises (no AE7E recovery, D26)'},
  'direct-synthetic-unflagged': {before: '71a5fb57', what: 'direct-mode synthetic report matched by text with _synthetic: False (seed 001 as-run)'},
  'zero-test-legacy-text': {before: '351c53fa', what: 'zero-test anomaly "No task-specific tests created and …" (D35 legacy)'},
  'zero-test-search-text': {from: '351c53fa', what: 'zero-test anomaly "No task-specific tests found. Coach searched:" (D35)'},
  'results-promises-written-back': {from: '723e5f4e', what: 'task-work task_work_results.json carrying completion_promises (written back, D11)'},
  'coach-approved-without-tests-key': {from: 'ca7c161a', what: 'coach_turn_N.json approved_without_independent_tests key (D23, D33)'},
  'coach-skipped-required-flag': {before: 'b72e08bf', what: 'coach_turn_N.json "skipped (tests_required=False)" summary (D18 legacy)'},
  'coach-skipped-by-task-type': {from: 'b72e08bf', what: 'coach_turn_N.json "skipped (tests not required for T tasks)" summary (D18)'},
  'pollution-window-2': {outside: 'older', what: '"Context pollution detected: 2 consecutive test failures" without a rollback or stop (every modelled version uses 3, docs/guardkit-logic.md §8.1)'},
  'approval-without-criteria': {outside: 'older', what: 'an approval with every criterion pending: the Coach verified none (January 2026, docs/record-formats.md §6.3; every modelled Coach verifies criteria before approving)'},
  'approval-without-criteria-with-stall-detection': {before: '98ee6962', what: 'an approval with every criterion pending, in a run that has stall detection: pre-ACR code, the oldest modelled profile'},
  'run-date-before-window': {outside: 'older', what: 'the run is dated before 2026-02-11, when stall detection first appears'},
}

/**
 * Before this date no modelled logic ran (docs/record-formats.md §6.6: the first stall record is 2026-02-11). A
 * date after the window proves nothing (old code can run late); it only bounds the commit (era.ts).
 */
const WINDOW_START_DATE = '2026-02-11'
const STALL_DETECTION = ['stall-error-v1', 'stall-error-v2', 'stall-extended-threshold', 'partial-progress-stall']

/** A run's date, from timestamps in its records (checkpoints, results, progress lines). */
export interface RunDate {
  readonly date: string
  readonly evidence: readonly Evidence[]
}

/** Markers this module derives from the record (beyond those ingest tallied). */
export function deriveMarkers(run: RunRecord): readonly EraMarker[] {
  return deriveEra(run).markers
}

/** What the era inference reads off the task runs: the derived markers and the run's date. */
export interface DerivedEra {
  readonly markers: readonly EraMarker[]
  readonly date: RunDate | null
}

/** deriveMarkers and runDate in one pass over the task runs. */
export function deriveEra(run: RunRecord): DerivedEra {
  const tally = createEraTally()
  for (const task of run.tasks) tally.add(task)
  return tally.finish(run)
}

/**
 * The task runs' part of the era, folded one task run at a time, so a streamed run (whose task runs
 * are not all held at once, docs/architecture.md "Streaming") is placed as the whole record is.
 * Per marker only its count and first five places are kept.
 */
export interface EraTally {
  add(task: TaskRun): void
  finish(run: Pick<RunRecord, 'eraMarkers' | 'logs'>): DerivedEra
}

export function createEraTally(): EraTally {
  const found = new Map<string, {count: number; evidence: Evidence[]}>()
  const add = (id: string, evidence: readonly Evidence[]): void => {
    let entry = found.get(id)
    if (entry === undefined) found.set(id, (entry = {count: 0, evidence: []}))
    if (evidence.length === 0) return
    entry.count++
    if (entry.evidence.length < 5) entry.evidence.push(evidence[0]!)
  }
  /** The earliest date, the first seen of equal ones; a turn start's file is the first log when the task has no artifact folder. */
  let earliest: {date: string; evidence: Evidence; firstLog: boolean} | null = null
  const date = (value: unknown, evidence: Evidence, firstLog = false): void => {
    if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value)) {
      const d = value.slice(0, 10)
      if (earliest === null || d < earliest.date) earliest = {date: d, evidence, firstLog}
    }
  }
  return {
    add(task) {
      deriveTaskMarkers(task, add)
      taskDates(task, date)
    },
    finish(run) {
      let runDate: RunDate | null = null
      if (earliest !== null) {
        const e = earliest as {date: string; evidence: Evidence; firstLog: boolean}
        runDate = {date: e.date, evidence: [e.firstLog ? {...e.evidence, file: run.logs[0] ?? ''} : e.evidence]}
      }
      const markers = new Map(found)
      // Criteria the Coach never verified are January's (docs/record-formats.md §6.3); with the stall detector present
      // (api_docs_2.log) the run is at the window's old edge instead.
      const unverified = markers.get('approval-without-criteria')
      if (unverified && run.eraMarkers.some((m) => STALL_DETECTION.includes(m.id))) {
        markers.delete('approval-without-criteria')
        markers.set('approval-without-criteria-with-stall-detection', unverified)
      }
      if (runDate && runDate.date < WINDOW_START_DATE) markers.set('run-date-before-window', {count: 1, evidence: [...runDate.evidence]})
      return {
        markers: [...markers.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([id, m]) => ({id, count: m.count, evidence: [...m.evidence]})),
        date: runDate,
      }
    },
  }
}

function deriveTaskMarkers(task: TaskRun, add: (id: string, evidence: readonly Evidence[]) => void): void {
  let promisesSeen = false
  for (const t of task.turns) {
    const c = t.coach
    const dump = c.diagnosticDump?.value
    if (c.criteriaMet?.value === 0 && (c.criteriaTotal?.value ?? 0) > 0 && c.rejected && c.rejected.value === c.criteriaTotal?.value && !dump && task.sources?.log !== false) {
      add('zero-of-n-without-dump', c.rejected.evidence)
    }
    if (dump && dump.matchingStrategy === 'text' && t.turn > 1 && promisesSeen) add('prior-turn-promises-not-recovered', c.diagnosticDump!.evidence)
    if (dump && dump.matchingStrategy === 'text' && dump.synthetic === false && t.player.reportSource?.value === 'direct-synthetic') {
      add('direct-synthetic-unflagged', c.diagnosticDump!.evidence)
    }
    if (c.testFailureClass?.value.confidence) add('test-failure-confidence', c.testFailureClass.evidence)
    const total = c.criteriaTotal?.value ?? 0
    if (c.decision?.value === 'approve' && total > 0 && c.pending?.value === total && c.verified?.value === 0) add('approval-without-criteria', c.pending.evidence)
    if ((t.player.promisesRecovered?.value ?? 0) > 0 || reportPromises(t) > 0) promisesSeen = true
    deriveFeedbackMarkers(t, add)
    deriveArtifactMarkers(task, t, add)
  }
  const repeat = identicalFeedbackRun(task)
  if (repeat) add('no-stall-detection', repeat)
  for (const e of task.events) if (e.kind === 'context-pollution' && e.failures !== null && e.failures < 3) add('pollution-window-2', e.evidence)
}

function deriveFeedbackMarkers(t: TurnRecord, add: (id: string, evidence: readonly Evidence[]) => void): void {
  const text = t.coach.feedback?.text ?? ''
  if (text.startsWith('- No task-specific tests created and no task-specific tests found')) add('zero-test-legacy-text', t.coach.feedback!.evidence)
  if (text.startsWith('- No task-specific tests found. Coach searched:')) add('zero-test-search-text', t.coach.feedback!.evidence)
}

function deriveArtifactMarkers(task: TaskRun, t: TurnRecord, add: (id: string, evidence: readonly Evidence[]) => void): void {
  const coach = asObject(t.artifacts.coachReport?.json)
  if (coach && t.artifacts.coachReport) {
    const file = t.artifacts.coachReport.file
    if (Object.hasOwn(coach, 'approved_without_independent_tests')) add('coach-approved-without-tests-key', [{file, pointer: '/approved_without_independent_tests'}])
    const tests = asObject(asObject(coach.validation_results)?.independent_tests)
    const summary = typeof tests?.test_output_summary === 'string' ? tests.test_output_summary : ''
    if (summary.includes('(tests_required=False)')) add('coach-skipped-required-flag', [{file, pointer: '/validation_results/independent_tests/test_output_summary'}])
    if (summary.includes('(tests not required for ')) add('coach-skipped-by-task-type', [{file, pointer: '/validation_results/independent_tests/test_output_summary'}])
    for (const [i, issue] of asArray(coach.issues).entries()) {
      const desc = asObject(issue)?.description
      if (typeof desc !== 'string') continue
      if (desc.startsWith('No task-specific tests created and no task-specific tests found')) add('zero-test-legacy-text', [{file, pointer: `/issues/${i}/description`}])
      if (desc.startsWith('No task-specific tests found. Coach searched:')) add('zero-test-search-text', [{file, pointer: `/issues/${i}/description`}])
    }
  }
  const twr = t.artifacts.taskWorkResults.at(-1)
  const results = asObject(twr?.json)
  if (twr && results && task.mode?.value !== 'direct' && !results._synthetic && asArray(results.completion_promises).length > 0) {
    add('results-promises-written-back', [{file: twr.file, pointer: '/completion_promises'}])
  }
}

function reportPromises(t: TurnRecord): number {
  const report = asObject(t.artifacts.playerReport.at(-1)?.json)
  return asArray(report?.completion_promises).length
}

/**
 * Three (or, with a non-zero count, five) consecutive feedback turns whose complete feedback texts
 * and verified counts are identical, with the loop going on: every modelled version stops there
 * (docs/guardkit-logic.md §8.4), so the run predates stall detection.
 */
function identicalFeedbackRun(task: TaskRun): Evidence[] | null {
  const turns = [...task.turns].sort((a, b) => a.turn - b.turn)
  const stallTurn = task.stall?.turn ?? null
  let run: TurnRecord[] = []
  for (const t of turns) {
    const fb = t.coach.feedback
    const ok = t.coach.decision?.value === 'feedback' && fb?.completeness === 'full' && fb.text !== ''
    const prev = run.at(-1)
    if (ok && prev && prev.turn === t.turn - 1 && prev.coach.feedback!.text === fb.text && prev.coach.criteriaMet?.value === t.coach.criteriaMet?.value) run.push(t)
    else run = ok ? [t] : []
    const count = t.coach.criteriaMet?.value ?? 0
    const need = count === 0 ? 3 : 5
    const goesOn = turns.some((u) => u.turn > t.turn)
    const interrupted = task.events.some((e) => e.kind === 'rollback' || (e.kind === 'context-pollution' && (e.failures ?? 3) >= 3))
    if (run.length >= need && goesOn && (stallTurn === null || stallTurn > t.turn) && !interrupted) {
      return run.flatMap((r) => r.coach.feedback!.evidence.slice(0, 1))
    }
  }
  return null
}

/** The run's date: the earliest timestamp in its artifacts or progress lines (ISO date). */
export function runDate(run: RunRecord): RunDate | null {
  return deriveEra(run).date
}

/** A task run's dates, in the order the earliest of equal ones is chosen. */
function taskDates(task: TaskRun, push: (value: unknown, evidence: Evidence, firstLog?: boolean) => void): void {
  const cp = task.taskArtifacts?.checkpoints
  for (const [i, c] of asArray(asObject(cp?.json)?.checkpoints).entries()) {
    const entry = asObject(c)
    if (entry?.from_prior_run) continue
    push(entry?.timestamp, {file: cp!.file, pointer: `/checkpoints/${i}/timestamp`})
  }
  for (const t of task.turns) {
    for (const v of t.artifacts.taskWorkResults) push(asObject(v.json)?.timestamp, {file: v.file, pointer: '/timestamp'})
    if (t.startedAt) push(t.startedAt, {file: task.artifactDir ?? '', note: `turn ${t.turn} started ${t.startedAt}`}, task.artifactDir === null || task.artifactDir === undefined)
  }
}
