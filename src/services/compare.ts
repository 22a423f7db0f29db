import {compareRuns} from '../explain/compare/compare-runs.js'
import {UsageError} from '../shared/errors.js'
import type {AnalysisReport} from '../explain/analysis.js'
import {analyzeRunPath} from './analyze.js'
import type {Presentable} from '../render/present.js'
import {neutralised} from '../shared/neutralise.js'

export interface CompareOptions {
  readonly tool: {readonly name: string; readonly version: string}
  /** Only this task (`TASK-DB-003` or `DB-003`). */
  readonly task?: string
  /** Compare runs of different features, or with no task in common (`--force`). */
  readonly force?: boolean
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
    throw new UsageError(neutralised`Neither run holds ${taskId}.`, `The runs hold ${ids.join(', ') || 'no task'}.`)
  }
  if (options.force !== true) checkRelated(a, b, ra, rb)
  return {kind: 'compare', report: compareRuns(ra, rb, {taskId, tool: options.tool})}
}

/**
 * Two runs of different features, or with no task in common, would compare as "every task only in
 * one run" — an answer that looks like a result (docs/ci.md "compare"). It is an input error unless
 * --force says it is meant.
 */
function checkRelated(a: string, b: string, ra: AnalysisReport, rb: AnalysisReport): void {
  const feature = (r: AnalysisReport) => r.feature?.featureId ?? r.run.attempts.find((x) => x.featureId !== null)?.featureId ?? null
  const [fa, fb] = [feature(ra), feature(rb)]
  const force = 'Try: compare two runs of the same feature or task, or add --force to compare these anyway.'
  if (fa !== null && fb !== null && fa !== fb) throw new UsageError(`${a} is a run of ${fa}, ${b} of ${fb}: compare pairs the tasks of two runs of the same feature.`, force)
  const ids = (r: AnalysisReport) => [...new Set(r.tasks.map((t) => t.task.taskId))]
  const [ia, ib] = [ids(ra), ids(rb)]
  if (ia.length > 0 && ib.length > 0 && !ia.some((id) => ib.includes(id))) {
    const list = (xs: string[]) => `${xs.slice(0, 4).join(', ')}${xs.length > 4 ? ` and ${xs.length - 4} more` : ''}`
    throw new UsageError(`${a} and ${b} share no task (${list(ia)} / ${list(ib)}): there is nothing to pair.`, force)
  }
}

function normaliseTaskId(id: string): string {
  return id.startsWith('TASK-') ? id : `TASK-${id}`
}
