import type {StreamedAnalysis} from '../../explain/analyze-run.js'
import type {RunRecord, TaskRun} from '../../model/run-record.js'
import {analysisTask, buildAnalysisReport} from './build-analysis-report.js'
import {buildReport, reportTask, type ReportTool} from './build-report.js'

/**
 * A JSON document written a task run at a time (docs/json-schema.md "Streaming"): the text is the
 * one `JSON.stringify(document, null, 2)` gives, byte for byte, with the keys in the same order.
 * Everything before `tasks` (run, ingestIssues) is known once the log is read; everything after it
 * is drawn when the last task run has been (attempts, markers, the feature pictures).
 */
export function* analysisJsonChunks(analysis: StreamedAnalysis): Generator<string> {
  const document = (rest: ReturnType<StreamedAnalysis['features']>) => buildAnalysisReport({...analysis.head, tasks: [], ...rest})
  yield* around(
    () => document({feature: null, features: []}),
    (function* () {
      for (const t of analysis.tasks()) yield analysisTask(t)
    })(),
    () => document(analysis.features()),
  )
}

/** `inspect --json` of a streamed run: `run` without its task runs, and the task runs in order. */
export function* inspectJsonChunks(run: RunRecord, tool: ReportTool, tasks: Iterable<TaskRun>): Generator<string> {
  const document = () => buildReport(run, tool)
  yield* around(document, (function* () {
    for (const t of tasks) yield reportTask(t)
  })(), document)
}

/** `JSON.stringify([[item]], null, 2)` is the item, indented two levels, between these. */
const NESTED_OPEN = '[\n  [\n    '
const NESTED_CLOSE = '\n  ]\n]'

/** The key `tasks` of the top-level object, empty, as JSON.stringify indents it. */
const EMPTY_TASKS = '\n  "tasks": []'

/**
 * The document without tasks, cut at its empty `tasks` array, with the task runs written in
 * between. A string value never holds a raw line break (JSON escapes it), so the first
 * `\n  "tasks": []` is the top-level key: a nested one is indented further.
 */
function* around(head: () => unknown, items: Iterable<unknown>, tail: () => unknown): Generator<string> {
  const before = JSON.stringify(head(), null, 2)
  const cut = before.indexOf(EMPTY_TASKS)
  if (cut === -1) throw new Error('the document has no top-level tasks')
  yield before.slice(0, cut + EMPTY_TASKS.length - 1)
  let any = false
  for (const item of items) {
    // stringified two arrays deep, the item is indented as in the document, with no copy to re-indent it
    const nested = JSON.stringify([[item]], null, 2)
    yield `${any ? ',' : ''}\n    ${nested.slice(NESTED_OPEN.length, nested.length - NESTED_CLOSE.length)}`
    any = true
  }
  const after = JSON.stringify(tail(), null, 2)
  yield `${any ? '\n  ' : ''}${after.slice(after.indexOf(EMPTY_TASKS) + EMPTY_TASKS.length - 1)}`
}
