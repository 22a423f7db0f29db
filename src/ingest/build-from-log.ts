import type {Evidence} from '../model/evidence.js'
import type {IngestIssue} from '../model/ingest-issue.js'
import type {EraMarker, LoggerStat, RunAttempt, TaskRun} from '../model/run-record.js'
import type {Attributed} from './log/attribution.js'
import {type AttemptDraft, applyAttemptEvent, finishAttempt, newAttempt} from './log/build/attempt-draft.js'
import {createMarkerTally, markersOf, progressMarker} from './log/build/era-markers.js'
import {applyTaskEvent} from './log/build/task-events.js'
import {addEvent, applyStatusBox, applySummaryTable, finishTask, newTask, settleErrorEnd, type TaskDraft} from './log/build/task-draft.js'
import {currentTurn} from './log/build/turn-events.js'
import type {LogEvent} from './log/events.js'
import {keep} from './log/build/keep.js'
import {addSignal, type AttemptSignals, type AttributedSignal, newAttemptSignals, withSignals} from './log/signals/store.js'

/** What the logs of RUN yield: the log-derived parts of a RunRecord. */
export interface LogIngestResult {
  readonly logs: readonly string[]
  readonly attempts: readonly RunAttempt[]
  readonly tasks: readonly TaskRun[]
  readonly eraMarkers: readonly EraMarker[]
  readonly loggerStats: readonly LoggerStat[]
  readonly ingestIssues: readonly IngestIssue[]
}

/**
 * Folds attributed log events into per-attempt task drafts, then into RunRecord parts. Only
 * what the RunRecord keeps is held, so memory follows the number of tasks and turns, not the log.
 */
export interface RunBuilder {
  addLog(file: string): void
  startAttempt(file: string, startLine: number, command: string | null): number
  setAttemptCommand(attempt: number, line: number, command: string): void
  endAttempt(attempt: number, endLine: number): void
  fileOfAttempt(attempt: number): string | undefined
  consume(a: Attributed): void
  /** A signal attributed to a task (or to the run): kept apart from the events, attached when the attempt ends. */
  consumeSignal(a: AttributedSignal): void
  build(issues: readonly IngestIssue[], stats: ReadonlyMap<string, {parsed: number; counted: number}>): LogIngestResult
}

/** Kinds that show a task's loop ran in this attempt (others only mention a task). */
const LOOP_KINDS = new Set<LogEvent['kind']>([
  'ab-init', 'ab-start', 'ab-loop', 'ab-exec-turn', 'ai-invoke', 'ai-mode', 'cv-start', 'ab-use-coach', 'ab-criteria-progress', 'ab-complete',
  'wc-creating', 'ai-player-report', 'cv-saved', 'ab-recovery-attempt', 'ab-coach-turn', 'cv-approved',
])

/**
 * Called with each attempt's task runs as the attempt ends (streaming, docs/ingest.md "Streaming"):
 * the builder then keeps only the attempt and its issues, so memory does not grow with the tasks.
 */
export type AttemptTasksSink = (tasks: TaskRun[], attempt: RunAttempt, sofar: RunSoFar) => void

/** The run-level parts read so far, as `build` would give them now (what a streamed reader may look ahead with). */
export interface RunSoFar {
  eraMarkers(): EraMarker[]
  logs(): readonly string[]
}

