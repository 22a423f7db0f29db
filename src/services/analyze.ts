import type {AnalysisReport} from '../explain/analysis.js'
import type {Profile} from '../logic/profiles.js'
import type {RunRecord} from '../model/run-record.js'
import type {Report} from '../render/json/report.js'
import {PLAIN} from '../render/text/plain-palette.js'
import type {EraInference} from '../replay/types.js'
import {UsageError} from '../shared/errors.js'
import {loadRunContent, type LoadRunOptions} from './load-run.js'
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

/** analyze's formats: the shared ones and a self-contained HTML page. */
export type AnalyzeFormat = OutputFormat | 'html'

/** What `analyze` itself takes beyond what explain and whatif share. */
export interface AnalyzeRunOptions extends Omit<AnalyzeOptions, 'format'> {
  readonly format: AnalyzeFormat
  /** Write the report to this file instead of stdout (`--out FILE`). */
  readonly out?: string
  /** Redact names and secrets in the report (`--redact`; docs/recording-format.md "Redaction"). */
  readonly redact?: boolean
}

export interface AnalyzeResult {
  readonly report: AnalysisReport
  /** The contract's JSON document (format json), else null. */
  readonly json: Report | null
  /** The report as text, Markdown or HTML ('' for format json: print `json`). */
  readonly output: string
  /** Where `--out` wrote the report, and how many bytes. */
  readonly written?: {readonly path: string; readonly bytes: number}
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
export async function runAnalyze(runPath: string, options: AnalyzeRunOptions, pipeline?: Pipeline): Promise<AnalyzeResult> {
  const analysed = await analyzeRunPath(runPath, options, pipeline)
  // redacted before rendering, so every format (text, md, json, html) shows the same placeholders
  const report = options.redact === true ? (await import('./redaction.js')).redactReport(analysed) : analysed
  const rendered = await renderAnalysis(report, options)
  if (options.out === undefined) return {report, ...rendered}
  const written = await writeReport(options.out, rendered.json === null ? rendered.output : `${JSON.stringify(rendered.json, null, 2)}\n`)
  return {report, ...rendered, written}
}

/** `--out FILE`: the whole report, or nothing (a partial file would look like a report). */
async function writeReport(path: string, text: string): Promise<{path: string; bytes: number}> {
  const {rename, rm, writeFile} = await import('node:fs/promises')
  const temp = `${path}.${process.pid}.tmp`
  try {
    await writeFile(temp, text, 'utf8')
    await rename(temp, path)
  } catch (error) {
    await rm(temp, {force: true})
    const code = (error as NodeJS.ErrnoException).code
    const why = code === 'ENOENT' ? 'its folder does not exist' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'EISDIR' || code === 'ENOTEMPTY' ? 'it is a folder' : (error as Error).message
    throw new UsageError(`Cannot write ${path}: ${why}.`, 'Pass --out a file in a folder that exists and is writable.')
  }
  return {path, bytes: Buffer.byteLength(text)}
}

/** RUN → AnalysisReport: the part `analyze`, `explain` and `whatif` share. */
export async function analyzeRunPath(runPath: string, options: Omit<AnalyzeOptions, 'format'>, pipeline?: Pipeline): Promise<AnalysisReport> {
  const progress = options.progress ?? createProgress()
  try {
    const choice = await chooseProfiles(options)
    progress.step(`reading ${runPath} …`)
    const run = await loadRunContent(runPath, options)
    const replay = pipeline ?? (await loadPipeline(choice.user))
    const era = replay.inferEra(run)
    const profiles = choice.resolve(era.modelled ? era.profile : null)
    progress.step(`replaying ${run.tasks.length} task${run.tasks.length === 1 ? '' : 's'} under ${profiles.map((p) => p.name).join(', ')} …`)
    return replay.analyze(run, {era, profiles, whatif: options.whatif ?? false, tool: options.tool})
  } finally {
    progress.done()
  }
}

async function renderAnalysis(report: AnalysisReport, options: AnalyzeRunOptions): Promise<Omit<AnalyzeResult, 'report'>> {
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
    case 'html': {
      const {renderAnalyzeHtml} = await import('../render/html/analyze.js')
      return {json: null, output: renderAnalyzeHtml(report)}
    }
    case 'text': {
      // a file gets neither colour codes nor the terminal's width
      const [{renderAnalyzeText}, palette] = await Promise.all([import('../render/text/analyze.js'), options.out === undefined ? terminalPalette() : PLAIN])
      return {json: null, output: renderAnalyzeText(report, {palette, width: options.out === undefined ? outputWidth() : 100, verbose: options.verbose})}
    }
  }
}

async function loadPipeline(user: ProfileChoice['user']): Promise<Pipeline> {
  const {createPipeline} = await import('./pipeline.js')
  return createPipeline(user)
}
