import type {Evidence, Fact} from '../../model/evidence.js'
import type {RunRecord, TaskEvent, TaskRun, TurnRecord} from '../../model/run-record.js'
import type {RecordedTurn, Report, ReportTask} from './report.js'

/** The report's `schemaVersion` (here, not in report.ts, so building a report does not load zod). */
export const SCHEMA_VERSION = 1

export interface ReportTool {
  readonly name: string
  readonly version: string
}

/**
 * The contract's report document for a RunRecord, without `replay` and `findings` (what
 * `inspect --json` prints; `analyze` adds both). Key order follows the contract.
 */
export function buildReport(run: RunRecord, tool: ReportTool): Report {
  return {
    schemaVersion: SCHEMA_VERSION,
    tool: {name: tool.name, version: tool.version},
    run: {path: run.path, logs: [...run.logs], worktrees: [...run.worktrees], inferredProfile: null},
    ingestIssues: run.ingestIssues.map((i) => ({
      file: i.file,
      ...(i.line === undefined ? {} : {line: i.line}),
      ...(i.pointer === undefined ? {} : {pointer: i.pointer}),
      message: i.message,
      severity: i.severity,
      code: i.code,
    })),
    tasks: run.tasks.map(reportTask),
    attempts: run.attempts.map((a) => ({
      attempt: a.attempt,
      file: a.file,
      startLine: a.startLine,
      endLine: a.endLine,
      command: a.command,
      kind: a.kind,
      featureId: a.featureId,
      featureResult: a.featureResult?.value ?? null,
      truncated: a.truncated,
      taskIds: [...a.taskIds],
    })),
    loggerStats: run.loggerStats.map((s) => ({logger: s.logger, parsed: s.parsed, counted: s.counted})),
    eraMarkers: run.eraMarkers.map((m) => ({id: m.id, count: m.count, evidence: m.evidence.map(ev)})),
    ...(run.eventLogs === undefined || run.eventLogs.length === 0 ? {} : {
      eventLogs: run.eventLogs.map((l) => ({file: l.file, entries: l.entries.map((e) => ({
        line: e.line, role: e.role, taskId: e.taskId, featureId: e.featureId, runId: e.runId, attempt: e.attempt, timestamp: e.timestamp, failureCategory: e.failureCategory,
      }))})),
    }),
  }
}

export function reportTask(t: TaskRun): ReportTask {
  const stall = t.stall
  return {
    taskId: t.taskId,
    attempt: t.attempt,
    mode: t.mode?.value ?? null,
    recorded: {
      outcome: t.outcome?.value ?? null,
      turns: t.turns.map(reportTurn),
      stall: stall === null ? null : {
        turn: stall.turn,
        signature: stall.signature,
        kind: stall.kind,
        windowTurns: stall.windowTurns,
        criteriaPassing: stall.criteriaPassing,
        extended: stall.extended,
        errorText: stall.errorText,
        evidence: stall.evidence.map(ev),
      },
      turnCount: t.turnCount?.value ?? null,
      error: t.error?.value ?? null,
      events: t.events.map(reportEvent),
      evidence: {outcome: evs(t.outcome), mode: evs(t.mode)},
    },
    file: t.outcome?.evidence[0]?.file ?? t.mode?.evidence[0]?.file,
    taskType: t.taskType?.value ?? null,
  }
}

function reportTurn(u: TurnRecord): RecordedTurn {
  const c = u.coach
  return {
    turn: u.turn,
    decision: c.decision?.value ?? null,
    criteriaMet: c.criteriaMet?.value ?? null,
    criteriaTotal: c.criteriaTotal?.value ?? null,
    feedback: c.feedback?.text ?? null,
    feedbackCompleteness: c.feedback?.completeness ?? null,
    verified: c.verified?.value ?? null,
    rejected: c.rejected?.value ?? null,
    pending: c.pending?.value ?? null,
    player: u.player.status?.value ?? null,
    playerError: u.player.error?.value ?? null,
    coachError: c.error?.value ?? null,
    testCommand: c.testCommand?.value ?? null,
    independentTests: c.independentTests?.value ?? null,
    evidence: {
      decision: evs(c.decision),
      criteria: [...evs(c.criteriaMet), ...evs(c.verified)],
      feedback: c.feedback?.evidence.map(ev) ?? [],
      player: evs(u.player.status),
      tests: [...evs(c.testCommand), ...evs(c.independentTests)],
    },
  }
}

function reportEvent(e: TaskEvent): {kind: string; turn: number | null; detail: string | null; evidence: Evidence[]} {
  const turn = 'turn' in e ? e.turn : null
  let detail: string | null = null
  switch (e.kind) {
    case 'other':
      return {kind: e.name, turn, detail: e.detail, evidence: e.evidence.map(ev)}
    case 'orchestration-crash':
    case 'critical-error':
      detail = e.message
      break
    case 'graphiti-error':
      detail = `${e.errorKind}${e.timestamp === null ? '' : ` at ${e.timestamp}`}`
      break
    case 'cancelled':
      detail = e.where
      break
    case 'feature-timeout':
    case 'player-timeout':
      detail = e.seconds === null ? null : `${e.seconds}s`
      break
    case 'max-turns-exceeded':
      detail = `max_turns=${e.maxTurns}`
      break
    case 'context-pollution':
      detail = `${e.failures ?? '?'} consecutive failing turns [${e.turns.join(', ')}]`
      break
    case 'rollback':
      detail = e.toCheckpoint === null ? null : `to turn ${e.toCheckpoint}`
      break
    default:
      break
  }
  return {kind: e.kind, turn, detail, evidence: e.evidence.map(ev)}
}

function ev(e: Evidence): {file: string; line?: number; pointer?: string; note?: string} {
  return {file: e.file, ...(e.line === undefined ? {} : {line: e.line}), ...(e.pointer === undefined ? {} : {pointer: e.pointer}), ...(e.note === undefined ? {} : {note: e.note})}
}

function evs<T>(f: Fact<T> | null): {file: string; line?: number}[] {
  return f === null ? [] : f.evidence.map(ev)
}