export function createRunBuilder(onAttemptTasks?: AttemptTasksSink): RunBuilder {
  const logs: string[] = []
  /** Attempts still receiving events; an ended attempt is finished at once and its drafts dropped. */
  const open = new Map<number, AttemptDraft>()
  const files = new Map<number, string>()
  const done: FinishedAttempt[] = []
  const signals = new Map<number, AttemptSignals>()
  /** An attempt as the RunRecord keeps it, with its signals. */
  const finishWithSignals = (att: AttemptDraft): FinishedAttempt => {
    const f = finishAttemptAll(att)
    return {...f, ...withSignals(f.attempt, f.tasks, signals.get(att.attempt))}
  }
  const markers = createMarkerTally()
  const sofar: RunSoFar = {eraMarkers: () => markers.list(), logs: () => [...logs]}
  let order = 0
  /** The attempt the last event went to (consecutive events share it). */
  let current: AttemptDraft | null = null

  function taskFor(att: AttemptDraft, taskId: string, e: LogEvent): TaskDraft | null {
    let task = att.tasks.get(taskId)
    if (task === undefined) {
      if (!LOOP_KINDS.has(e.kind)) return null
      // the id is kept: a copy, not a view of the line it was read from (copied once per task, not per event)
      const id = keep(taskId)
      task = newTask(id, att.attempt, att.file, order++)
      task.featureId = att.featureId
      att.tasks.set(id, task)
    }
    return task
  }

  function markProgress(att: AttemptDraft, stamped: boolean, ev: Evidence): void {
    if (stamped ? att.progressStamped : att.progressPlain) return
    if (stamped) att.progressStamped = true
    else att.progressPlain = true
    markers.add(progressMarker(stamped), ev)
  }

  /** In streaming, an ended attempt's task runs go to the sink and are not kept. */
  function handOver(part: FinishedAttempt): FinishedAttempt {
    if (onAttemptTasks === undefined) return part
    onAttemptTasks(part.tasks, part.attempt, sofar)
    return {...part, tasks: []}
  }

  return {
    addLog(file) {
      if (!logs.includes(file)) logs.push(file)
    },
    startAttempt(file, startLine, command) {
      const n = files.size + 1
      files.set(n, file)
      open.set(n, newAttempt(n, file, startLine, command))
      return n
    },
    setAttemptCommand(attempt, line, command) {
      const att = open.get(attempt)
      if (att === undefined) return
      att.command = command
      att.startLine = Math.min(att.startLine, line)
    },
    endAttempt(attempt, endLine) {
      const att = open.get(attempt)
      if (att === undefined) return
      att.endLine = Math.max(att.endLine, endLine)
      open.delete(attempt)
      if (current === att) current = null
      done.push(handOver(finishWithSignals(att)))
      signals.delete(attempt)
    },
    fileOfAttempt(attempt) {
      return files.get(attempt)
    },
    consume(a) {
      const att = a.attempt === current?.attempt ? current : (current = open.get(a.attempt) ?? null)
      if (att === null) return
      const e = a.event
      const ev: Evidence = {file: att.file, line: a.line}
      for (const id of markersOf(e)) markers.add(id, ev)
      if (e.kind === 'pr-started') markProgress(att, e.ts !== undefined, ev)
      if (e.ts !== undefined) att.lastTs = e.ts
      if (e.kind === 'c-run-killed') return killRun(att, e.source, ev)
      if (e.kind === 'c-capture-cut') return captureCut(att, e.omitted, e.unit, ev)
      if (a.taskId === null || e.kind === 'cli-start') return applyAttemptEvent(att, e, ev)
      const task = taskFor(att, a.taskId, e)
      if (task === null) return applyAttemptEvent(att, e, ev)
      applyTaskEvent(task, a.turn, e, ev, att.lastTs)
      if (e.kind === 'ab-complete') claimSummary(att, task, e.decision, e.turns)
      if (e.kind === 'c-task-status' || e.kind === 'c-task-result' || e.kind === 'ab-init') applyAttemptEvent(att, e, ev)
    },
    consumeSignal(a) {
      const att = open.get(a.attempt)
      if (att === undefined) return
      let store = signals.get(a.attempt)
      if (store === undefined) signals.set(a.attempt, (store = newAttemptSignals()))
      addSignal(store, att.file, a)
    },
    build(issues, stats) {
      const all = [...done, ...[...open.values()].map((a) => handOver(finishWithSignals(a)))].sort((a, b) => a.attempt.attempt - b.attempt.attempt)
      const loggerStats: LoggerStat[] = [...stats.entries()]
        .map(([logger, s]) => ({logger, parsed: s.parsed, counted: s.counted}))
        .sort((a, b) => b.parsed + b.counted - (a.parsed + a.counted) || (a.logger < b.logger ? -1 : 1))
      return {
        logs: [...logs],
        attempts: all.map((x) => x.attempt),
        tasks: all.flatMap((x) => x.tasks),
        eraMarkers: markers.list(),
        loggerStats,
        ingestIssues: [...issues, ...all.flatMap((x) => x.issues)],
      }
    },
  }
}

