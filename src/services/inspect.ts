import type {RunRecord} from '../model/run-record.js'
import {buildReport, type ReportTool} from '../render/json/build-report.js'
import type {Report} from '../render/json/report.js'
import type {Presentable} from '../render/present.js'
import {loadRunContent, loadRunStreamed, type LoadRunOptions} from './load-run.js'

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
 * (docs/architecture.md "Streaming"); the same document as `runInspect`'s.
 */
export async function runInspectJson(runPath: string, tool: ReportTool, options: LoadRunOptions = {}): Promise<{readonly result: Presentable & {readonly kind: 'inspect' | 'inspect-stream'}}> {
  const read = await loadRunStreamed(runPath, options)
  if ('whole' in read) return {result: {kind: 'inspect', report: buildReport(read.whole, tool)}}
  const {run, spill} = read.streamed
  function* tasks() {
    try {
      for (const attempt of run.attempts) yield* spill.take(attempt.attempt)
    } finally {
      spill.close()
    }
  }
  return {result: {kind: 'inspect-stream', run, tool, tasks: tasks()}}
}
