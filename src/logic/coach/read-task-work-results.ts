import {pyJsonLoads} from '../python/json-loads.js'
import {pyReprStr} from '../python/repr.js'
import type {WorktreeView} from '../worktree.js'
import {autobuildPath} from './worktree-fs.js'

/**
 * `task_work_results.json` as `validate()` receives it: the parsed file, or GuardKit's error dict
 * when it could not be read; `unknown` when the file exists but its content was not recorded.
 */
export type TaskWorkResultsRead = {readonly kind: 'value'; readonly value: unknown} | {readonly kind: 'unknown'; readonly path: string}

/**
 * `TaskWorkInterface.read_quality_gate_results(task_id)` (docs/guardkit-logic.md §6.1 step 1): a missing file gives
 * `{"error": "Task-work results not found at {path}"}`, bad JSON `{"error": "Failed to parse
 * task-work results: {e}"}` with `{e}` CPython's `JSONDecodeError` text (`Expecting value: line 1 column 1
 * (char 0)`), any other read error `Failed to read …`. The error becomes the Coach's feedback.
 */
export function readTaskWorkResults(view: WorktreeView, taskId: string, unknowns: string[]): TaskWorkResultsRead {
  const path = autobuildPath(view, taskId, 'task_work_results.json')
  if (!view.exists(path)) return {kind: 'value', value: {error: `Task-work results not found at ${path}`}}
  if (view.isDir(path)) return {kind: 'value', value: {error: `Failed to read task-work results: [Errno 21] Is a directory: ${pyReprStr(path)}`}}
  const text = view.readText(path)
  if (text === null) return {kind: 'unknown', path}
  const parsed = pyJsonLoads(text)
  if (parsed.ok) return {kind: 'value', value: parsed.value}
  // json.load raises RecursionError past ~1000 levels, which the reader does not catch: not modelled.
  if (parsed.error.recursion) unknowns.push(`${path} nests deeper than CPython's recursion limit`)
  return {kind: 'value', value: {error: `Failed to parse task-work results: ${parsed.error.text}`}}
}
