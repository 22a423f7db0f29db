import {stripVTControlCharacters} from 'node:util'
import type {RunRecord, TaskRun} from '../../src/model/run-record.js'
import {placeRun} from '../../src/replay/era-timeline.js'

/**
 * The corpus check of recorded outcomes (test/corpus/outcomes.test.ts, scripts/corpus/outcomes.ts):
 * for each real log, every `Orchestration complete: TASK, decision=D, turns=N` record is recovered
 * as that task run's outcome and turn count, at that line; and every failed task run the
 * maintainers labelled (diagnoses/labels.json: task, n-th run of the task in the log, outcome,
 * turns) is recovered. Two situations are accounted for by rule, never by file:
 * - a transcript that prints a run's output more than once (the ingest says so with a
 *   `repeated-output` note) holds the same outcome record several times: one print is read, the
 *   other copies count as recovered through it; the labels, which count every print as a run, are
 *   matched by that one run;
 * - a run stopped from outside GuardKit (the transcript shows its shell killed) has no outcome
 *   record: the tool reports none and says where it stopped; the label's outcome is the reviewer's
 *   reading, its turn count is checked against the turn the run reached;
 * - a file that is not a capture but a document quoting records (a review: the ingest says so with a
 *   `not-a-log` warning, docs/ingest.md) is not read as a run: its quoted records are accounted for
 *   by that note, and it has no era.
 */
export interface OutcomeRecord {
  readonly taskId: string
  readonly outcome: string
  readonly turns: number
}

export interface LocatedRecord extends OutcomeRecord {
  readonly line: number
}

export interface Label {
  readonly corpusLog: string
  readonly taskId: string
  readonly attempt: number
  readonly outcome: string | null
  readonly turns: number | null
}

export interface Tally {
  expected: number
  recovered: number
  /** Accounted for by one of the rules above (the note says which). */
  explained: number
  readonly misses: string[]
  readonly notes: string[]
}

export interface LogCheck {
  readonly log: string
  readonly era: string
  readonly outcomes: Tally
  readonly labels: Tally
}

const OUTCOME_RECORD = /Orchestration complete:\s+(TASK-[\w-]*\w),\s+decision=(\w+),\s+turns=(\d+)/g

/** The outcome records in a log's raw text, each with its line: a reading of its own, independent of the ingest. */
export function locateOutcomeRecords(text: string): LocatedRecord[] {
  const plain = stripVTControlCharacters(text)
  const found: LocatedRecord[] = []
  let line = 1
  let from = 0
  for (const m of plain.matchAll(OUTCOME_RECORD)) {
    for (let i = plain.indexOf('\n', from); i !== -1 && i < m.index; i = plain.indexOf('\n', i + 1)) line++
    from = m.index
    found.push({taskId: m[1]!, outcome: m[2]!, turns: Number(m[3]), line})
  }
  return found
}

const key = (r: OutcomeRecord): string => `${r.taskId} ${r.outcome} ${r.turns}`
const tally = (): Tally => ({expected: 0, recovered: 0, explained: 0, misses: [], notes: []})

function reprinted(run: RunRecord): boolean {
  return run.ingestIssues.some((i) => i.code === 'repeated-output')
}

/** The ingest read no capture from the log: it is a document that quotes records (its `not-a-log` warning says so). */
export function notACapture(run: RunRecord): string | null {
  if (run.logs.length > 0) return null
  return run.ingestIssues.find((i) => i.code === 'not-a-log' && i.severity === 'warning')?.message ?? null
}

/** Outcome records: each recovered at its line, or a copy of a recovered record in a re-printed run. */
export function checkOutcomeRecords(log: string, located: readonly LocatedRecord[], expected: readonly OutcomeRecord[] | null, run: RunRecord): Tally {
  const t = tally()
  if (expected !== null && located.map(key).join('\n') !== expected.map(key).join('\n')) {
    t.misses.push(`${log}: the log's outcome records (${located.length}) are not the ${expected.length} that outcomes.json lists`)
  }
  const byLine = new Map<number, TaskRun>()
  for (const task of run.tasks) for (const e of task.outcome?.evidence ?? []) if (e.line !== undefined) byLine.set(e.line, task)
  const recoveredLines = new Set<number>()
  const document = notACapture(run)
  if (document !== null) {
    for (const r of located) {
      t.expected++
      t.explained++
      t.notes.push(`${log}:${r.line} ${key(r)}: quoted by a document the ingest does not read as a capture (${document})`)
    }
    return t
  }
  for (const r of located) {
    t.expected++
    const task = byLine.get(r.line)
    if (task !== undefined && task.taskId === r.taskId && task.outcome?.value === r.outcome && task.turnCount?.value === r.turns) {
      t.recovered++
      recoveredLines.add(r.line)
    }
  }
  for (const r of located) {
    if (recoveredLines.has(r.line)) continue
    const copy = located.find((o) => o.line !== r.line && key(o) === key(r) && recoveredLines.has(o.line))
    if (reprinted(run) && copy !== undefined) {
      t.explained++
      t.notes.push(`${log}:${r.line} ${key(r)}: a re-print of the record at line ${copy.line}`)
      continue
    }
    const task = byLine.get(r.line)
    t.misses.push(`${log}:${r.line} ${key(r)}: ${task === undefined ? 'no task run has this outcome record' : `read as ${task.taskId} ${task.outcome?.value} ${task.turnCount?.value}`}`)
  }
  // An outcome the tool gives with no outcome record behind it must be one GuardKit logged otherwise (an orchestrator error).
  for (const task of run.tasks) {
    if (task.outcome === null || (task.outcome.value === 'error' && task.error != null)) continue
    const line = task.outcome.evidence[0]?.line
    if (line !== undefined && !located.some((r) => r.line === line)) t.misses.push(`${log}:${line} ${task.taskId}: an outcome (${task.outcome.value}) with no outcome record`)
  }
  return t
}

