import {clonePyJson} from '../python/json-numbers.js'
import type {LogicFlags} from '../changes.js'
import {LOGGERS, type LogSink} from '../log-sink.js'
import {pyTruthy} from '../python/strings.js'
import {dictGet, jsonLen} from './json-input.js'
import type {PipelineTrace} from './trace.js'

const STEP = '_create_player_report_from_task_work:write-back'
const LIST_FIELDS = ['files_modified', 'files_created'] as const

/**
 * TASK-FIX-PIPELINE-DATA-LOSS Fix 3 (D11): after the player report is written, copy longer file
 * lists, `tests_written` and missing `completion_promises` into task_work_results.json, which the
 * Coach reads first. Returns the file after the step (the same object when nothing changed).
 * With the flag off the model still works out what the Coach is missing, for the explainer.
 */
export function writeBackResults(
  taskId: string,
  report: Readonly<Record<string, unknown>>,
  twr: Readonly<Record<string, unknown>>,
  flags: LogicFlags,
  sink: LogSink,
  trace: PipelineTrace,
): {readonly after: Record<string, unknown>; readonly updated: boolean} {
  const after: Record<string, unknown> = clonePyJson(twr) as Record<string, unknown>
  const changes: string[] = []
  for (const k of LIST_FIELDS) {
    if (jsonLen(report[k]) > jsonLen(dictGet(after, k, []))) {
      after[k] = clonePyJson(report[k])
      changes.push(k)
    }
  }
  if (pyTruthy(report.completion_promises) && !pyTruthy(dictGet(after, 'completion_promises', null))) {
    after.completion_promises = clonePyJson(report.completion_promises)
    changes.push('completion_promises')
  }
  if (jsonLen(report.tests_written) > jsonLen(dictGet(after, 'tests_written', []))) {
    after.tests_written = clonePyJson(report.tests_written)
    changes.push('tests_written')
  }
  if (changes.length === 0) return {after: twr as Record<string, unknown>, updated: false}
  // writeBackResults (D11)
  if (flags.writeBackResults) {
    sink.emit('INFO', LOGGERS.invoker, `Updated task_work_results.json with enriched data for ${taskId}`)
    for (const field of changes) {
      trace.push({step: STEP, kind: 'written-back', field, values: listOf(after[field]), flag: 'writeBackResults',
        message: `${field} from the player report was written back to task_work_results.json`})
    }
    return {after, updated: true}
  }
  for (const field of changes) {
    trace.push({step: STEP, kind: 'not-written-back', field, values: listOf(report[field]), flag: 'writeBackResults',
      message: `the player report has more ${field} than task_work_results.json, which the Coach reads first, and nothing copied them over`})
  }
  return {after: twr as Record<string, unknown>, updated: false}
}

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value]
}
