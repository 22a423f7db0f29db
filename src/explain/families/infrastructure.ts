import type {Evidence} from '../../model/evidence.js'
import type {TaskEvent, TaskRun} from '../../model/run-record.js'
import {draft, formatTurns, plural, type FamilyInput, type FindingDraft} from '../draft.js'
import {parseTime, turnTimes} from '../record-facts.js'

type GraphitiError = Extract<TaskEvent, {kind: 'graphiti-error'}>

const KIND_TEXT: Record<GraphitiError['errorKind'], string> = {
  connection: 'connection errors',
  'event-loop': '"bound to a different event loop" / destroyed-task errors',
  'no-running-loop': '"no running event loop" errors',
  other: 'other knowledge-graph errors',
}

/**
 * GRAPHITI_CONNECTION_DEGRADED (docs/findings.md; fixtures/runs/ac1a-run1-pre-acr): knowledge-graph
 * (Graphiti/FalkorDB) connection and asyncio event-loop errors, counted per kind, per turn and over time,
 * with what they cost in turn time when the records carry timestamps. Certain: the error records are in
 * the log. Ingest keeps 40 per task and counts the rest; parallel tasks share one client, so the records
 * are attributed to the task that was logging last.
 */
export function detectInfrastructureFindings(input: FamilyInput): FindingDraft[] {
  const errors = input.task.events.filter((e): e is GraphitiError => e.kind === 'graphiti-error')
  const serious = errors.filter((e) => e.errorKind !== 'other')
  if (serious.length === 0) return []
  const uncounted = cappedCount(input.task)
  const byKind = new Map<GraphitiError['errorKind'], number>()
  for (const e of errors) byKind.set(e.errorKind, (byKind.get(e.errorKind) ?? 0) + 1)
  const turns = [...new Set(errors.map((e) => e.turn).filter((t): t is number => t !== null && t >= 1))].sort((a, b) => a - b)
  const perTurn = turns.map((t) => ({turn: t, errors: errors.filter((e) => e.turn === t).length}))
  const times = errors.map((e) => parseTime(e.timestamp)).filter((t): t is number => t !== null)
  const span = times.length >= 2 ? {first: Math.min(...times), last: Math.max(...times)} : null
  const latency = turnLatency(input.task, new Set(turns))
  const runTotal = input.run.tasks
    .filter((t) => t.attempt === input.task.attempt)
    .reduce((n, t) => n + t.events.filter((e) => e.kind === 'graphiti-error').length + cappedCount(t), 0)
  const total = errors.length + uncounted
  const onlyCleanup = serious.every((e) => e.errorKind === 'no-running-loop')
  const kinds = [...byKind.entries()].map(([k, n]) => `${n} ${KIND_TEXT[k]}`).join(', ')
  const overTime = span ? ` over ${formatMinutes((span.last - span.first) / 60000)}` : ''
  const breaker = errors.find((e) => e.evidence.some((x) => /disabled after \d+ consecutive failures/.test(x.note ?? '')))
  const tripped = breaker ? `; after that the client was disabled for the rest of the run${breaker.turn !== null ? ` (turn ${breaker.turn})` : ''}` : ''
  const cost = latency ? `; turn time ${formatMinutes(latency.withErrors)} on average with errors, ${formatMinutes(latency.without)} without` : ''
  return [
    draft(input, {
      code: 'GRAPHITI_CONNECTION_DEGRADED',
      severity: onlyCleanup ? 'low' : 'medium',
      turns,
      message: onlyCleanup
        ? `Knowledge-graph cleanup failed with "no running event loop" (${plural(total, 'error')}): the graph client was closed from another thread's loop; the turns themselves were not affected.`
        : `Knowledge-graph (Graphiti/FalkorDB) calls failed ${total} times${turns.length ? ` during ${formatTurns(turns)}` : ''}${overTime} (${kinds}${uncounted ? `, ${uncounted} more not kept` : ''}): Player and Coach context was loaded degraded or not at all${tripped}${cost}.`,
      evidence: evidenceSample(errors),
      remediation: 'Check that FalkorDB is reachable from the build machine; run the feature with Graphiti disabled (it only adds context) or with fewer parallel tasks; GuardKit 98ee6962+ keeps each thread\'s event loop for cleanup.',
      fixedIn: null,
      source: {function: 'AutoBuildOrchestrator._cleanup_thread_loaders / _capture_turn_state, GraphitiClient', spec: 'seed 003 F3 (not modelled, §2 S003)'},
      detail: {
        total,
        byKind: Object.fromEntries(byKind),
        perTurn,
        uncounted,
        runTotal,
        firstAt: span ? new Date(span.first).toISOString().slice(0, 19) : null,
        lastAt: span ? new Date(span.last).toISOString().slice(0, 19) : null,
        turnMinutes: latency,
        disabledAtTurn: breaker ? breaker.turn : null,
      },
    }),
  ]
}

function cappedCount(task: TaskRun): number {
  const capped = task.events.find((e) => e.kind === 'other' && e.name === 'events-capped')
  const m = capped?.kind === 'other' ? /(\d+) more knowledge-graph errors/.exec(capped.detail) : null
  return m ? Number(m[1]) : 0
}

/** First, last and one per turn in between (the rest are counted in the detail). */
function evidenceSample(errors: readonly GraphitiError[]): Evidence[] {
  const picked: GraphitiError[] = []
  const seenTurns = new Set<number | null>()
  for (const e of errors) {
    if (!seenTurns.has(e.turn)) {
      picked.push(e)
      seenTurns.add(e.turn)
    }
  }
  const last = errors[errors.length - 1]
  if (last && !picked.includes(last)) picked.push(last)
  return picked.slice(0, 10).flatMap((e) => e.evidence)
}

/** Mean turn duration (minutes) with and without knowledge-graph errors, when timestamps allow. */
function turnLatency(task: TaskRun, errorTurns: ReadonlySet<number>): {withErrors: number; without: number} | null {
  const times = turnTimes(task)
  const sorted = [...times.entries()].sort((a, b) => a[0] - b[0])
  const durations = new Map<number, number>()
  sorted.forEach(([turn, t], i) => {
    const prevEnd = i > 0 ? sorted[i - 1]![1].end : null
    const start = t.start ?? prevEnd
    if (start !== null && t.end !== null && t.end >= start) durations.set(turn, (t.end - start) / 60000)
  })
  const withE = [...durations].filter(([t]) => errorTurns.has(t)).map(([, d]) => d)
  const without = [...durations].filter(([t]) => !errorTurns.has(t)).map(([, d]) => d)
  if (withE.length === 0 || without.length === 0) return null
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
  return {withErrors: round1(mean(withE)), without: round1(mean(without))}
}

function round1(x: number): number {
  return Math.round(x * 10) / 10
}

export function formatMinutes(minutes: number): string {
  if (minutes < 1) return `${Math.round(minutes * 60)} s`
  return `${round1(minutes)} min`
}
