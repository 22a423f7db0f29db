import {tmpdir} from 'node:os'
import {basename, join} from 'node:path'
import type {AnalysisReport} from '../explain/analysis.js'
import {analyzeRun, analyzeStreamedRun, startRunAnalysis, type AnalyzeRunOptions as SpineOptions, type StreamedAnalysis} from '../explain/analyze-run.js'
import {mainFeaturePicture} from '../explain/feature.js'
import type {DrawnAnalysis} from '../render/json/json-chunks.js'
import type {Presentable} from '../render/present.js'
import {PLAIN} from '../render/text/plain-palette.js'
import {UsageError} from '../shared/errors.js'
import type {Opened} from './open-report.js'
import {loadRunContent, readRunStreamed, type LoadRunOptions} from './load-run.js'
import {createSpeculation, type StartAnalyser} from './stream/speculation.js'
import {startWorkerAnalyser} from './stream/worker-analyser.js'
import {createProgress, type Progress} from './progress.js'
import {chooseProfiles, type OutputFormat, type ProfileRequest} from './run-options.js'
import {neutralised} from '../shared/neutralise.js'

export interface AnalyzeOptions extends ProfileRequest, LoadRunOptions {
  readonly tool: {readonly name: string; readonly version: string}
  readonly format: OutputFormat
  readonly verbose?: boolean
  /** Search the logic changes that flip each task (whatif); analyze leaves it off for speed. */
  readonly whatif?: boolean
  readonly progress?: Progress
  /** Where the analysis ahead of the read runs, and from what size of log (tests: this thread, from the first attempt). */
  readonly analyser?: {readonly start: StartAnalyser; readonly startAfterBytes: number}
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
  /** Open the written report in the default browser (`--open`); without `out`, it is written to a temporary file. */
  readonly open?: boolean
}

export interface AnalyzeResult {
  /** What the command presents on stdout. */
  readonly result: Presentable & {readonly kind: 'analysis' | 'analysis-stream'}
  /** Where `--out` wrote the report, and how many bytes. */
  readonly written?: {readonly path: string; readonly bytes: number}
  /** What `--open` did. */
  readonly opened?: Opened
}

/** `guardkit-replay RUN`: read RUN, replay every task under the chosen profiles, explain; `--out` writes the drawn report. */
export async function runAnalyze(runPath: string, options: AnalyzeRunOptions): Promise<AnalyzeResult> {
  // JSON on stdout is drawn a task run at a time (docs/architecture.md "Streaming"); redaction, --out and --open take the whole report
  if (options.format === 'json' && options.out === undefined && options.open !== true && options.redact !== true) {
    const streamed = await analyzeRunStreamed(runPath, options)
    if ('analysis' in streamed) return {result: {kind: 'analysis-stream', analysis: streamed.analysis}}
    return {result: {kind: 'analysis', report: streamed.report}}
  }
  const analysed = await analyzeRunPath(runPath, options)
  // redacted before drawing, so every format (text, md, json, html) shows the same placeholders
  const report = options.redact === true ? (await import('./redaction.js')).redactReport(analysed) : analysed
  const result = {kind: 'analysis' as const, report}
  const out = options.out ?? (options.open === true ? temporaryReport(runPath, options.format) : undefined)
  if (out === undefined) return {result}
  // a file gets neither colour codes nor the terminal's width
  const {present} = await import('../render/present.js')
  const drawn = await present(result, options.format, {palette: PLAIN, width: 100, verbose: options.verbose ?? false})
  const written = await writeReport(out, drawn.kind === 'json' ? `${JSON.stringify(drawn.json, null, 2)}\n` : drawn.kind === 'text' ? drawn.text : `${[...drawn.chunks].join('')}\n`)
  if (options.open !== true) return {result, written}
  const {openReport} = await import('./open-report.js')
  return {result, written, opened: await openReport(written.path)}
}

/** Where `--open` without `--out` writes the page: the system's temporary folder, named after RUN. */
function temporaryReport(runPath: string, format: AnalyzeFormat): string {
  const name = basename(runPath === '-' ? 'stdin' : runPath).replace(/[^\w.-]+/g, '_').replace(/\.log$/, '') || 'run'
  return join(tmpdir(), `guardkit-replay-${name}-${process.pid}.${format === 'md' ? 'md' : format === 'json' ? 'json' : format === 'text' ? 'txt' : 'html'}`)
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
    throw new UsageError(neutralised`Cannot write ${path}: ${why}.`, 'Pass --out a file in a folder that exists and is writable.')
  }
  return {path, bytes: Buffer.byteLength(text)}
}

