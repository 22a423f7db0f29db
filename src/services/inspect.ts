import type {RunRecord} from '../model/run-record.js'
import {buildReport, type ReportTool} from '../render/json/build-report.js'
import type {Report} from '../render/json/report.js'
import type {Presentable} from '../render/present.js'
import {createAttemptBytes, DRAWN_MEMORY_BYTES} from './attempt-bytes.js'
import {loadRunContent, readRunStreamed, type LoadRunOptions} from './load-run.js'

export interface InspectResult {
  readonly run: RunRecord
  /** The contract's report without `replay` and `findings`. */
  readonly report: Report
  /** What the command presents. */
  readonly result: Presentable & {readonly kind: 'inspect'}
}

/**
 * `inspect RUN`: ingest only. Fails (exit 2) only when RUN holds no run — no logged AutoBuild run
 * and no task artifacts (loadRunContent); anything partly bad is reported as issues.
 */
export async function runInspect(runPath: string, tool: ReportTool, options: LoadRunOptions = {}): Promise<InspectResult> {
  const run = await loadRunContent(runPath, options)
  const report = buildReport(run, tool)
  return {run, report, result: {kind: 'inspect', report}}
}

/**
 * `inspect RUN --json`: the document drawn a task run at a time when RUN is logs only
 * (docs/architecture.md "Streaming"); the same document as `runInspect`'s. A task run's part of the
 * document needs nothing but the task run, so each attempt's are drawn as the attempt ends and only
 * their text waits (attempt-bytes.ts) for the head of the document, which needs the whole log.
 */
export async function runInspectJson(runPath: string, tool: ReportTool, options: LoadRunOptions = {}): Promise<{readonly result: Presentable & {readonly kind: 'inspect' | 'inspect-stream'}}> {
  const {drawInspectTasks} = await import('../render/json/json-chunks.js')
  const drawn = createAttemptBytes(DRAWN_MEMORY_BYTES, 'inspect-tasks.json')
  const read = await readRunStreamed(runPath, options, {
    add(attempt, tasks) {
      if (tasks.length > 0) drawn.add(attempt.attempt, Buffer.from(drawInspectTasks(tasks), 'utf8'))
    },
    close: () => drawn.close(),
  })
  if ('whole' in read) return {result: {kind: 'inspect', report: buildReport(read.whole, tool)}}
  const run = read.streamed
  // the bytes as they were drawn: written out without being decoded and encoded again
  return {result: {kind: 'inspect-stream', run, tool, drawn: drawn.drain(run.attempts.map((a) => a.attempt))}}
}
