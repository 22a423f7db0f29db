import type {ConformanceReport} from '../conformance/run-vectors.js'
import type {AnalysisReport, TaskAnalysis} from '../explain/analysis.js'
import type {StreamedAnalysis} from '../explain/analyze-run.js'
import type {RunRecord} from '../model/run-record.js'
import type {ReportTool} from './json/build-report.js'
import type {DrawnAnalysis} from './json/json-chunks.js'
import type {CompareReport} from '../explain/compare/compare-runs.js'
import type {GateReport} from './gate-report.js'
import type {Report} from './json/report.js'
import type {Palette} from './text/plain-palette.js'
import type {ProfilesReport} from './text/profiles.js'
import type {RecordSummary} from './text/record.js'
import {neutraliseJsonChunks, neutraliseOutput} from '../shared/neutralise.js'

/**
 * What a command's service returns, to be drawn: one variant per kind of result. Services compute,
 * `present` draws, the command prints (src/cli/present.ts). Renderers load only for the format
 * asked for, so `--json` never loads chalk and a text report never loads the HTML renderer.
 */
export type Presentable =
  | {readonly kind: 'analysis'; readonly report: AnalysisReport}
  | {readonly kind: 'explain'; readonly report: AnalysisReport; readonly task: TaskAnalysis; readonly turn: number | null; readonly profiles: readonly string[]}
  | {readonly kind: 'whatif'; readonly report: AnalysisReport; readonly tasks: readonly TaskAnalysis[]; readonly only: TaskAnalysis | null}
  | {readonly kind: 'inspect'; readonly report: Report}
  | {readonly kind: 'compare'; readonly report: CompareReport}
  | {readonly kind: 'conformance'; readonly report: ConformanceReport}
  | {readonly kind: 'profiles'; readonly report: ProfilesReport}
  | {readonly kind: 'gate'; readonly report: GateReport}
  | {readonly kind: 'record'; readonly summary: RecordSummary}
  /** A streamed run's analysis, drawn a task run at a time (JSON only; docs/architecture.md "Streaming"). */
  | {readonly kind: 'analysis-stream'; readonly analysis: StreamedAnalysis | DrawnAnalysis}
  /** A streamed run's record: `run` without task runs; its task runs drawn already (text or UTF-8), an attempt's a piece, in order (JSON only). */
  | {readonly kind: 'inspect-stream'; readonly run: RunRecord; readonly tool: ReportTool; readonly drawn: Iterable<string | Uint8Array>}

export type Format = 'text' | 'md' | 'json' | 'html'

/** Where text goes: its colours and width (src/cli/present.ts reads them off the terminal). */
export interface Surface {
  readonly palette: Palette
  readonly width: number
  readonly verbose: boolean
}

/**
 * The drawn result: text for stdout, the one JSON document, or that document's text in pieces
 * (`chunks`, iterated once, drawn as they are taken: a streamed run's report).
 */
export type Drawn =
  | {readonly kind: 'text'; readonly text: string}
  | {readonly kind: 'json'; readonly json: unknown}
  | {readonly kind: 'json-chunks'; readonly chunks: Iterable<string | Uint8Array>}

/**
 * The one place a result becomes text, Markdown, JSON or HTML. Every drawn text gets the output
 * edge's last pass (src/shared/neutralise.ts, docs/security.md): the renderers neutralise what they
 * quote, and this catches what a renderer forgot — no raw control character, no line a CI runner
 * reads as a workflow command.
 */
export async function present(result: Presentable, format: Format, surface: Surface): Promise<Drawn> {
  if (result.kind === 'analysis-stream' || result.kind === 'inspect-stream') {
    if (format !== 'json') throw new Error(`a streamed run is drawn as JSON only, not ${format}`)
    const chunks = await import('./json/json-chunks.js')
    const drawn = result.kind === 'inspect-stream' ? chunks.inspectJsonChunks(result.run, result.tool, result.drawn)
      : 'drawn' in result.analysis ? chunks.analysisJsonPieces(result.analysis) : chunks.analysisJsonChunks(result.analysis)
    return {kind: 'json-chunks', chunks: neutraliseJsonChunks(drawn)}
  }
  if (format === 'json') return {kind: 'json', json: await toJson(result)}
  if (format === 'html') return {kind: 'text', text: neutraliseOutput(await toHtml(result))}
  if (format === 'md') return {kind: 'text', text: neutraliseOutput(await toMarkdown(result, surface))}
  // every text report fits the surface: its renderers lay tables and rows out for the width, and
  // fitToWidth wraps whatever line they printed whole — measured once escapes are shown as such, and
  // neutralised again after, since a wrap can put `::` at the start of a line
  const {fitToWidth} = await import('./text/layout.js')
  const keepSgr = {keepSgr: surface.palette.enabled}
  return {kind: 'text', text: neutraliseOutput(fitToWidth(neutraliseOutput(await toText(result, surface), keepSgr), surface.width), keepSgr)}
}

