import type {Evidence, Fact} from '../../model/evidence.js'
import type {IngestIssue} from '../../model/ingest-issue.js'
import type {CoachDecision} from '../../model/outcome.js'
import type {ArtifactVersion, CoachTurn, FeedbackRecord, PlayerTurn, QualityGates, TurnArtifacts, TurnRecord} from '../../model/run-record.js'
import {isRecord, type CheckpointEntry} from './assemble-task.js'
import {atPointer} from './json-pointer.js'

/**
 * What one turn's artifacts say, as a TurnRecord: each value with the file and JSON pointer it was
 * read from. Values the artifacts do not hold are null (merge-artifacts fills them from the log).
 */
export function turnFromArtifacts(turn: number, arts: TurnArtifacts, checkpoint: CheckpointEntry | null, issues: IngestIssue[]): TurnRecord {
  return {
    turn,
    player: playerFrom(arts),
    coach: coachFrom(arts, issues),
    stateRecovery: stateRecoveryFrom(arts.workState),
    checkpoint: checkpoint ? {value: {hash: checkpoint.hash, testsPassed: checkpoint.testsPassed, testCount: checkpoint.testCount}, evidence: [checkpoint.evidence]} : null,
    perspectiveReset: null,
    startedAt: null,
    endedAt: null,
    artifacts: arts,
  }
}

function ev(v: ArtifactVersion, pointer: string, note?: string): Evidence {
  return note === undefined ? {file: v.file, pointer} : {file: v.file, pointer, note}
}

function get(v: ArtifactVersion | null | undefined, pointer: string): unknown {
  return v ? atPointer(v.json, pointer) : undefined
}

function str(v: ArtifactVersion | null | undefined, pointer: string): Fact<string> | null {
  const x = get(v, pointer)
  return typeof x === 'string' ? {value: x, evidence: [ev(v!, pointer)]} : null
}

function bool(v: ArtifactVersion | null | undefined, pointer: string): boolean | null {
  const x = get(v, pointer)
  return typeof x === 'boolean' ? x : null
}

function num(v: ArtifactVersion | null | undefined, pointer: string): number | null {
  const x = get(v, pointer)
  return typeof x === 'number' ? x : null
}

function listLength(v: ArtifactVersion | null | undefined, pointer: string): Fact<number> | null {
  const x = get(v, pointer)
  return Array.isArray(x) ? {value: x.length, evidence: [ev(v!, pointer, 'list length')]} : null
}

function playerFrom(arts: TurnArtifacts): PlayerTurn {
  // the last version is what the Coach read
  const report = arts.playerReport[arts.playerReport.length - 1] ?? null
  const ws = arts.workState
  const error = str(report, '/error')
  let status: PlayerTurn['status'] = null
  if (report && error && error.value !== '') status = {value: 'error', evidence: error.evidence}
  else if (ws) status = {value: 'error', evidence: [ev(ws, '', 'state recovery ran: GuardKit writes work_state_turn_N.json when the Player failed')]}
  else if (report) status = {value: 'success', evidence: [ev(report, '', 'a player report was written')]}
  const used = num(report, '/sdk_turns_used')
  return {
    status,
    error: error && error.value !== '' ? error : null,
    filesCreated: listLength(report, '/files_created'),
    filesModified: listLength(report, '/files_modified'),
    toolInputKeys: null,
    reportSource: reportSourceFrom(report, ws),
    promisesRecovered: null,
    sdkTurns: used === null ? null : {value: {used, max: num(report, '/sdk_max_turns'), ceilingHit: bool(report, '/sdk_ceiling_hit')}, evidence: [ev(report!, '/sdk_turns_used')]},
  }
}

function reportSourceFrom(report: ArtifactVersion | null, ws: ArtifactVersion | null): PlayerTurn['reportSource'] {
  if (!report && ws && get(ws, '/player_report_available') === false) {
    return {value: 'state-recovery', evidence: [ev(ws, '/player_report_available')]}
  }
  if (!report) return null
  const synthetic = get(report, '/_synthetic') === true
  const direct = get(report, '/implementation_mode') === 'direct'
  // state recovery also writes "direct mode results"; its work_state file tells it apart
  if (synthetic) return {value: direct && !ws ? 'direct-synthetic' : 'state-recovery', evidence: [ev(report, '/_synthetic')]}
  const notes = get(report, '/implementation_notes')
  if (typeof notes === 'string' && notes.startsWith('Implementation via task-work delegation')) {
    return {value: 'task-work-delegation', evidence: [ev(report, '/implementation_notes')]}
  }
  if (direct) return {value: 'direct-agent', evidence: [ev(report, '/implementation_mode')]}
  return null
}

const DECISIONS: ReadonlySet<string> = new Set<CoachDecision>(['approve', 'feedback', 'error'])

