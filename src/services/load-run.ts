import type {IngestIssue} from '../model/ingest-issue.js'
import type {RunRecord} from '../model/run-record.js'
import type {WorktreeRecords} from '../ingest/artifacts/read-worktree.js'
import {DEFAULT_LIMITS, discoverRun, type IngestLimits} from '../ingest/discover.js'
import type {FsPort} from '../ingest/fs/file-port.js'
import {createNodeFilePort} from '../ingest/fs/node-file-port.js'
import {streamFile} from '../ingest/fs/stream-file.js'
import {createLogIngest, type LogIngest} from '../ingest/log/ingest.js'
import {hasRunContent, mergeArtifacts} from '../ingest/merge-artifacts.js'
import {UsageError} from '../shared/errors.js'

/**
 * RUN → RunRecord: the composition root of ingest (docs/ingest.md). Discovery finds what RUN holds
 * (`-` for a log on stdin, a log file, or a directory with logs, worktrees or a recording); logs
 * are streamed into the log ingest, worktree files are read and parsed, and the artifact-derived
 * tasks are merged into what the logs gave. Every read goes through one read-only file port.
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
  return (await readRun(runPath, options)).run
}

/**
 * loadRun for the commands that analyse a run (inspect, analyze): a RUN holding no run at all — no
 * logged AutoBuild run and no task artifacts (`hasRunContent`) — is a usage error (exit 2) that says
 * what RUN held and how to capture a log next time.
 */
export async function loadRunContent(runPath: string, options: LoadRunOptions = {}): Promise<RunRecord> {
  const {run, found} = await readRun(runPath, options)
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

/** What discovery found besides logs, for the message of an empty RUN. */
interface Found {
  readonly taskFiles: number
  readonly featureFiles: number
  readonly taskFolders: number
}

async function readRun(runPath: string, options: LoadRunOptions): Promise<{run: RunRecord; found: Found}> {
  const limits = options.limits ?? DEFAULT_LIMITS
  const ingest = createLogIngest({maxLineChars: limits.maxLineChars})
  const issues: IngestIssue[] = []
  const nothing: Found = {taskFiles: 0, featureFiles: 0, taskFolders: 0}
  if (runPath === '-') {
    await streamInto(ingest, '-', options.stdin ?? process.stdin, issues)
    return {run: assembleRun(runPath, ingest, issues, [], null), found: nothing}
  }
  const port = options.port ?? createNodeFilePort()
  const discovery = await discoverRun(port, runPath, limits)
  issues.push(...discovery.issues)
  for (const log of discovery.logs) {
    ingest.startFile(log.rel)
    await streamFile(port, log.abs, log.rel, limits.maxLogBytes, (chunk) => ingest.pushBytes(chunk), issues)
    ingest.endFile()
  }
  if (discovery.worktrees.length === 0) return {run: assembleRun(runPath, ingest, issues, [], discovery.fixture?.info ?? null), found: nothing}
  const found: Found = {
    taskFiles: discovery.worktrees.reduce((n, w) => n + w.taskFiles.length, 0),
    featureFiles: discovery.worktrees.reduce((n, w) => n + w.featureFiles.length, 0),
    taskFolders: discovery.worktrees.reduce((n, w) => n + w.taskFolders.length, 0),
  }
  // Artifact schemas (zod) load only when RUN holds a worktree: a plain log starts faster.
  const {readRunArtifacts} = await import('../ingest/artifacts/read-run-artifacts.js')
  const artifacts = await readRunArtifacts(port, discovery, limits)
  issues.push(...artifacts.issues)
  return {run: assembleRun(runPath, ingest, issues, artifacts.worktrees, discovery.fixture?.info ?? null), found}
}

function listed(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]!}`
}

function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`
}

/** Streams one log into the ingest; a read error keeps what was read and becomes an issue. */
async function streamInto(ingest: LogIngest, file: string, stream: NodeJS.ReadableStream, issues: IngestIssue[]): Promise<void> {
  ingest.startFile(file)
  try {
    for await (const chunk of stream) ingest.pushBytes(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : (chunk as Uint8Array))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message
    issues.push({file, code: 'unreadable', severity: 'error', message: `reading stopped with ${code}; what was read before is used`})
  }
  ingest.endFile()
}

function assembleRun(runPath: string, ingest: LogIngest, issues: readonly IngestIssue[], worktrees: readonly WorktreeRecords[], fixture: RunRecord['fixture']): RunRecord {
  const logs = ingest.finish()
  return mergeArtifacts({runPath, fromLogs: logs.logs.length > 0 ? logs : null, worktrees, fixture: fixture ?? null, issues})
}
