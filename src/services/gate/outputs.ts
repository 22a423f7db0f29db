import {appendFile, writeFile} from 'node:fs/promises'
import type {GateReport} from '../../render/gate-report.js'
import {UsageError} from '../../shared/errors.js'
import {neutralised} from '../../shared/neutralise.js'

export interface GateOutputOptions {
  /** Write the JUnit XML here. */
  readonly junit?: string
  /** Write the self-contained HTML page here (docs/html-report.md). */
  readonly html?: string
  /** GITHUB_ACTIONS, GITHUB_STEP_SUMMARY (default: the process's). */
  readonly env?: NodeJS.ProcessEnv
  /** false (`--no-github`): no annotations and no step summary, even under GitHub Actions. */
  readonly github?: boolean
}

export interface GateOutputs {
  /** GitHub workflow commands (`::error …`) when GITHUB_ACTIONS=true, else none. */
  readonly annotations: readonly string[]
  /** Files written (JUnit, HTML, the step summary). */
  readonly files: readonly string[]
}

/** GitHub's limit for one step's summary. */
const STEP_SUMMARY_BYTES = 1024 * 1024

/**
 * Every file a gate report turns into, for `gate` and `gate merge` alike: the JUnit file, the HTML
 * page, and under GitHub Actions the annotations and the Markdown step summary
 * (appended to $GITHUB_STEP_SUMMARY, compacted when the full one would pass GitHub's 1 MiB).
 */
export async function writeGateOutputs(report: GateReport, options: GateOutputOptions): Promise<GateOutputs> {
  const env = options.env ?? process.env
  const files: string[] = []
  if (options.junit !== undefined) {
    const {renderJunit} = await import('../../render/junit.js')
    await write(options.junit, renderJunit(report), 'the JUnit report')
    files.push(options.junit)
  }
  if (options.html !== undefined) {
    const {renderGateHtml} = await import('../../render/html/gate.js')
    await write(options.html, renderGateHtml(report), 'the HTML report')
    files.push(options.html)
  }
  let annotations: string[] = []
  const github = options.github !== false
  if (github && env.GITHUB_ACTIONS === 'true') {
    const {renderGateAnnotations} = await import('../../render/text/gate-annotations.js')
    annotations = renderGateAnnotations(report)
  }
  const summaryFile = env.GITHUB_STEP_SUMMARY
  if (github && summaryFile !== undefined && summaryFile !== '') {
    const {renderGateMarkdown} = await import('../../render/markdown/gate.js')
    let md = renderGateMarkdown(report)
    if (Buffer.byteLength(md) > STEP_SUMMARY_BYTES) md = renderGateMarkdown(report, {compact: true})
    try {
      await appendFile(summaryFile, md)
    } catch (error) {
      throw new UsageError(neutralised`Cannot write the step summary to ${summaryFile} (GITHUB_STEP_SUMMARY): ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`)
    }
    files.push(summaryFile)
  }
  return {annotations, files}
}

async function write(file: string, content: string, what: string): Promise<void> {
  try {
    await writeFile(file, content)
  } catch (error) {
    throw new UsageError(neutralised`Cannot write ${what} to ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`)
  }
}