function coachFrom(arts: TurnArtifacts, issues: IngestIssue[]): CoachTurn {
  const c = arts.coachReport
  const evidence = arts.coachEvidence
  let decision: Fact<CoachDecision> | null = null
  const raw = get(c, '/decision')
  const recorded = get(arts.turnState, '/coach_decision')
  if (typeof raw === 'string' && DECISIONS.has(raw)) decision = {value: raw as CoachDecision, evidence: [ev(c!, '/decision')]}
  else if (typeof raw === 'string') {
    issues.push({file: c!.file, pointer: '/decision', code: 'json-shape', severity: 'warning', message: `unknown Coach decision ${JSON.stringify(raw)} (expected approve or feedback): not used`})
  } else if (typeof recorded === 'string' && DECISIONS.has(recorded)) {
    // no coach report (the Coach failed): the orchestrator's turn record still says how the turn ended
    decision = {value: recorded as CoachDecision, evidence: [ev(arts.turnState!, '/coach_decision')]}
  }
  const verifications = get(c, '/criteria_verification')
  const results = Array.isArray(verifications) ? verifications.map((v) => (isRecord(v) ? v['result'] : undefined)) : null
  // _display_criteria_progress counts coach_report.criteria_verification; a report without it counts 0
  const countOf = (r: string): Fact<number> | null =>
    c ? {value: (results ?? []).filter((x) => x === r).length, evidence: [ev(c, '/criteria_verification', `count of result == "${r}" (what the Criteria Progress line counts)`)]} : null
  const categories = issueCategories(c)
  const missing = get(c, '/validation_results/requirements/missing')
  const testCommand = str(c, '/validation_results/independent_tests/test_command') ?? str(c, '/validation_results/test_command') ?? str(evidence, '/independent_tests/test_command')
  return {
    decision,
    criteriaMet: countOf('verified'),
    criteriaTotal: criteriaTotalFrom(c, evidence),
    verified: countOf('verified'),
    rejected: countOf('rejected'),
    pending: null,
    feedback: feedbackFrom(arts, decision),
    gates: gatesFrom(evidence, '/quality_gates') ?? gatesFrom(c, '/validation_results/quality_gates'),
    testCommand,
    independentTests: independentFrom(c, evidence),
    diagnosticDump: null,
    missingCriteria: Array.isArray(missing) && missing.length > 0 && missing.every((m) => typeof m === 'string')
      ? {value: missing as string[], evidence: [ev(c!, '/validation_results/requirements/missing')]}
      : null,
    issueCategories: categories,
    zeroTestAnomaly: categories ? {value: categories.value.includes('zero_test_anomaly'), evidence: categories.evidence} : null,
  }
}

/**
 * The number of criteria the deterministic Coach checked (`len(acceptance_criteria)` in
 * validate_requirements): the report's own total, else the LLM Coach's evidence bundle. A total of 0
 * is not used: January reports record 0 while the log prints `0/15` (docs/record-formats.md §6 item 3), and a
 * task without criteria prints no Criteria Progress line at all. Lists of results are not counted:
 * they are empty when requirements were not evaluated, and the LLM Coach's list is its own.
 */
function criteriaTotalFrom(c: ArtifactVersion | null, evidence: ArtifactVersion | null): Fact<number> | null {
  for (const [v, pointer] of [[c, '/validation_results/requirements/criteria_total'], [evidence, '/requirements/criteria_total']] as const) {
    const total = num(v, pointer)
    if (total !== null && Number.isInteger(total) && total > 0) return {value: total, evidence: [ev(v!, pointer)]}
  }
  return null
}

function issueCategories(c: ArtifactVersion | null): Fact<readonly string[]> | null {
  const list = get(c, '/issues')
  if (!c || !Array.isArray(list)) return null
  const cats = list.flatMap((i) => (isRecord(i) && typeof (i['category'] ?? i['type']) === 'string' ? [String(i['category'] ?? i['type'])] : []))
  return {value: cats, evidence: [ev(c, '/issues')]}
}

function feedbackFrom(arts: TurnArtifacts, decision: Fact<CoachDecision> | null): FeedbackRecord | null {
  if (decision?.value === 'approve') return null
  const file = arts.feedbackFile
  const raw = get(file, '/raw_feedback')
  if (typeof raw === 'string' && raw !== '') return {text: raw, completeness: 'full', truncatedAt: null, evidence: [ev(file!, '/raw_feedback')]}
  const state = arts.turnState
  const fromState = get(state, '/coach_feedback')
  if (typeof fromState === 'string' && fromState !== '') return {text: fromState, completeness: 'full', truncatedAt: null, evidence: [ev(state!, '/coach_feedback')]}
  return null
}

function gatesFrom(v: ArtifactVersion | null, pointer: string): Fact<QualityGates> | null {
  const g = get(v, pointer)
  if (!isRecord(g)) return null
  const b = (k: string): boolean | null => (typeof g[k] === 'boolean' ? (g[k] as boolean) : null)
  return {
    value: {
      testsPassed: b('tests_passed'), coverageMet: b('coverage_met'), archReviewPassed: b('arch_review_passed'), planAuditPassed: b('plan_audit_passed'),
      allPassed: b('all_gates_passed'), testsRequired: b('tests_required'), coverageRequired: b('coverage_required'), archReviewRequired: b('arch_review_required'),
    },
    evidence: [ev(v!, pointer)],
  }
}

function independentFrom(c: ArtifactVersion | null, evidence: ArtifactVersion | null): CoachTurn['independentTests'] {
  for (const [v, pointer] of [[evidence, '/independent_tests'], [c, '/validation_results/independent_tests']] as const) {
    const t = get(v, pointer)
    if (isRecord(t) && typeof t['tests_passed'] === 'boolean') {
      const duration = typeof t['duration_seconds'] === 'number' ? t['duration_seconds'] : null
      return {value: {passed: t['tests_passed'], durationSeconds: duration, skipped: t['test_command'] === 'skipped'}, evidence: [ev(v!, pointer)]}
    }
  }
  return null
}

function stateRecoveryFrom(ws: ArtifactVersion | null): TurnRecord['stateRecovery'] {
  if (!ws) return null
  const created = get(ws, '/files_created')
  const modified = get(ws, '/files_modified')
  const files = Array.isArray(created) && Array.isArray(modified) ? created.length + modified.length : null
  const method = get(ws, '/detection_method')
  return {
    value: {reason: null, method: typeof method === 'string' ? method : null, files, tests: num(ws, '/test_count'), testsPassing: bool(ws, '/tests_passed')},
    evidence: [ev(ws, '')],
  }
}
