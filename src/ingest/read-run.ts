import type {IngestIssue} from '../model/ingest-issue.js'
import type {EventLogRecord, RunAttempt, RunRecord, TaskRun} from '../model/run-record.js'
import {parseEventLog} from './artifacts/event-log.js'
import type {WorktreeRecords} from './artifacts/read-worktree.js'
import type {LogIngestResult, RunSoFar} from './build-from-log.js'
import {discoverRun, type Discovery} from './discover.js'
import {compressedInputIssue} from './discovery/sniff-log.js'
import {DEFAULT_LIMITS, type IngestLimits} from './discovery/limits.js'
import type {FsPort} from './fs/file-port.js'
import {formatBytes, readTextFile} from './fs/read-text.js'
import {compressionOf} from './fs/text-bytes.js'
import {streamFile} from './fs/stream-file.js'
import {createLogIngest, type LogIngest} from './log/ingest.js'
import {mergeArtifacts, mergeLoggedTask} from './merge-artifacts.js'

/**
 * Ingest's front door (docs/ingest.md): RUN → RunRecord. Discovery finds what RUN holds (`-` for a
 * log on stdin, a log file, or a directory with logs, worktrees or a recording); logs are streamed
 * into the log ingest; worktree files are read and parsed; the artifact-derived tasks are merged
 * into what the logs gave. Every read goes through one read-only file port.
 */
export interface ReadRunOptions {
  readonly limits?: IngestLimits
  /** The log when RUN is `-`. */
  readonly stdin?: AsyncIterable<Uint8Array | string>
  /**
   * Streaming (docs/ingest.md "Streaming"): when RUN is logs only (stdin, a log, or a folder with
   * no worktree and no event log), each attempt's task runs, complete as the RunRecord would hold
   * them, are handed over as the attempt ends, in attempt order, and the RunRecord returned has no
   * task runs (`RunRead.streamed`). With worktrees the artifacts may belong to any attempt's task
   * runs, so everything is read first, as without this option.
   */
  readonly onAttemptTasks?: (tasks: readonly TaskRun[], attempt: RunAttempt, sofar: RunSoFar) => void
}

/** What discovery found besides logs, for the message of a RUN with nothing to analyse. */
export interface RunContents {
  readonly taskFiles: number
  readonly featureFiles: number
  readonly taskFolders: number
}

export interface RunRead {
  readonly run: RunRecord
  readonly found: RunContents
  /** The task runs went to `onAttemptTasks`; `run.tasks` is empty. */
  readonly streamed: boolean
}

const NOTHING: RunContents = {taskFiles: 0, featureFiles: 0, taskFolders: 0}

export async function readRun(port: FsPort, runPath: string, options: ReadRunOptions = {}): Promise<RunRead> {
  const limits = options.limits ?? DEFAULT_LIMITS
  const issues: IngestIssue[] = []
  /** Issues of the per-task merge step of streamed task runs: mergeArtifacts would add them after RUN's own. */
  const mergeIssues: IngestIssue[] = []
  const sink = options.onAttemptTasks
  const streamedIngest = () =>
    createLogIngest({maxLineChars: limits.maxLineChars, onAttemptTasks: (tasks, attempt, sofar) => sink!(tasks.map((t) => mergeLoggedTask(t, mergeIssues)), attempt, sofar)})
  if (runPath === '-') {
    const ingest = sink === undefined ? createLogIngest({maxLineChars: limits.maxLineChars}) : streamedIngest()
    await streamInto(ingest, '-', options.stdin ?? emptyStream(), issues)
    const logs = logsOf(ingest.finish())
    return {run: mergeWith(runPath, logs, [...issues, ...mergeIssues], [], null), found: NOTHING, streamed: sink !== undefined}
  }
  const discovery = await discoverRun(port, runPath, limits)
  issues.push(...discovery.issues)
  const streamed = sink !== undefined && discovery.worktrees.length === 0 && (discovery.eventFiles ?? []).length === 0
  const ingest = streamed ? streamedIngest() : createLogIngest({maxLineChars: limits.maxLineChars})
  for (const log of discovery.logs) {
    ingest.startFile(log.rel)
    await streamFile(discovery.port, log.abs, log.rel, limits.maxLogBytes, (chunk) => ingest.pushBytes(chunk), issues)
    ingest.endFile()
  }
  const found: RunContents = {
    taskFiles: discovery.worktrees.reduce((n, w) => n + w.taskFiles.length, 0),
    featureFiles: discovery.worktrees.reduce((n, w) => n + w.featureFiles.length, 0),
    taskFolders: discovery.worktrees.reduce((n, w) => n + w.taskFolders.length, 0),
  }
  const worktrees = await readWorktrees(discovery, limits, issues)
  const eventLogs = await readEventLogs(discovery, limits, issues)
  const logs = logsOf(ingest.finish())
  return {run: mergeWith(runPath, logs, [...issues, ...mergeIssues], worktrees, discovery.fixture?.info ?? null, eventLogs), found, streamed}
}