async function toJson(result: Presentable): Promise<unknown> {
  switch (result.kind) {
    case 'analysis': {
      const {buildAnalysisReport} = await import('./json/build-analysis-report.js')
      return buildAnalysisReport(result.report)
    }
    case 'explain': {
      const {buildAnalysisReport} = await import('./json/build-analysis-report.js')
      const t = result.task.task
      return buildAnalysisReport(result.report, {tasks: [result.task], turn: result.turn, turnDetail: true, focus: {command: 'explain', taskId: t.taskId, attempt: t.attempt, turn: result.turn, profiles: [...result.profiles]}})
    }
    case 'whatif': {
      const {buildAnalysisReport} = await import('./json/build-analysis-report.js')
      const focus = {command: 'whatif' as const, taskId: result.only?.task.taskId ?? null, attempt: result.only?.task.attempt ?? null, turn: null, profiles: result.report.profiles.map((p) => p.name)}
      return buildAnalysisReport(result.report, {tasks: result.tasks, focus})
    }
    case 'inspect':
    case 'compare':
    case 'conformance':
    case 'profiles':
    case 'gate':
      return result.report
    case 'record': {
      const {run: _run, ...rest} = result.summary
      return rest
    }
    case 'analysis-stream':
    case 'inspect-stream':
      throw new Error('drawn by present itself')
  }
}

async function toText(result: Presentable, o: Surface): Promise<string> {
  switch (result.kind) {
    case 'analysis':
      return (await import('./text/analyze.js')).renderAnalyzeText(result.report, o)
    case 'explain':
      return (await import('./text/explain.js')).renderExplainText(result.report, {task: result.task, turn: result.turn, profiles: result.profiles}, o)
    case 'whatif':
      return (await import('./text/whatif.js')).renderWhatIfText(result.report, result.tasks, o)
    case 'inspect':
      return (await import('./text/inspect.js')).renderInspectText(result.report, o)
    case 'compare':
      return (await import('./text/compare.js')).renderCompareText(result.report, o)
    case 'conformance':
      return (await import('./text/conformance.js')).renderConformanceText(result.report)
    case 'profiles':
      return (await import('./text/profiles.js')).renderProfilesText(result.report, o)
    case 'gate':
      return (await import('./text/gate.js')).renderGateText(result.report, o)
    case 'record':
      return (await import('./text/record.js')).renderRecordText(result.summary)
    case 'analysis-stream':
    case 'inspect-stream':
      throw new Error('drawn by present itself')
  }
}

async function toMarkdown(result: Presentable, o: Surface): Promise<string> {
  switch (result.kind) {
    case 'analysis':
      return (await import('./markdown/analyze.js')).renderAnalyzeMarkdown(result.report, {verbose: o.verbose})
    case 'explain':
      return (await import('./markdown/explain.js')).renderExplainMarkdown(result.report, {task: result.task, turn: result.turn, profiles: result.profiles})
    case 'whatif':
      return (await import('./markdown/whatif.js')).renderWhatIfMarkdown(result.report, result.tasks)
    case 'compare':
      return (await import('./markdown/compare.js')).renderCompareMarkdown(result.report)
    case 'gate':
      return (await import('./markdown/gate.js')).renderGateMarkdown(result.report, {verbose: o.verbose})
    case 'inspect':
    case 'conformance':
    case 'profiles':
    case 'record':
    case 'analysis-stream':
    case 'inspect-stream':
      return toText(result, o)
  }
}

async function toHtml(result: Presentable): Promise<string> {
  switch (result.kind) {
    case 'analysis':
      return (await import('./html/analyze.js')).renderAnalyzeHtml(result.report)
    case 'gate':
      return (await import('./html/gate.js')).renderGateHtml(result.report)
    default:
      throw new Error(`no HTML view of ${result.kind}`)
  }
}