/** An attempt as the RunRecord keeps it, with the issues its end leaves (tasks without outcome, unmatched tables). */
interface FinishedAttempt {
  readonly attempt: RunAttempt
  readonly tasks: TaskRun[]
  readonly issues: IngestIssue[]
}

function finishAttemptAll(att: AttemptDraft): FinishedAttempt {
  const issues: IngestIssue[] = []
  const drafts = [...att.tasks.values()].sort((a, b) => a.order - b.order)
  for (const t of drafts) settleErrorEnd(t)
  const unfinished = drafts.filter((t) => t.outcome === null)
  for (const t of unfinished) {
    const last = Math.max(0, ...t.turns.keys())
    const killed = t.events.find((e) => e.kind === 'other' && e.name === 'run-killed')
    issues.push({file: att.file, line: killed?.evidence[0]?.line ?? att.endLine, code: 'truncated', severity: 'info',
      message: killed !== undefined
        ? `${t.taskId} (attempt ${att.attempt}) has no recorded outcome: the transcript shows its shell killed${last > 0 ? ` during turn ${last}` : ''}, before GuardKit could log one`
        : `${t.taskId} (attempt ${att.attempt}) has no recorded outcome: the log ends${last > 0 ? ` during or after turn ${last}` : ''} without its \`Orchestration complete\` record`})
  }
  for (const table of att.pendingTables) {
    issues.push({file: att.file, line: table.line, code: 'unattributed', severity: 'warning',
      message: table.status === null
        ? 'an AutoBuild Summary table whose title was cut from the capture could not be matched to a task\'s outcome record'
        : `an AutoBuild Summary (${table.status}) table could not be matched to a task's outcome record`})
  }
  return {attempt: finishAttempt(att, unfinished.length > 0), tasks: drafts.map(finishTask), issues}
}

/** The shell running the attempt was killed: every task still running ends there, with no outcome GuardKit could log. */
function killRun(att: AttemptDraft, source: string, ev: Evidence): void {
  for (const task of att.tasks.values()) {
    if (task.outcome !== null) continue
    addEvent(task, {kind: 'other', name: 'run-killed', turn: currentTurn(task),
      detail: `the transcript shows the shell running this AutoBuild run killed (${source}); GuardKit logged no outcome for it`, evidence: [ev]})
  }
}

/**
 * The capture leaves a stretch of the output out (`... [N characters truncated] ...`): every task still
 * running lost the records of that stretch, from the turn it had reached; the diagnosis says so when
 * a failure's own line is among them.
 */
function captureCut(att: AttemptDraft, omitted: number, unit: string, ev: Evidence): void {
  for (const task of att.tasks.values()) {
    if (task.outcome !== null) continue
    const turn = currentTurn(task)
    addEvent(task, {kind: 'other', name: 'capture-cut', turn,
      detail: `the capture leaves ${omitted} ${unit} of the output out here${turn === null ? '' : `, during turn ${turn}`}: this task's records of that stretch are not in the log`,
      evidence: [{...ev, text: `... [${omitted} ${unit} truncated] ...`}]})
  }
}

/**
 * Pair the oldest unclaimed summary table of the same status with this task (docs/record-formats.md §5.2).
 * A table whose title was cut (status null, or named by the status box after it) must also end at the
 * turn the outcome record names: its rows are all that says whose table it is.
 */
function claimSummary(att: AttemptDraft, task: TaskDraft, decision: string, turns: number): void {
  const i = att.pendingTables.findIndex((t) =>
    t.headless ? (t.status === null || t.status.toLowerCase() === decision.toLowerCase()) && lastRowTurn(t.rows) === turns : t.status!.toLowerCase() === decision.toLowerCase())
  if (i === -1) return
  const [table] = att.pendingTables.splice(i, 1)
  applySummaryTable(task, table!.rows, att.file)
  if (table!.box !== null) applyStatusBox(task, table!.box.lines, {file: att.file, line: table!.box.line})
}

function lastRowTurn(rows: readonly {turn: number}[]): number {
  return rows.reduce((n, r) => Math.max(n, r.turn), 0)
}
