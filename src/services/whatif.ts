import type {Presentable} from '../render/present.js'
import {analyzeRunPath, type AnalyzeOptions} from './analyze.js'
import {findTask} from './explain.js'

export interface WhatIfOptions extends Omit<AnalyzeOptions, 'whatif' | 'verbose' | 'format'> {
  readonly task?: string
  readonly attempt?: number
}

/** `whatif RUN [--task ID]`: which logic changes, alone or in the smallest combination, flip each task. */
export async function runWhatIf(runPath: string, options: WhatIfOptions): Promise<Presentable & {readonly kind: 'whatif'}> {
  const report = await analyzeRunPath(runPath, {...options, whatif: true})
  const only = options.task === undefined ? null : findTask(report, options.task, options.attempt, runPath)
  return {kind: 'whatif', report, tasks: only === null ? report.tasks : [only], only}
}
