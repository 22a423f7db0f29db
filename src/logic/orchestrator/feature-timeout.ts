import {LOGGERS, type LogSink} from '../log-sink.js'
import {pyFloorDiv, pyStrNumber} from '../python/format.js'

/** FeatureOrchestrator's per-task wall clock (`task_timeout`, docs/guardkit-logic.md §8.7); the same in both versions. */
export const DEFAULT_TASK_TIMEOUT_SECONDS = 2400

/** The `TaskExecutionResult` FeatureOrchestrator records for a task, in its key order. */
export interface FeatureTaskResult {
  readonly final_decision: string
  readonly success: boolean
  readonly total_turns: number
  readonly error: string | null
}

/**
 * `asyncio.wait_for(..., timeout=task_timeout)` firing in FeatureOrchestrator (docs/guardkit-logic.md §8.7): the task
 * is recorded as `timeout` with 0 turns, whatever its thread does afterwards (it runs on until its
 * next cancellation check, and that result is discarded).
 */
export function featureTaskTimeout(taskId: string, taskTimeout: number, log: LogSink): FeatureTaskResult {
  // A float timeout floor-divides to a float: 2400.5 // 60 prints 40.0.
  const isFloat = !Number.isInteger(taskTimeout)
  const text = `Task ${taskId} timed out after ${pyStrNumber(taskTimeout)}s (${pyStrNumber(pyFloorDiv(taskTimeout, 60), isFloat)} min)`
  log.emit('WARNING', LOGGERS.featureOrchestrator, text)
  return {final_decision: 'timeout', success: false, total_turns: 0, error: text}
}
