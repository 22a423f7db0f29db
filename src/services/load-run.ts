import {createNodeFilePort, hasRunContent, readRun, type FsPort, type IngestLimits, type ReadRunOptions, type RunRead, type RunSoFar} from '../ingest/index.js'
import type {RunAttempt, RunRecord, TaskRun} from '../model/run-record.js'
import {UsageError} from '../shared/errors.js'
import {neutralised, neutraliseInline} from '../shared/neutralise.js'

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
  return withContent(runPath, await read(runPath, options))
}

/** What a streamed read does with each attempt's task runs once the attempt has ended, in attempt order. */
export interface AttemptSink {
  /** `sofar`: the run-level parts read so far (the log goes on being read after the attempt has ended). */
  add(attempt: RunAttempt, tasks: readonly TaskRun[], sofar: RunSoFar): void
  /** The read failed, or RUN was read whole: nothing more comes. */
  close(): void
}

/**
 * loadRunContent's streaming form: RUN of logs only is read with each attempt's task runs handed to
 * `sink` as the attempt ends, in attempt order (so memory holds one attempt's, not the run's); RUN
 * with worktrees or event logs is read whole (`whole`), as their artifacts may belong to any attempt.
 */
export async function readRunStreamed(runPath: string, options: LoadRunOptions, sink: AttemptSink): Promise<{readonly streamed: RunRecord} | {readonly whole: RunRecord}> {
  // Ingest ends attempts in the record's order; one that came early waits here until its turn.
  const early = new Map<number, {readonly attempt: RunAttempt; readonly tasks: readonly TaskRun[]}>()
  let next = 1
  let latest: RunSoFar = {eraMarkers: () => [], logs: () => []}
  try {
    const result = await read(runPath, options, (tasks, attempt, sofar) => {
      latest = sofar
      early.set(attempt.attempt, {attempt, tasks})
      for (let due = early.get(next); due !== undefined; due = early.get(next)) {
        sink.add(due.attempt, due.tasks, sofar)
        early.delete(next++)
      }
    })
    const run = withContent(runPath, result)
    for (const a of run.attempts) {
      const due = early.get(a.attempt)
      if (due !== undefined) sink.add(due.attempt, due.tasks, latest)
    }
    if (!result.streamed) {
      sink.close()
      return {whole: run}
    }
    return {streamed: run}
  } catch (error) {
    sink.close()
    throw error
  }
}

function withContent(runPath: string, {run, found}: RunRead): RunRecord {
  if (hasRunContent(run)) return run
  if (run.logs.length === 0 && found.taskFiles + found.featureFiles + found.taskFolders === 0) {
    // a file that only quotes records (a review), or a compressed log, is said to be one: the reason is the useful part
    const quoting = run.ingestIssues.filter((i) => (i.code === 'not-a-log' && i.severity === 'warning') || i.code === 'compressed').slice(0, 5)
    const why = quoting.map((i) => `  ${neutraliseInline(i.file)}${i.line === undefined ? '' : `:${i.line}`}: ${neutraliseInline(i.message)}`)
    // a compressed log is a log: the hint is how to read it (in the issue), not how to capture one
    const hint = quoting.length > 0 && quoting.every((i) => i.code === 'compressed') ? 'Decompress the log as shown above, then run again.' : CAPTURE_HINT
    throw new UsageError([neutralised`No AutoBuild log found in ${runPath}.`, ...why].join('\n'), hint)
  }
  const held = [
    ...(run.logs.length > 0 ? [`${count(run.logs.length, 'log')} (${run.logs.map(neutraliseInline).join(', ')})`] : []),
    ...(found.taskFiles > 0 ? [count(found.taskFiles, 'task file')] : []),
    ...(found.featureFiles > 0 ? [count(found.featureFiles, 'feature file')] : []),
    ...(found.taskFolders > 0 ? [`${count(found.taskFolders, 'task artifact folder')} with nothing readable`] : []),
  ]
  const missing = run.logs.length > 0 ? `no AutoBuild run in ${run.logs.length === 1 ? 'it' : 'them'}` : 'no AutoBuild log'
  const inputsOnly = found.taskFiles + found.featureFiles > 0 ? ' Task and feature files are the inputs of a run, not a record of one.' : ''
  const headline = `Nothing to analyse in ${neutraliseInline(runPath)}: found ${listed(held)}, but ${missing} and no task artifacts (.guardkit/autobuild/TASK-*/).${inputsOnly}`
  const why = run.ingestIssues.slice(0, 5).map((i) => `  ${neutraliseInline(i.file)}${i.line === undefined ? '' : `:${i.line}`}: ${neutraliseInline(i.message)}`)
  throw new UsageError([headline, ...why].join('\n'), CAPTURE_HINT)
}

async function read(runPath: string, options: LoadRunOptions, onAttemptTasks?: ReadRunOptions['onAttemptTasks']): Promise<RunRead> {
  const stdin = runPath === '-' ? ((options.stdin ?? process.stdin) as AsyncIterable<Uint8Array | string>) : undefined
  return readRun(options.port ?? createNodeFilePort(), runPath, {...(options.limits ? {limits: options.limits} : {}), ...(stdin ? {stdin} : {}), ...(onAttemptTasks ? {onAttemptTasks} : {})})
}

function listed(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]!}`
}

function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`
}
