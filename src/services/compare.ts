import {compareRuns} from '../explain/compare/compare-runs.js'
import {UsageError} from '../shared/errors.js'
import {analyzeRunPath} from './analyze.js'
import type {Presentable} from '../render/present.js'

export interface CompareOptions {
  readonly tool: {readonly name: string; readonly version: string}
  /** Only this task (`TASK-DB-003` or `DB-003`). */
  readonly task?: string
}

/**
 * `guardkit-replay compare RUN_A RUN_B`: both runs through the spine, `analyzeRun` (their era,
 * legacy and fixed, for the findings; no whatif), then paired task by task.
 */
export async function runCompare(a: string, b: string, options: CompareOptions): Promise<Presentable & {readonly kind: 'compare'}> {
  const common = {tool: options.tool, names: [], with: [], without: [], whatif: false}
  const [ra, rb] = await Promise.all([analyzeRunPath(a, common), analyzeRunPath(b, common)])
  const taskId = options.task === undefined ? null : normaliseTaskId(options.task)
  if (taskId !== null && ![...ra.tasks, ...rb.tasks].some((t) => t.task.taskId === taskId)) {
    const ids = [...new Set([...ra.tasks, ...rb.tasks].map((t) => t.task.taskId))]
    throw new UsageError(`Neither run holds ${taskId}.`, `The runs hold ${ids.join(', ') || 'no task'}.`)
  }
  return {kind: 'compare', report: compareRuns(ra, rb, {taskId, tool: options.tool})}
}

function normaliseTaskId(id: string): string {
  return id.startsWith('TASK-') ? id : `TASK-${id}`
}
