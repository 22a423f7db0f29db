import {changeById, type LogicFlags} from '../changes.js'
import {LOGGERS, type LogSink} from '../log-sink.js'
import {completionPromiseFromDict} from './completion-promise.js'
import {formatPyException, type PyExceptionValue} from './py-exception.js'
import type {FeatureTaskResult} from './feature-timeout.js'
import {asArray, asObject} from './turn-outcome.js'

/** An exception escaping `orchestrate()`, and what FeatureOrchestrator records for the task. */
export interface OrchestrationCrash {
  /** `OrchestrationError: Orchestration failed: {e}` */
  readonly raises: string
  readonly featureResult: FeatureTaskResult
}

/**
 * `orchestrate()` catching an exception from `_loop_phase` (docs/guardkit-logic.md §8.7 "(exception)" row): ERROR
 * `Orchestration failed for {task_id}: {e}`, re-raised as `OrchestrationError`, recorded by
 * FeatureOrchestrator as `final_decision: "error"`, `total_turns: 0`.
 */
export function crashOrchestration(taskId: string, exception: PyExceptionValue, log: LogSink): OrchestrationCrash {
  log.emit('ERROR', LOGGERS.autobuild, `Orchestration failed for ${taskId}: ${exception.message}`)
  const error = `Orchestration failed: ${exception.message}`
  return {
    raises: formatPyException({type: 'OrchestrationError', message: error}),
    featureResult: {final_decision: 'error', success: false, total_turns: 0, error},
  }
}

/** Whether a player report's promises crash the progress display, and what the fixed code does instead. */
export type DisplayCrashCheck =
  | {readonly kind: 'crash'; readonly crash: OrchestrationCrash}
  | {readonly kind: 'accepted'; readonly statuses: readonly string[]; readonly sinceCommit: string}

/**
 * The legacy display crash end to end (docs/guardkit-logic.md §8.6, D31): a `partial` (or any unknown) promise status
 * reaching `_display_criteria_progress` fails the whole task as `error`.
 */
export function checkDisplayCrash(taskId: string, promises: unknown, flags: LogicFlags, log: LogSink): DisplayCrashCheck {
  const statuses: string[] = []
  for (const p of asArray(promises)) {
    const parsed = completionPromiseFromDict(asObject(p) ?? {}, flags, log)
    if (!parsed.ok) return {kind: 'crash', crash: crashOrchestration(taskId, parsed.exception, log)}
    statuses.push(parsed.value.status)
  }
  return {kind: 'accepted', statuses, sinceCommit: changeById('partialStatusEnum').commit}
}