/** The maintainers' failed task runs, in order per task: each matched by the tool's run of that task. */
export function checkLabels(log: string, labels: readonly Label[], run: RunRecord): Tally {
  const t = tally()
  const document = notACapture(run)
  if (document !== null) {
    for (const l of labels) {
      t.expected++
      t.explained++
      t.notes.push(`${log} ${l.taskId} (run ${l.attempt} of the task): quoted by a document the ingest does not read as a capture`)
    }
    return t
  }
  const byTask = new Map<string, Label[]>()
  for (const l of [...labels].sort((a, b) => a.attempt - b.attempt)) byTask.set(l.taskId, [...(byTask.get(l.taskId) ?? []), l])
  for (const [taskId, list] of byTask) {
    const runs = run.tasks.filter((x) => x.taskId === taskId)
    let next = 0
    let last: TaskRun | null = null
    for (const l of list) {
      t.expected++
      const what = `${log} ${taskId} (run ${l.attempt} of the task): ${l.outcome}/${l.turns}`
      const at = runs.findIndex((x, i) => i >= next && matches(x, l))
      if (at !== -1) {
        t.recovered++
        last = runs[at]!
        next = at + 1
        continue
      }
      if (last !== null && reprinted(run) && matches(last, l)) {
        t.explained++
        t.notes.push(`${what}: the same run printed again, read once`)
        continue
      }
      const killed = runs.slice(next).find((x) => x.outcome === null && x.events.some((e) => e.kind === 'other' && e.name === 'run-killed' && e.turn === l.turns))
      if (killed !== undefined && l.outcome !== null) {
        t.explained++
        t.notes.push(`${what}: stopped from outside GuardKit at turn ${l.turns} (no outcome record; the label's outcome is the reviewer's reading)`)
        next = runs.indexOf(killed) + 1
        continue
      }
      const seen = runs.slice(next).map((x) => `${x.outcome?.value ?? null}/${x.turnCount?.value ?? null}`).join(', ')
      t.misses.push(`${what}: not recovered (runs of the task from here: ${seen || 'none'})`)
    }
  }
  return t
}

function matches(task: TaskRun, l: Label): boolean {
  return (task.outcome?.value ?? null) === l.outcome && (task.turnCount?.value ?? null) === l.turns
}

/** The era a run is placed in, for grouping (docs/era-markers.md "Timeline"). */
export function eraLabel(run: RunRecord): string {
  if (notACapture(run) !== null) return 'not a capture'
  const p = placeRun(run)
  return p === null ? 'era not determined' : p.label
}

/** The per-era table: logs, outcome records and failed tasks recovered (and accounted for by rule). */
export function eraTable(checks: readonly LogCheck[]): string {
  const order = ['December 2025', 'late January 2026', 'February 2026', 'March 2026', 'June 2026', 'July 2026']
  const rank = (era: string) => {
    const i = order.findIndex((o) => era.startsWith(o))
    return i === -1 ? order.length : i
  }
  const eras = [...new Set(checks.map((c) => c.era))].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1))
  const cell = (xs: Tally[]) => {
    const e = xs.reduce((n, x) => n + x.expected, 0)
    const r = xs.reduce((n, x) => n + x.recovered, 0)
    const k = xs.reduce((n, x) => n + x.explained, 0)
    return `${r + k}/${e}${k > 0 ? ` (${k} by rule)` : ''}`
  }
  const rows = eras.map((era) => {
    const cs = checks.filter((c) => c.era === era)
    return [era, String(cs.length), cell(cs.map((c) => c.outcomes)), cell(cs.map((c) => c.labels))]
  })
  rows.push(['all', String(checks.length), cell(checks.map((c) => c.outcomes)), cell(checks.map((c) => c.labels))])
  const head = ['GuardKit era', 'logs', 'outcome records recovered', 'failed tasks (labels) recovered']
  const width = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => c.padEnd(width[i]!)).join(' | ')} |`
  return [line(head), `|${width.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n')
}
