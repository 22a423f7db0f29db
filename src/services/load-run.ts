import type {IngestIssue} from '../model/ingest-issue.js'
import type {RunRecord} from '../model/run-record.js'
import type {WorktreeRecords} from '../ingest/artifacts/read-worktree.js'
import {DEFAULT_LIMITS, discoverRun, type IngestLimits} from '../ingest/discover.js'
import type {FsPort} from '../ingest/fs/file-port.js'
import {createNodeFilePort} from '../ingest/fs/node-file-port.js'
import {streamFile} from '../ingest/fs/stream-file.js'
import {createLogIngest, type LogIngest} from '../ingest/log/ingest.js'
import {mergeArtifacts} from '../ingest/merge-artifacts.js'

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
  const limits = options.limits ?? DEFAULT_LIMITS
  const ingest = createLogIngest({maxLineChars: limits.maxLineChars})
  const issues: IngestIssue[] = []
  if (runPath === '-') {
    await streamInto(ingest, '-', options.stdin ?? process.stdin, issues)
    return assembleRun(runPath, ingest, issues, [], null)
  }
  const port = options.port ?? createNodeFilePort()
  const discovery = await discoverRun(port, runPath, limits)
  issues.push(...discovery.issues)
  for (const log of discovery.logs) {
    ingest.startFile(log.rel)
    await streamFile(port, log.abs, log.rel, limits.maxLogBytes, (chunk) => ingest.pushBytes(chunk), issues)
    ingest.endFile()
  }
  if (discovery.worktrees.length === 0) return assembleRun(runPath, ingest, issues, [], discovery.fixture?.info ?? null)
  // Artifact schemas (zod) load only when RUN holds a worktree: a plain log starts faster.
  const {readRunArtifacts} = await import('../ingest/artifacts/read-run-artifacts.js')
  const artifacts = await readRunArtifacts(port, discovery, limits)
  issues.push(...artifacts.issues)
  return assembleRun(runPath, ingest, issues, artifacts.worktrees, discovery.fixture?.info ?? null)
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
