import {createNodeFilePort, hasRunContent, readRun, type FsPort, type IngestLimits, type RunRead} from '../ingest/index.js'
import type {RunRecord} from '../model/run-record.js'
import {UsageError} from '../shared/errors.js'

/**
 * RUN → RunRecord for the commands: ingest's front door (`readRun`) with the real file system and
 * stdin, and the usage error for a RUN that holds nothing to analyse.
 */
export interface LoadRunOptions {
  readonly stdin?: NodeJS.ReadableStream
  /** The file system (tests inject read errors and files changing while read). */
  readonly port?: FsPort
  readonly limits?: IngestLimits
}

export const CAPTURE_HINT =
  'Capture the console output of the next build with `guardkit-replay live --record DIR -- guardkit autobuild …`, or `guardkit autobuild … 2>&1 | tee run.log`, and pass that log (or DIR).'

export async function loadRun(runPath: string, options: LoadRunOptions = {}): Promise<RunRecord> {
  return (await read(runPath, options)).run
}

/**
 * loadRun for the commands that analyse a run (inspect, analyze): a RUN holding no run at all — no
 * logged AutoBuild run and no task artifacts (`hasRunContent`) — is a usage error (exit 2) that says
 * what RUN held and how to capture a log next time.
 */
export async function loadRunContent(runPath: string, options: LoadRunOptions = {}): Promise<RunRecord> {
  const {run, found} = await read(runPath, options)
  if (hasRunContent(run)) return run
  if (run.logs.length === 0 && found.taskFiles + found.featureFiles + found.taskFolders === 0) {
    throw new UsageError(`No AutoBuild log found in ${runPath}.`, CAPTURE_HINT)
  }
  const held = [
    ...(run.logs.length > 0 ? [`${count(run.logs.length, 'log')} (${run.logs.join(', ')})`] : []),
    ...(found.taskFiles > 0 ? [count(found.taskFiles, 'task file')] : []),
    ...(found.featureFiles > 0 ? [count(found.featureFiles, 'feature file')] : []),
    ...(found.taskFolders > 0 ? [`${count(found.taskFolders, 'task artifact folder')} with nothing readable`] : []),
  ]
  const missing = run.logs.length > 0 ? `no AutoBuild run in ${run.logs.length === 1 ? 'it' : 'them'}` : 'no AutoBuild log'
  const inputsOnly = found.taskFiles + found.featureFiles > 0 ? ' Task and feature files are the inputs of a run, not a record of one.' : ''
  const headline = `Nothing to analyse in ${runPath}: found ${listed(held)}, but ${missing} and no task artifacts (.guardkit/autobuild/TASK-*/).${inputsOnly}`
  const why = run.ingestIssues.slice(0, 5).map((i) => `  ${i.file}${i.line === undefined ? '' : `:${i.line}`}: ${i.message}`)
  throw new UsageError([headline, ...why].join('\n'), CAPTURE_HINT)
}

async function read(runPath: string, options: LoadRunOptions): Promise<RunRead> {
  const stdin = runPath === '-' ? ((options.stdin ?? process.stdin) as AsyncIterable<Uint8Array | string>) : undefined
  return readRun(options.port ?? createNodeFilePort(), runPath, {...(options.limits ? {limits: options.limits} : {}), ...(stdin ? {stdin} : {})})
}

function listed(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]!}`
}

function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`
}
