import type {Evidence, Fact} from '../../../model/evidence.js'
import type {ImplementationMode, Outcome} from '../../../model/outcome.js'
import type {CriteriaRecord, FeedbackRecord, StallRecord, SummaryRow, TaskEvent, TaskRun, TurnRecord} from '../../../model/run-record.js'
import type {TableRow} from '../events.js'
import {offer, outranks} from './candidate.js'
import {keep} from './keep.js'
import {feedbackFromSummary, filesOfSummary, finishTurn, newTurn, type TurnDraft} from './turn-draft.js'

/** One task in one attempt, as the log shows it so far. */
export interface TaskDraft {
  readonly taskId: string
  readonly attempt: number
  readonly file: string
  readonly order: number
  featureId: string | null
  mode: Fact<ImplementationMode> | null
  taskType: Fact<string> | null
  maxTurns: Fact<number> | null
  outcome: Fact<Outcome> | null
  turnCount: Fact<number> | null
  readonly turns: Map<number, TurnDraft>
  stall: StallRecord | null
  readonly events: TaskEvent[]
  eventsDropped: number
  graphitiErrors: number
  criteria: CriteriaRecord | null
  summary: SummaryRow[] | null
  /** The dump being read (its lines follow its header). */
  openDump: TurnDraft | null
  /** The exception that ended the task's run (`Orchestration failed for TASK-X: …`, the wave's `Error - …`). */
  error: Fact<string> | null
  /** The wave display's word for a task that ended without a turn count (`✗ TASK-X: FAILED  error`). */
  waveDecision: Fact<string> | null
  /** The last `Executing turn N/M` record: a turn can start and leave no result before the log ends. */
  lastStarted: {turn: number; evidence: Evidence} | null
}

const MAX_EVENTS = 400
const MAX_GRAPHITI_EVENTS = 40

export function newTask(taskId: string, attempt: number, file: string, order: number): TaskDraft {
  return {
    taskId, attempt, file, order, featureId: null, mode: null, taskType: null, maxTurns: null, outcome: null, turnCount: null,
    turns: new Map(), stall: null, events: [], eventsDropped: 0, graphitiErrors: 0, criteria: null, summary: null, openDump: null,
    error: null, waveDecision: null, lastStarted: null,
  }
}

export function turnOf(task: TaskDraft, turn: number): TurnDraft {
  let t = task.turns.get(turn)
  if (t === undefined) {
    t = newTurn(turn)
    task.turns.set(turn, t)
  }
  return t
}

export function addEvent(task: TaskDraft, event: TaskEvent): void {
  if (roomForEvent(task, event.kind)) task.events.push(event)
}

/**
 * Counts an event of this kind and says whether the task keeps it (then the caller pushes it to
 * `events`). Events whose text is cut and copied are built only when kept: a long log fills a
 * task's list early, and they would be made for nothing.
 */
export function roomForEvent(task: TaskDraft, kind: TaskEvent['kind']): boolean {
  if (kind === 'graphiti-error' && ++task.graphitiErrors > MAX_GRAPHITI_EVENTS) return false
  if (task.events.length >= MAX_EVENTS) {
    task.eventsDropped++
    return false
  }
  return true
}

/** The per-task `AutoBuild Summary` table: the most reliable per-turn source (docs/record-formats.md §5.2). */
export function applySummaryTable(task: TaskDraft, rows: readonly TableRow[], file: string): void {
  const summary: SummaryRow[] = []
  for (const row of rows) {
    const evidence: Evidence = {file, line: row.line}
    summary.push({turn: row.turn, phase: row.phase, status: row.status, summary: row.summary, evidence: [evidence]})
    const t = turnOf(task, row.turn)
    t.hasResult = true
    if (row.phase.startsWith('Player')) {
      const status = row.status === 'success' || row.status === 'error' || row.status === 'feedback' ? row.status : null
      if (status !== null) t.playerStatus = offer(t.playerStatus, status, 3, evidence)
      const files = t.filesCreated === null ? filesOfSummary(row.summary) : null
      if (files !== null && t.filesCreated === null) {
        t.filesCreated = {value: files.created, evidence: [evidence]}
        t.filesModified = {value: files.modified, evidence: [evidence]}
        if (files.tests !== null) t.testsReported = {value: files.tests, evidence: [evidence]}
      }
      if (status === 'error' && t.playerError === null) t.playerError = {value: row.summary.replace(/\n/g, ' '), evidence: [evidence]}
    } else if (row.phase.startsWith('Coach')) {
      const decision = row.status === 'success' ? 'approve' : row.status === 'feedback' ? 'feedback' : row.status === 'error' ? 'error' : null
      if (decision !== null) t.decision = offer(t.decision, decision, 4, evidence)
      // Rich wraps table cells at the column width, so the table's text is the last resort.
      const fb = outranks(t.feedback, 0) ? feedbackOfCell(row.summary, evidence) : null
      if (fb !== null) t.feedback = offer(t.feedback, fb, 0, evidence)
    }
  }
  task.summary = summary
}

/**
 * The status box printed after the task's summary table (docs/record-formats.md §5.5): when the loop stopped on a
 * stall, GuardKit's box names what stopped it (`Coach's agent-invocations gate rejected … for 3 consecutive turns
 * (…)`) and the stall sub-types that fired with it (`Co-fired stall sub-types: context_pollution_stall_no_checkpoint.`).
 * The ERROR line logged when the loop exits may name a co-fired sub-type; the box is GuardKit's account of the stop.
 */
