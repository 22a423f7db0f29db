import type {Evidence} from '../../model/evidence.js'
import type {TaskEvent, TaskRun} from '../../model/run-record.js'
import {draft, formatTurns, plural, type FamilyInput, type FindingDraft} from '../draft.js'
import {turnTimes} from '../record-facts.js'

type GraphitiError = Extract<TaskEvent, {kind: 'graphiti-error'}>

const KIND_TEXT: Record<GraphitiError['errorKind'], string> = {
  connection: 'connection errors',
  'event-loop': '"bound to a different event loop" / destroyed-task errors',
  'no-running-loop': '"no running event loop" errors',
  other: 'other knowledge-graph errors',
}

/** A line that reports the client's change of state, not a failure: the circuit breaker tripping. */
const STATE_CHANGE = /disabled after \d+ consecutive failures|continuing without knowledge graph/i
/**
 * Lines that report again a failure logged on its own line: the client's `Search request failed: …` quotes the
 * driver's query error, and asyncio's `Task exception was never retrieved` the exception of a task already logged.
 */
const ECHO = /^Search request failed|Task exception was never retrieved/

/**
 * GRAPHITI_CONNECTION_DEGRADED (docs/findings.md; fixtures/runs/ac1a-run1-pre-acr): knowledge-graph
 * (Graphiti/FalkorDB) connection and asyncio event-loop error lines, counted per kind and per turn, with what
 * they cost in turn time when the progress records carry timestamps. Certain: the error records are in the
 * log. They are counted as lines, not as calls: one failed query is logged by the driver and again by the
 * client or asyncio. The circuit breaker's line is a change of state, not a failure. The lines carry no time
 * of their own (ingest dates them by the last timestamped line before them), so no duration is given from
 * them. Ingest keeps 40 per task and counts the rest; parallel tasks share one client, so the records are
 * attributed to the task that was logging last.
 */
export function detectInfrastructureFindings(input: FamilyInput): FindingDraft[] {
  const all = input.task.events.filter((e): e is GraphitiError => e.kind === 'graphiti-error')
  const breaker = all.find((e) => STATE_CHANGE.test(lineText(e)))
  const errors = all.filter((e) => !STATE_CHANGE.test(lineText(e)))
  const serious = errors.filter((e) => e.errorKind !== 'other')
  if (serious.length === 0) return []
  const uncounted = cappedCount(input.task)
  const byKind = new Map<GraphitiError['errorKind'], number>()
  for (const e of errors) byKind.set(e.errorKind, (byKind.get(e.errorKind) ?? 0) + 1)
  const turns = [...new Set(errors.map((e) => e.turn).filter((t): t is number => t !== null && t >= 1))].sort((a, b) => a - b)
  const perTurn = turns.map((t) => ({turn: t, errors: errors.filter((e) => e.turn === t).length}))
  const latency = turnLatency(input.task, new Set(turns))
  const runTotal = input.run.tasks
    .filter((t) => t.attempt === input.task.attempt)
    .reduce((n, t) => n + t.events.filter((e) => e.kind === 'graphiti-error' && !STATE_CHANGE.test(lineText(e))).length + cappedCount(t), 0)
  const total = errors.length + uncounted
  const echoes = errors.filter((e) => ECHO.test(lineText(e))).length
  const onlyCleanup = serious.every((e) => e.errorKind === 'no-running-loop')
  const kinds = [...byKind.entries()].map(([k, n]) => `${n} ${KIND_TEXT[k]}`).join(', ')
  const repeated = echoes > 0 ? `; ${echoes} of them repeat a failure logged on another line (\`Search request failed\`, \`Task exception was never retrieved\`), so the failed calls are fewer than the lines` : ''
  // the breaker's line says the client stopped for now, not for good: a later GuardKit resets it (`Circuit breaker reset
  // after …`), and error lines after it are the record that the client was back
  const after = breaker === undefined ? [] : errors.filter((e) => isAfter(e, breaker))
  const resumed = after[0]?.evidence[0]
  const tripped = breaker
    ? `; the client then stopped after repeated failures${breaker.turn !== null ? ` (turn ${breaker.turn})` : ''}${resumed === undefined ? '' : `, and error lines follow it (${resumed.file}:${resumed.line ?? '?'}), so it was not off for the rest of the run`}`
    : ''
  const cost = latency ? `; turn time ${formatMinutes(latency.withErrors)} on average with errors, ${formatMinutes(latency.without)} without` : ''
  return [
    draft(input, {
      code: 'GRAPHITI_CONNECTION_DEGRADED',
      severity: onlyCleanup ? 'low' : 'medium',
      turns,
      message: onlyCleanup
        ? `Knowledge-graph cleanup failed with "no running event loop" (${plural(total, 'error line')}): the graph client was closed from another thread's loop; the turns themselves were not affected.`
        : `The log holds ${plural(total, 'knowledge-graph (Graphiti/FalkorDB) error line')}${turns.length ? ` during ${formatTurns(turns)}` : ''} (${kinds}${uncounted ? `, ${uncounted} more not kept` : ''}${repeated}): Player and Coach context was loaded degraded or not at all${tripped}${cost}.`,
      evidence: [...evidenceSample(errors), ...(breaker?.evidence ?? [])],
      remediation: 'Check that FalkorDB is reachable from the build machine; run the feature with Graphiti disabled (it only adds context) or with fewer parallel tasks; GuardKit 98ee6962+ keeps each thread\'s event loop for cleanup.',
      fixedIn: null,
      source: {function: 'AutoBuildOrchestrator._cleanup_thread_loaders / _capture_turn_state, GraphitiClient', spec: 'seed 003 F3 (not modelled, §2 S003)'},
      detail: {
        total,
        byKind: Object.fromEntries(byKind),
        perTurn,
        uncounted,
        repeatLines: echoes,
        runTotal,
        turnMinutes: latency,
        disabledAtTurn: breaker ? breaker.turn : null,
      },
    }),
  ]
}

/** `e` was logged after `before`, in the same file. */
function isAfter(e: TaskEvent, before: TaskEvent): boolean {
  const a = e.evidence[0]
  const b = before.evidence[0]
  return a !== undefined && b !== undefined && a.file === b.file && (a.line ?? 0) > (b.line ?? 0)
}

/** What the error line says (ingest keeps it as the evidence's note). */
function lineText(e: TaskEvent): string {
  return e.evidence.map((x) => x.note ?? x.text ?? '').join('\n')
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
