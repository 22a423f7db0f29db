import type {RunRecord} from '../model/run-record.js'
import {buildReport, type ReportTool} from '../render/json/build-report.js'
import type {Report} from '../render/json/report.js'
import {UsageError} from '../shared/errors.js'
import {CAPTURE_HINT, loadRun, type LoadRunOptions} from './load-run.js'

export interface InspectResult {
  readonly run: RunRecord
  /** The contract's report without `replay` and `findings`. */
  readonly report: Report
}

/**
 * `inspect RUN`: ingest only. Fails (exit 2) only when RUN holds nothing usable — no log at all,
 * or logs in which no AutoBuild run was recognised; anything partly bad is reported as issues.
 */
export async function runInspect(runPath: string, tool: ReportTool, options: LoadRunOptions = {}): Promise<InspectResult> {
  const run = await loadRun(runPath, options)
  if (run.logs.length === 0 && run.worktrees.length === 0) {
    throw new UsageError(`No AutoBuild log found in ${runPath}.`, CAPTURE_HINT)
  }
  if (run.attempts.length === 0 && run.tasks.length === 0 && run.worktrees.length === 0) {
    const why = run.ingestIssues.slice(0, 5).map((i) => `  ${i.file}${i.line === undefined ? '' : `:${i.line}`}: ${i.message}`)
    throw new UsageError([`Nothing recognisable in ${runPath}: no AutoBuild run was found in ${run.logs.join(', ')}.`, ...why].join('\n'), CAPTURE_HINT)
  }
  return {run, report: buildReport(run, tool)}
}
