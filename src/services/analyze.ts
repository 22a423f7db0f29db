import type {AnalysisReport} from '../explain/analysis.js'
import type {Profile} from '../logic/profiles.js'
import type {RunRecord} from '../model/run-record.js'
import type {Report} from '../render/json/report.js'
import type {EraInference} from '../replay/types.js'
import {UsageError} from '../shared/errors.js'
import {CAPTURE_HINT, loadRun, type LoadRunOptions} from './load-run.js'
import {createProgress, type Progress} from './progress.js'
import {chooseProfiles, outputWidth, terminalPalette, type OutputFormat, type ProfileChoice, type ProfileRequest} from './run-options.js'

export interface AnalyzeOptions extends ProfileRequest, LoadRunOptions {
  readonly tool: {readonly name: string; readonly version: string}
  readonly format: OutputFormat
  readonly verbose?: boolean
  /** Search the logic changes that flip each task (whatif); analyze leaves it off for speed. */
  readonly whatif?: boolean
  readonly progress?: Progress
}

export interface AnalyzeResult {
  readonly report: AnalysisReport
  /** The contract's JSON document (format json), else null. */
  readonly json: Report | null
  /** The report as text or Markdown ('' for format json: print `json`). */
  readonly output: string
}

/**
 * The replay pipeline, injected so that tests can hand in their own: era inference, then one
 * replay per task and profile, the findings, the verdicts and (on request) the whatif search.
 */
export interface Pipeline {
  inferEra(run: RunRecord): EraInference
  analyze(run: RunRecord, input: {era: EraInference; profiles: readonly Profile[]; whatif: boolean; tool: AnalyzeOptions['tool']}): AnalysisReport
}

/** `guardkit-replay RUN`: read RUN, replay every task under the chosen profiles, explain, render. */
export async function runAnalyze(runPath: string, options: AnalyzeOptions, pipeline?: Pipeline): Promise<AnalyzeResult> {
  const report = await analyzeRunPath(runPath, options, pipeline)
  return {report, ...(await renderAnalysis(report, options))}
}

/** RUN → AnalysisReport: the part `analyze`, `explain` and `whatif` share. */
export async function analyzeRunPath(runPath: string, options: Omit<AnalyzeOptions, 'format'>, pipeline?: Pipeline): Promise<AnalysisReport> {
  const progress = options.progress ?? createProgress()
  try {
    const choice = await chooseProfiles(options)
    progress.step(`reading ${runPath} …`)
    const run = await loadRun(runPath, options)
    requireRecognisable(run, runPath)
    const replay = pipeline ?? (await loadPipeline(choice.user))
    const era = replay.inferEra(run)
    const profiles = choice.resolve(era.modelled ? era.profile : null)
    progress.step(`replaying ${run.tasks.length} task${run.tasks.length === 1 ? '' : 's'} under ${profiles.map((p) => p.name).join(', ')} …`)
    return replay.analyze(run, {era, profiles, whatif: options.whatif ?? false, tool: options.tool})
  } finally {
    progress.done()
  }
}

async function renderAnalysis(report: AnalysisReport, options: AnalyzeOptions): Promise<Omit<AnalyzeResult, 'report'>> {
  switch (options.format) {
    case 'json': {
      const {buildAnalysisReport} = await import('../render/json/build-analysis-report.js')
      const json = buildAnalysisReport(report)
      return {json, output: ''}
    }
    case 'md': {
      const {renderAnalyzeMarkdown} = await import('../render/markdown/analyze.js')
      return {json: null, output: renderAnalyzeMarkdown(report, {verbose: options.verbose})}
    }
    case 'text': {
      const [{renderAnalyzeText}, palette] = await Promise.all([import('../render/text/analyze.js'), terminalPalette()])
      return {json: null, output: renderAnalyzeText(report, {palette, width: outputWidth(), verbose: options.verbose})}
    }
  }
}

/** RUN must hold something to analyse: a log with an AutoBuild run, or a worktree (exit 2 otherwise). */
function requireRecognisable(run: RunRecord, runPath: string): void {
  if (run.logs.length === 0 && run.worktrees.length === 0) {
    throw new UsageError(`No AutoBuild log found in ${runPath}.`, CAPTURE_HINT)
  }
  if (run.attempts.length === 0 && run.tasks.length === 0 && run.worktrees.length === 0) {
    const why = run.ingestIssues.slice(0, 5).map((i) => `  ${i.file}${i.line === undefined ? '' : `:${i.line}`}: ${i.message}`)
    throw new UsageError([`Nothing recognisable in ${runPath}: no AutoBuild run was found in ${run.logs.join(', ')}.`, ...why].join('\n'), CAPTURE_HINT)
  }
}

async function loadPipeline(user: ProfileChoice['user']): Promise<Pipeline> {
  const {createPipeline} = await import('./pipeline.js')
  return createPipeline(user)
}
