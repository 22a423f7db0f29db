/**
 * Ingest's public surface: what the rest of the tool may use (a lint rule keeps it so). Light on
 * purpose: nothing here loads zod; the artifact schemas load only when RUN holds a worktree, and the
 * recording manifest's schema has its own entry (`./recording-manifest.ts`).
 */
export {readRecording, readRun, type ReadRunOptions, type RecordingRead, type RunContents, type RunRead} from './read-run.js'
export {discoverRun, type Discovery, type DiscoveredFile, type DiscoveredWorktree} from './discover.js'
export {DEFAULT_LIMITS, RECORDING_MANIFEST_NAME, type IngestLimits} from './discovery/limits.js'
export {createLogIngest, type LogIngest, type LogIngestOptions} from './log/ingest.js'
export type {LogIngestResult, RunSoFar} from './build-from-log.js'
export {hasRunContent} from './merge-artifacts.js'
export {createNodeFilePort} from './fs/node-file-port.js'
export {createSyncFilePort} from './fs/sync-file-port.js'
export {createFaultInjectingPort, type Fault} from './fs/fault-injecting-port.js'
export {errorCode, describeErrorCode, NOT_REGULAR, OUTSIDE_ROOT, PortError, type FsPort, type PortStat} from './fs/file-port.js'
export {MAX_USER_FILE_BYTES, openInputFile, readInputFile, readUserFile, type InputRead, type OpenedInput} from './fs/safe-open.js'
export {formatBytes} from './fs/read-text.js'
export {parsePythonJson, type JsonParse} from './artifacts/parse-json.js'