export function applyStatusBox(task: TaskDraft, lines: readonly string[], evidence: Evidence): void {
  if (task.stall === null) return
  // Rich wraps the box's text at its width: the sentences are read from the lines joined
  const text = lines.join(' ').replace(/\s+/g, ' ')
  const co = /Co-fired stall sub-types: ([a-z_]+(?:, ?[a-z_]+)*)/.exec(text)
  const coFired = co ? co[1]!.split(/, ?/) : []
  const reason = /((?:Coach's|The) [^.]*? for \d+ consecutive turns(?: \([^)]*\))?)/.exec(text)?.[1] ?? null
  if (reason === null && coFired.length === 0) return
  task.stall = {...task.stall, recordedStop: {reason: reason === null ? null : keep(reason), coFired, evidence: [{...evidence, text: reason ?? `Co-fired stall sub-types: ${coFired.join(', ')}`}]}}
}

/**
 * The feedback a Coach row's cell shows. Rich wraps a cell at its column's width: a line that does
 * not open a bullet (`- `, `• `) goes on the line before it, as GuardKit wrote it; a cell cut to its
 * rows ends in `…`, and the feedback is then cut there.
 */
function feedbackOfCell(cell: string, evidence: Evidence): FeedbackRecord | null {
  const text = cell.replace(/\n(?![-•] )/g, ' ')
  const fb = feedbackFromSummary(text, evidence)
  if (fb === null || fb.completeness !== 'full' || !fb.text.endsWith('…')) return fb
  return {...fb, text: fb.text.slice(0, -1), completeness: 'truncated'}
}

/**
 * A task whose orchestrator raised before any `Orchestration complete` record (a design-phase SDK
 * timeout, a pre-loop error) ended in `error`: the wave display says so (`✗ TASK-X: FAILED  error`)
 * and the exception is logged. Its turn count is the turns it started, 0 when it ended before turn 1.
 */
export function settleErrorEnd(task: TaskDraft): void {
  if (task.outcome !== null || task.error === null) return
  const wave = task.waveDecision
  if (wave !== null && wave.value !== 'error') return
  const evidence = [...(wave?.evidence ?? []), ...task.error.evidence]
  let started = 0
  for (const k of task.turns.keys()) if (k > started) started = k
  task.outcome = {value: 'error', evidence}
  task.turnCount = {value: started, evidence}
}

export function finishTask(task: TaskDraft): TaskRun {
  settleErrorEnd(task)
  const count = task.turnCount?.value ?? 0
  const turns = [...task.turns.values()]
    .filter((t) => t.hasResult || (t.turn <= count && t.turn >= 1))
    .sort((a, b) => a.turn - b.turn)
    .map(finishTurn)
  const ended = endOfRecords(task, turns)
  const events0 = ended === null ? task.events : [...task.events, ended]
  const events = task.eventsDropped > 0 || task.graphitiErrors > MAX_GRAPHITI_EVENTS
    ? [...events0, {kind: 'other' as const, name: 'events-capped', turn: null,
        detail: `${task.eventsDropped} more events and ${Math.max(task.graphitiErrors - MAX_GRAPHITI_EVENTS, 0)} more knowledge-graph errors were counted but not kept`, evidence: []}]
    : events0
  return {
    taskId: task.taskId,
    attempt: task.attempt,
    featureId: task.featureId,
    mode: task.mode,
    taskType: task.taskType,
    complexity: null,
    maxTurns: task.maxTurns,
    outcome: task.outcome,
    turnCount: task.turnCount,
    turns,
    stall: task.stall,
    events,
    criteria: printedCriteria(task, turns),
    taskFile: null,
    artifactDir: null,
    summary: task.summary,
    sources: {log: true, artifacts: false},
    ...(task.error === null ? {} : {error: task.error}),
  }
}

/**
 * A task with no recorded outcome whose last started turn left no result (the log ends while it runs): the turn is
 * not among the recorded turns, so an event keeps where the records end (`records-end`, the turn and its start).
 */
function endOfRecords(task: TaskDraft, turns: readonly TurnRecord[]): TaskEvent | null {
  if (task.outcome !== null || task.lastStarted === null) return null
  const last = turns.reduce((n, t) => Math.max(n, t.turn), 0)
  if (task.lastStarted.turn <= last) return null
  return {kind: 'other', name: 'records-end', turn: task.lastStarted.turn,
    detail: `turn ${task.lastStarted.turn} started and the log ends before it records a result or an outcome`, evidence: [task.lastStarted.evidence]}
}

/**
 * The criteria list is what GuardKit printed of the criteria. A `Requirements not met … missing [...]`
 * list holds only the unmet ones: it is the list only when it names as many as the Coach counted (a
 * 0/N turn); a shorter one would be taken for the list and numbered AC-001… wrongly.
 */
function printedCriteria(task: TaskDraft, turns: readonly TurnRecord[]): CriteriaRecord | null {
  const c = task.criteria
  if (c === null || c.source !== 'missing-list') return c
  const total = Math.max(0, ...turns.map((t) => t.coach.criteriaTotal?.value ?? 0))
  return total > 0 && c.texts.length === total ? c : null
}
