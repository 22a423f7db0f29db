import {createHash} from 'node:crypto'
import {join} from 'node:path'
import type {IngestIssue} from '../../model/ingest-issue.js'
import type {FixtureInfo} from '../../model/run-record.js'
import {jsonSyntaxIssue} from '../artifacts/parse-artifact.js'
import {parsePythonJson} from '../artifacts/parse-json.js'
import {shapeIssues} from '../artifacts/zod-issues.js'
import {describeErrorCode, errorCode, type FsPort} from '../fs/file-port.js'
import {readAhead} from '../fs/read-ahead.js'
import {readTextFile} from '../fs/read-text.js'
import {RECORDING_MANIFEST_NAME, RecordingManifestV1Schema} from '../schemas/recording-manifest.schema.js'
import type {IngestLimits} from './limits.js'
import type {RunRoot} from './run-paths.js'

export interface RecordingManifest {
  readonly info: FixtureInfo
  /** Listed files that are logs whatever they hold: the manifest's `logs`, else its top-level `*.log` files (`run.log`). */
  readonly logs: readonly string[]
  /** Earlier versions of artifacts: artifact path → [{file, seenAt}], oldest first. */
  readonly versions: ReadonlyMap<string, readonly {readonly file: string; readonly seenAt: string | null}[]>
}

/**
 * Reads and checks the manifest of a recording (docs/recording-format.md): every listed file and
 * version must exist with its sha256, so a recording edited by hand is reported (and still read);
 * the recorder's gaps become info issues.
 */
export async function readRecordingManifest(port: FsPort, root: RunRoot, limits: IngestLimits, issues: IngestIssue[]): Promise<RecordingManifest | null> {
  const file = RECORDING_MANIFEST_NAME
  const read = await readTextFile(port, join(root.abs, file), file, {maxBytes: limits.maxArtifactBytes, maxLineChars: null, whenTooLarge: 'skip'})
  issues.push(...read.issues)
  if (read.text === null) return null
  const parsed = parsePythonJson(read.text)
  if (!parsed.ok) {
    issues.push(jsonSyntaxIssue(file, parsed))
    return null
  }
  const result = RecordingManifestV1Schema.safeParse(parsed.value)
  if (!result.success) {
    issues.push(...shapeIssues(file, parsed.value, result.error, 'recording manifest').map((i) => ({...i, severity: 'error' as const})))
    return null
  }
  const manifest = result.data
  const logs: string[] = []
  const declared = manifest.logs === undefined ? null : new Set(manifest.logs)
  // every listed file is hashed, read ahead in the order listed: one after another, a recording's analysis waited on
  // each small file's round trips (src/ingest/fs/read-ahead.ts); the issues keep that order
  const listed = [...manifest.files.map((f) => f.path), ...(manifest.versions ?? []).map((v) => v.file)]
  const take = readAhead(listed, (path) => hashListed(port, root, limits, path), READ_AHEAD)
  for (const [index, entry] of manifest.files.entries()) {
    if (!checkFile(await take(), entry.path, entry.sha256, `/files/${index}`, issues)) continue
    if (declared === null ? entry.path.endsWith('.log') && !entry.path.includes('/') : declared.has(entry.path)) logs.push(entry.path)
  }
  const versions = new Map<string, {file: string; seenAt: string | null; version: number}[]>()
  for (const [index, v] of (manifest.versions ?? []).entries()) {
    if (!checkFile(await take(), v.file, v.sha256 ?? null, `/versions/${index}`, issues)) continue
    const list = versions.get(v.path) ?? []
    list.push({file: v.file, seenAt: v.seenAt ?? null, version: v.version})
    versions.set(v.path, list)
  }
  for (const [index, gap] of (manifest.gaps ?? []).entries()) {
    issues.push({file, pointer: `/gaps/${index}`, code: 'recording-gap', severity: 'info', message: `${gap.path}: ${gap.message}`})
  }
  return {
    info: {file, toolName: manifest.tool.name, toolVersion: manifest.tool.version, createdBy: manifest.createdBy ?? null, redacted: manifest.redacted ?? null, files: manifest.files.length},
    logs,
    versions: new Map([...versions].map(([path, list]) => [path, list.sort((a, b) => a.version - b.version).map(({file: f, seenAt}) => ({file: f, seenAt}))])),
  }
}

/** Reads in flight at once beyond the one being checked (src/ingest/fs/read-ahead.ts). */
const READ_AHEAD = 8

/** What hashing a listed file found: a path outside the recording is not read. */
type Hashed = {readonly kind: 'outside'} | {readonly kind: 'unread'; readonly code: string} | {readonly kind: 'read'; readonly truncated: boolean; readonly sha256: string}

async function hashListed(port: FsPort, root: RunRoot, limits: IngestLimits, path: string): Promise<Hashed> {
  if (path.startsWith('/') || path.split('/').includes('..')) return {kind: 'outside'}
  // hashed as it streams: a recording's log may be larger than memory should hold
  const hash = createHash('sha256')
  try {
    const read = await port.readChunks(join(root.abs, ...path.split('/')), limits.maxLogBytes, (chunk) => hash.update(chunk))
    return {kind: 'read', truncated: read.truncated, sha256: hash.digest('hex')}
  } catch (error) {
    return {kind: 'unread', code: errorCode(error)}
  }
}

/** Whether a listed file is inside the recording and present; a changed hash is reported but the file is used. */
function checkFile(hashed: Hashed, path: string, sha256: string | null, pointer: string, issues: IngestIssue[]): boolean {
  const file = RECORDING_MANIFEST_NAME
  if (hashed.kind === 'outside') {
    issues.push({file, pointer, code: 'recording-path', severity: 'warning', message: `a path outside the recording: ${path}; ignored`})
    return false
  }
  if (hashed.kind === 'unread') {
    issues.push({file, pointer, code: 'recording-file-missing', severity: 'warning', message: `listed file ${path}: ${describeErrorCode(hashed.code)}`})
    return false
  }
  if (hashed.truncated) return true
  if (sha256 !== null && hashed.sha256 !== sha256) {
    issues.push({file, pointer, code: 'recording-hash-mismatch', severity: 'warning',
      message: `${path} changed since the recording was written (sha256 ${hashed.sha256.slice(0, 12)}…, manifest ${sha256.slice(0, 12)}…): read as it is now`})
  }
  return true
}
