import type {LogicFlags} from '../changes.js'
import type {LogSink} from '../log-sink.js'
import {PyException} from '../python/builtins.js'
import {pyTruthy} from '../python/strings.js'
import type {WorktreeView} from '../worktree.js'
import type {ImplementationMode} from '../../model/outcome.js'
import {autoDetectDirectMode, type AutoDetectReason} from './auto-detect-direct-mode.js'
import {loadTask, type TaskData} from './task-loader.js'

export type ModeSource =
  | {readonly kind: 'frontmatter'; readonly value: unknown}
  | {readonly kind: 'auto-detect'; readonly reason: AutoDetectReason}
  | {readonly kind: 'task-not-found'}
  | {readonly kind: 'error'; readonly exception: string}

export interface ImplementationModeResult {
  readonly mode: ImplementationMode
  readonly source: ModeSource
  /** The task as loaded, when it could be. */
  readonly task: TaskData | null
}

/**
 * `AgentInvoker._get_implementation_mode(task_id)` (docs/guardkit-logic.md §9.2): the task file is loaded from the
 * worktree; frontmatter `implementation_mode: direct` → direct, `task-work` or any other truthy
 * value → task-work, absent/falsy → `_auto_detect_direct_mode`; any failure → task-work.
 */
export function getImplementationMode(taskId: string, worktree: WorktreeView, flags: LogicFlags, log: LogSink): ImplementationModeResult {
  const loaded = loadTask(taskId, worktree, flags)
  if (!loaded.ok) {
    return {mode: 'task-work', source: loaded.notFound ? {kind: 'task-not-found'} : {kind: 'error', exception: loaded.exception}, task: null}
  }
  const task = loaded.task
  const explicit = task.frontmatter['implementation_mode']
  if (pyTruthy(explicit)) return {mode: explicit === 'direct' ? 'direct' : 'task-work', source: {kind: 'frontmatter', value: explicit}, task}
  try {
    const detected = autoDetectDirectMode(taskId, {frontmatter: task.frontmatter, content: task.content}, flags, log)
    return {mode: detected.mode, source: {kind: 'auto-detect', reason: detected.reason}, task}
  } catch (error) {
    if (error instanceof PyException) return {mode: 'task-work', source: {kind: 'error', exception: error.text}, task}
    throw error
  }
}
