import {createHash} from 'node:crypto'
import {RECORDING_FORMAT, RECORDING_MANIFEST_NAME} from '../ingest/recording-manifest.js'

export {RECORDING_FORMAT, RECORDING_MANIFEST_NAME}

/** `guardkit-replay.json` as `record` and `live` write it (docs/recording-format.md). */
export interface RecordingManifest {
  readonly format: typeof RECORDING_FORMAT
  readonly formatVersion: 1
  readonly tool: {readonly name: string; readonly version: string}
  readonly createdBy: 'record' | 'live'
  readonly redacted: boolean
  /** Every file at its own path (the final version), sorted by path; not the manifest, not `versions/`. */
  readonly files: readonly ManifestFile[]
  /** The files to read as logs whatever their name or place (format 1 readers without it: top-level `*.log`). */
  readonly logs: readonly string[]
  readonly versions: readonly ManifestVersion[]
  readonly gaps: readonly ManifestGap[]
  /** What redaction replaced, counted per kind (never the originals). */
  readonly redaction?: {readonly replaced: Readonly<Record<string, number>>}
}

export interface ManifestFile {
  readonly path: string
  readonly sha256: string
  readonly bytes: number
}

export interface ManifestVersion {
  readonly path: string
  readonly version: number
  readonly file: string
  readonly seenAt: string | null
  readonly sha256: string
  readonly bytes: number
  readonly note: string | null
}

export interface ManifestGap {
  readonly path: string
  readonly message: string
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/** Where an earlier version of `path` lives inside the recording. */
export function versionFile(path: string, version: number): string {
  return `versions/${path}/${version}`
}

/** The manifest's bytes: keys in the documented order, two-space indent, a final newline. */
export function serializeManifest(manifest: RecordingManifest): Uint8Array {
  const ordered = {
    format: manifest.format,
    formatVersion: manifest.formatVersion,
    tool: {name: manifest.tool.name, version: manifest.tool.version},
    createdBy: manifest.createdBy,
    redacted: manifest.redacted,
    files: manifest.files.map((f) => ({path: f.path, sha256: f.sha256, bytes: f.bytes})),
    logs: [...manifest.logs],
    versions: manifest.versions.map((v) => ({path: v.path, version: v.version, file: v.file, seenAt: v.seenAt, sha256: v.sha256, bytes: v.bytes, note: v.note})),
    gaps: manifest.gaps.map((g) => ({path: g.path, message: g.message})),
    ...(manifest.redaction === undefined ? {} : {redaction: {replaced: sortedCounts(manifest.redaction.replaced)}}),
  }
  return new TextEncoder().encode(`${JSON.stringify(ordered, null, 2)}\n`)
}

function sortedCounts(counts: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => byCodePoint(a, b)))
}

export function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/**
 * A path inside a recording: relative, `/`-separated, no `.`/`..`/empty segments, not the manifest.
 * Returns why not, or null when it is fine.
 */
export function checkRecordingPath(path: string): string | null {
  if (path === '') return 'an empty path'
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.includes('\\')) return `not a relative /-separated path: ${path}`
  if (path.split('/').some((s) => s === '' || s === '.' || s === '..')) return `a path with an empty, . or .. segment: ${path}`
  if (path.includes('\0')) return 'a path with a NUL byte'
  if (path === RECORDING_MANIFEST_NAME) return `${RECORDING_MANIFEST_NAME} is the manifest`
  return null
}
