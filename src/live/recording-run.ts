import type {LogIngestResult} from '../ingest/build-from-log.js'
import {discoverRun, type IngestLimits} from '../ingest/discover.js'
import {formatBytes} from '../ingest/fs/read-text.js'
import {createNodeFilePort} from '../ingest/fs/node-file-port.js'
import {mergeArtifacts} from '../ingest/merge-artifacts.js'
import type {IngestIssue} from '../model/ingest-issue.js'
import type {RunRecord} from '../model/run-record.js'
import {RUN_LOG} from './recorder.js'

export interface RecordingRunInput {
  /** The recording directory. */
  readonly dir: string
  /** RUN as the user will name it to `analyze` (the report's `run.path`). */
  readonly runPath: string
  /** What the log ingest made of run.log, fed as it was written. */
  readonly logs: LogIngestResult
  /** Bytes of run.log (the ingest was fed at most `limits.maxLogBytes` of them). */
  readonly logBytes: number
  readonly limits: IngestLimits
  /** While the build runs: run.log is still growing, so what discovery says about it is left out. */
  readonly interim: boolean
}

/**
 * The recording → RunRecord, composed exactly as `analyze` composes it (services/load-run.ts):
 * discovery of the recording, its artifacts read through the manifest (versions included), merged
 * with the log — except that run.log is not read back from disk: the live ingest was fed the same
 * bytes as they arrived. So `live`'s view and final report, and a later `analyze` of the recording,
 * read the same records the same way (test/live/incident-table.ts checks the last part for every seed incident).
 */
export async function readRecordingRun(input: RecordingRunInput): Promise<RunRecord> {
  const port = createNodeFilePort()
  const discovery = await discoverRun(port, input.dir, input.limits)
  const issues: IngestIssue[] = input.interim ? discovery.issues.filter((i) => i.file !== RUN_LOG) : [...discovery.issues]
  // the issues streaming run.log would have given (streamFile), in the same place
  const hasLog = input.interim || discovery.logs.some((l) => l.rel === RUN_LOG)
  if (hasLog && input.logBytes === 0 && !input.interim) issues.push({file: RUN_LOG, code: 'empty', severity: 'warning', message: 'the file is empty'})
  if (hasLog && input.logBytes > input.limits.maxLogBytes) {
    issues.push({file: RUN_LOG, code: 'too-large', severity: 'warning',
      message: `the file is larger than ${formatBytes(input.limits.maxLogBytes)}: only its first ${formatBytes(input.limits.maxLogBytes)} were read`})
  }
  const logs = hasLog ? input.logs : null
  if (discovery.worktrees.length === 0) return mergeArtifacts({runPath: input.runPath, fromLogs: logs && logs.logs.length > 0 ? logs : null, worktrees: [], fixture: discovery.fixture?.info ?? null, issues})
  const {readRunArtifacts} = await import('../ingest/artifacts/read-run-artifacts.js')
  const artifacts = await readRunArtifacts(port, discovery, input.limits)
  issues.push(...artifacts.issues)
  return mergeArtifacts({runPath: input.runPath, fromLogs: logs && logs.logs.length > 0 ? logs : null, worktrees: artifacts.worktrees, fixture: discovery.fixture?.info ?? null, issues})
}
