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
export function* analysisJsonChunks(analysis: StreamedAnalysis): Generator<string | Uint8Array> {
  yield* analysisJsonPieces({
    head: analysis.head,
    drawn: (function* () {
      for (const t of analysis.tasks()) yield drawItems([analysisTask(t)])
    })(),
    features: () => analysis.features(),
  })
}

/**
 * A streamed analysis whose task runs were drawn already (drawItems), an attempt's or a task run's a
 * piece, in the run's order: as text, or as its UTF-8 bytes (held in a file, they are written as they are read).
 */
export interface DrawnAnalysis {
  readonly head: StreamedAnalysis['head']
  readonly drawn: Iterable<string | Uint8Array>
  /** The feature pictures, once `drawn` has been iterated to its end. */
  features(): ReturnType<StreamedAnalysis['features']>
}

/** analysisJsonChunks of task runs drawn already. */
export function* analysisJsonPieces(analysis: DrawnAnalysis): Generator<string | Uint8Array> {
  const document = (rest: ReturnType<StreamedAnalysis['features']>) => buildAnalysisReport({...analysis.head, tasks: [], ...rest})
  yield* around(() => document({feature: null, features: []}), analysis.drawn, () => document(analysis.features()))
}

/**
 * `inspect --json` of a streamed run: `run` without its task runs, and the task runs in order, drawn
 * already (`drawInspectTasks`, one piece per attempt: a task run's part of the document needs
 * nothing but the task run, so it is drawn as soon as its attempt ends).
 */
export function* inspectJsonChunks(run: RunRecord, tool: ReportTool, drawn: Iterable<string | Uint8Array>): Generator<string | Uint8Array> {
  const document = () => buildReport(run, tool)
  yield* around(document, drawn, document)
}

/** One attempt's task runs as `inspect --json` draws them, for inspectJsonChunks. */
export function drawInspectTasks(tasks: readonly TaskRun[]): string {
  return drawItems(tasks.map(reportTask))
}

/** `JSON.stringify([[item]], null, 2)` is the item, indented two levels, between these. */
const NESTED_OPEN = '[\n  [\n    '
const NESTED_CLOSE = '\n  ]\n]'

/** The key `tasks` of the top-level object, empty, as JSON.stringify indents it. */
const EMPTY_TASKS = '\n  "tasks": []'

/**
 * Items of the top-level `tasks` array, drawn as `around` places them: each indented as in the
 * document, joined by the commas between them ('' for none).
 */
export function drawItems(items: readonly unknown[]): string {
  return items.map(drawItem).join(ITEM_SEPARATOR)
}

/** What stands between two items of the top-level `tasks` array. */
const ITEM_SEPARATOR = ',\n    '

function drawItem(item: unknown): string {
  // stringified two arrays deep, the item is indented as in the document, with no copy to re-indent it
  const nested = JSON.stringify([[item]], null, 2)
  return nested.slice(NESTED_OPEN.length, nested.length - NESTED_CLOSE.length)
}

/**
 * The document without tasks, cut at its empty `tasks` array, with the drawn task runs written in
 * between (`drawn`: pieces of drawItems, each one item or several, as text or UTF-8; an empty one adds nothing). A string value
 * never holds a raw line break (JSON escapes it), so the first `\n  "tasks": []` is the top-level
 * key: a nested one is indented further.
 */
function* around(head: () => unknown, drawn: Iterable<string | Uint8Array>, tail: () => unknown): Generator<string | Uint8Array> {
  const before = JSON.stringify(head(), null, 2)
  const cut = before.indexOf(EMPTY_TASKS)
  if (cut === -1) throw new Error('the document has no top-level tasks')
  yield before.slice(0, cut + EMPTY_TASKS.length - 1)
  let any = false
  for (const piece of drawn) {
    if (piece.length === 0) continue
    const separator = any ? ITEM_SEPARATOR : '\n    '
    if (typeof piece === 'string') yield `${separator}${piece}`
    else {
      yield separator
      yield piece
    }
    any = true
  }
  const after = JSON.stringify(tail(), null, 2)
  yield `${any ? '\n  ' : ''}${after.slice(after.indexOf(EMPTY_TASKS) + EMPTY_TASKS.length - 1)}`
}
