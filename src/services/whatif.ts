import type {AnalysisReport, TaskAnalysis} from '../explain/analysis.js'
import type {Report} from '../render/json/report.js'
import {analyzeRunPath, type AnalyzeOptions, type Pipeline} from './analyze.js'
import {findTask} from './explain.js'
import {outputWidth, terminalPalette} from './run-options.js'

export interface WhatIfOptions extends Omit<AnalyzeOptions, 'whatif' | 'verbose'> {
  readonly task?: string
  readonly attempt?: number
}

export interface WhatIfResult {
  readonly report: AnalysisReport
  readonly tasks: readonly TaskAnalysis[]
  readonly json: Report | null
  readonly output: string
}

/** `whatif RUN [--task ID]`: which logic changes, alone or in the smallest combination, flip each task. */
export async function runWhatIf(runPath: string, options: WhatIfOptions, pipeline?: Pipeline): Promise<WhatIfResult> {
  const report = await analyzeRunPath(runPath, {...options, whatif: true}, pipeline)
  const tasks = options.task === undefined ? report.tasks : [findTask(report, options.task, options.attempt, runPath)]
  switch (options.format) {
    case 'json': {
      const {buildAnalysisReport} = await import('../render/json/build-analysis-report.js')
      const only = tasks.length === 1 && options.task !== undefined ? tasks[0]! : null
      const focus = {command: 'whatif' as const, taskId: only?.task.taskId ?? null, attempt: only?.task.attempt ?? null, turn: null, profiles: report.profiles.map((p) => p.name)}
      return {report, tasks, json: buildAnalysisReport(report, {tasks, focus}), output: ''}
    }
    case 'md': {
      const {renderWhatIfMarkdown} = await import('../render/markdown/whatif.js')
      return {report, tasks, json: null, output: renderWhatIfMarkdown(report, tasks)}
    }
    case 'text': {
      const [{renderWhatIfText}, palette] = await Promise.all([import('../render/text/whatif.js'), terminalPalette()])
      return {report, tasks, json: null, output: renderWhatIfText(report, tasks, {palette, width: outputWidth()})}
    }
  }
}