/** GuardKit's event logs (docs/ingest.md "Event logs"), read as text and parsed line by line, through the port confined to RUN. */
async function readEventLogs(discovery: Discovery, limits: IngestLimits, issues: IngestIssue[]): Promise<EventLogRecord[]> {
  const out: EventLogRecord[] = []
  for (const f of discovery.eventFiles ?? []) {
    const read = await readTextFile(discovery.port, f.abs, f.rel, {maxBytes: limits.maxArtifactBytes, whenTooLarge: 'skip', maxLineChars: limits.maxLineChars})
    issues.push(...read.issues)
    if (read.text === null) continue
    const parsed = parseEventLog(f.rel, read.text)
    issues.push(...parsed.issues)
    out.push(parsed.record)
  }
  return out
}

/** A recording being written (`live`): its run.log was fed to the live ingest as it arrived. */
export interface RecordingRead {
  /** The recording directory. */
  readonly dir: string
  /** RUN as the user will name it to `analyze` (the report's `run.path`). */
  readonly runPath: string
  /** The recording's log, relative to `dir`. */
  readonly logName: string
  /** What the log ingest made of the log, fed as it was written. */
  readonly logs: LogIngestResult
  /** Bytes of the log (the ingest was fed at most `limits.maxLogBytes` of them). */
  readonly logBytes: number
  readonly limits: IngestLimits
  /** While the build runs: the log is still growing, so what discovery says about it is left out. */
  readonly interim: boolean
}

/**
 * The streaming form of `readRun`, for `live`: the recording's RunRecord composed exactly as
 * `readRun` composes it — discovery of the recording, its artifacts read through the manifest,
 * merged with the log — except that the log is not read back from disk: the live ingest was fed the
 * same bytes as they arrived. So `live`'s view, its final report and a later `analyze` of the
 * recording read the same records the same way.
 */
export async function readRecording(port: FsPort, input: RecordingRead): Promise<RunRecord> {
  const discovery = await discoverRun(port, input.dir, input.limits)
  const issues: IngestIssue[] = input.interim ? discovery.issues.filter((i) => i.file !== input.logName) : [...discovery.issues]
  // the issues streaming the log would have given (streamFile), in the same place
  const hasLog = input.interim || discovery.logs.some((l) => l.rel === input.logName)
  if (hasLog && input.logBytes === 0 && !input.interim) issues.push({file: input.logName, code: 'empty', severity: 'warning', message: 'the file is empty'})
  if (hasLog && input.logBytes > input.limits.maxLogBytes) {
    issues.push({file: input.logName, code: 'too-large', severity: 'warning',
      message: `the file is larger than ${formatBytes(input.limits.maxLogBytes)}: only its first ${formatBytes(input.limits.maxLogBytes)} were read`})
  }
  const worktrees = await readWorktrees(discovery, input.limits, issues)
  const eventLogs = await readEventLogs(discovery, input.limits, issues)
  return mergeWith(input.runPath, hasLog ? logsOf(input.logs) : null, issues, worktrees, discovery.fixture?.info ?? null, eventLogs)
}

/** Through the port discovery confined to RUN: nothing outside it is read. */
async function readWorktrees(discovery: Discovery, limits: IngestLimits, issues: IngestIssue[]): Promise<readonly WorktreeRecords[]> {
  if (discovery.worktrees.length === 0) return []
  // Artifact schemas (zod) load only when RUN holds a worktree: a plain log starts faster.
  const {readRunArtifacts} = await import('./artifacts/read-run-artifacts.js')
  const artifacts = await readRunArtifacts(discovery.port, discovery, limits)
  issues.push(...artifacts.issues)
  return artifacts.worktrees
}

function logsOf(result: LogIngestResult): LogIngestResult | null {
  return result.logs.length > 0 ? result : null
}

function mergeWith(runPath: string, fromLogs: LogIngestResult | null, issues: readonly IngestIssue[], worktrees: readonly WorktreeRecords[], fixture: RunRecord['fixture'], eventLogs: readonly EventLogRecord[] = []): RunRecord {
  return mergeArtifacts({runPath, fromLogs, worktrees, fixture: fixture ?? null, issues, eventLogs})
}

/** Streams one log into the ingest; a read error keeps what was read and becomes an issue. */
async function streamInto(ingest: LogIngest, file: string, stream: AsyncIterable<Uint8Array | string>, issues: IngestIssue[]): Promise<void> {
  const chunks = stream[Symbol.asyncIterator]()
  const bytesOf = (chunk: Uint8Array | string) => (typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk)
  let started = false
  try {
    const head = await chunks.next()
    // a compressed log piped in as it is: said, and not read as lines of binary (a first chunk shorter than its magic is read)
    const compressed = head.done === true ? null : compressionOf(bytesOf(head.value))
    if (compressed !== null) {
      issues.push(compressedInputIssue(file, compressed))
      await chunks.return?.()
      return
    }
    ingest.startFile(file)
    started = true
    for (let next = head; next.done !== true; next = await chunks.next()) ingest.pushBytes(bytesOf(next.value))
  } catch (error) {
    if (!started) ingest.startFile(file)
    started = true
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message
    issues.push({file, code: 'unreadable', severity: 'error', message: `reading stopped with ${code}; what was read before is used`})
  }
  if (started) ingest.endFile()
}

async function* emptyStream(): AsyncIterable<Uint8Array> {}