/** RUN → AnalysisReport: ingest's front door, then the spine (explain/analyze-run.ts). */
export async function analyzeRunPath(runPath: string, options: Omit<AnalyzeOptions, 'format'>): Promise<AnalysisReport> {
  const progress = options.progress ?? createProgress()
  try {
    const analyzeOptions = await spineOptions(options)
    progress.step(`reading ${runPath} …`)
    const run = await loadRunContent(runPath, options)
    progress.step(`replaying ${run.tasks.length} task${run.tasks.length === 1 ? '' : 's'} …`)
    return analyzeRun(run, analyzeOptions)
  } finally {
    progress.done()
  }
}

/**
 * RUN → the analysis, streamed when RUN is logs only (services/load-run.ts `readRunStreamed`): the
 * task runs are analysed as the report is drawn, an attempt at a time, then released — or, on a log
 * long enough, on a second thread while the log is still read (stream/speculation.ts), their drawn
 * text waiting for the report's head.
 */
export async function analyzeRunStreamed(runPath: string, options: Omit<AnalyzeOptions, 'format'>): Promise<{readonly analysis: StreamedAnalysis | DrawnAnalysis} | {readonly report: AnalysisReport}> {
  const progress = options.progress ?? createProgress()
  try {
    const analyzeOptions = await spineOptions(options)
    progress.step(`reading ${runPath} …`)
    const speculation = createSpeculation(runPath, {
      settings: {...(analyzeOptions.profiles === undefined ? {} : {profiles: analyzeOptions.profiles}), whatif: analyzeOptions.whatif ?? false, ...(analyzeOptions.tool === undefined ? {} : {tool: analyzeOptions.tool}), ...(analyzeOptions.catalogue === undefined ? {} : {rules: analyzeOptions.catalogue.rules})},
      start: options.analyser?.start ?? startWorkerAnalyser,
      startAfterBytes: options.analyser?.startAfterBytes ?? ANALYSER_AFTER_BYTES,
      ...(process.env.GUARDKIT_REPLAY_DEBUG ? {note: (message: string) => void process.stderr.write(`guardkit-replay: ${message}\n`)} : {}),
    })
    const read = await readRunStreamed(runPath, options, speculation.sink)
    if ('whole' in read) {
      progress.step(`replaying ${read.whole.tasks.length} task${read.whole.tasks.length === 1 ? '' : 's'} …`)
      return {report: analyzeRun(read.whole, analyzeOptions)}
    }
    const run = read.streamed
    const {spill} = speculation
    const derived = speculation.derived(run)
    progress.step(`replaying ${spill.taskCount} task${spill.taskCount === 1 ? '' : 's'} …`)
    const ahead = await speculation.finish(run, derived)
    if (ahead !== null) {
      const features = {feature: mainFeaturePicture(run, ahead.pictures), features: [...ahead.pictures]}
      // the spill is not read again: released now, not after the document is written
      spill.close()
      return {analysis: {head: startRunAnalysis(run, analyzeOptions, derived).head, drawn: ahead.drawn(), features: () => features}}
    }
    const analysis = analyzeStreamedRun(run, (attempt) => spill.take(attempt), derived, analyzeOptions)
    return {analysis: {...analysis, tasks: () => closing(analysis.tasks(), () => spill.close())}}
  } finally {
    progress.done()
  }
}

/**
 * The analysis goes to a second thread once this many bytes of task runs are set aside (a log of
 * ~12 MB): below it, starting the thread (~0.1 s) costs more than it saves.
 */
const ANALYSER_AFTER_BYTES = 4 * 2 ** 20

/** What the spine is given, the same whether RUN is read whole or streamed: the profiles, --whatif and the --signals catalogue. */
async function spineOptions(options: Omit<AnalyzeOptions, 'format'>): Promise<SpineOptions> {
  const profiles = await chooseProfiles(options)
  // the rules file needs yaml and zod: loaded only when one is given
  const catalogue = options.signalsFile === undefined ? undefined : await (await import('./user-signals.js')).loadSignalCatalogue(options.signalsFile)
  return {profiles, whatif: options.whatif ?? false, tool: options.tool, ...(catalogue === undefined ? {} : {catalogue})}
}

/** The items, then `end` (also when the consumer stops early or fails). */
function* closing<T>(items: Iterable<T>, end: () => void): Generator<T> {
  try {
    yield* items
  } finally {
    end()
  }
}
