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
 * task-work results: {e}"}`, any other read error `Failed to read …`. The parse error text is JavaScript's, not Python's `JSONDecodeError`
 * (noted in `unknowns`); it only matters as feedback text.
 */
export function readTaskWorkResults(view: WorktreeView, taskId: string, unknowns: string[]): TaskWorkResultsRead {
  const path = autobuildPath(view, taskId, 'task_work_results.json')
  if (!view.exists(path)) return {kind: 'value', value: {error: `Task-work results not found at ${path}`}}
  if (view.isDir(path)) return {kind: 'value', value: {error: `Failed to read task-work results: [Errno 21] Is a directory: ${pyReprStr(path)}`}}
  const text = view.readText(path)
  if (text === null) return {kind: 'unknown', path}
  try {
    return {kind: 'value', value: JSON.parse(text) as unknown}
  } catch (error) {
    unknowns.push(`Python's JSONDecodeError text for ${path}`)
    return {kind: 'value', value: {error: `Failed to parse task-work results: ${(error as Error).message}`}}
  }
}
