import {createReadStream} from 'node:fs'
import {mkdir, open, rename, writeFile, type FileHandle} from 'node:fs/promises'
import {createHash} from 'node:crypto'
import {dirname, join} from 'node:path'
import {
  byCodePoint, checkRecordingPath, RECORDING_FORMAT, RECORDING_MANIFEST_NAME, serializeManifest, sha256Hex, versionFile,
  type ManifestGap, type ManifestVersion, type RecordingManifest,
} from './manifest.js'

export interface RecordingWriterOptions {
  readonly tool: {readonly name: string; readonly version: string}
  readonly createdBy: 'record' | 'live'
  readonly redacted: boolean
}

export interface VersionMeta {
  /** When the recorder saw this version (ISO 8601, UTC); null when unknown. */
  readonly seenAt?: string | null
  readonly note?: string | null
}

/**
 * Writes a recording (docs/recording-format.md), the one format `record` and `live` share. Files
 * are written at their own path; when `putFile` is given new bytes for a path written before, the
 * earlier bytes move to `versions/<path>/<n>` (n = 1, 2, … oldest first) with when they were seen.
 * `finish` hashes every file and writes `guardkit-replay.json` last, so a directory without a
 * manifest is a recording still being written (or abandoned).
 *
 * The writer only ever writes below `dir`; paths are checked (`checkRecordingPath`).
 */
export class RecordingWriter {
  private readonly current = new Map<string, {bytes: Uint8Array; meta: VersionMeta}>()
  private readonly versions: (Omit<ManifestVersion, 'sha256' | 'bytes'> & {bytes: Uint8Array})[] = []
  private readonly gaps: ManifestGap[] = []
  private readonly logs = new Set<string>()
  private readonly appending = new Map<string, FileHandle>()
  private finished = false

  private constructor(
    readonly dir: string,
    private readonly options: RecordingWriterOptions,
  ) {}

  /** Creates `dir` (and its parents) when missing. The caller decides whether a non-empty `dir` may be used. */
  static async create(dir: string, options: RecordingWriterOptions): Promise<RecordingWriter> {
    await mkdir(dir, {recursive: true})
    return new RecordingWriter(dir, options)
  }

  /**
   * The latest bytes of `path`. Returns 'same' when they equal the last bytes written, 'version'
   * when earlier bytes were kept as a version, 'new' otherwise.
   */
  async putFile(path: string, bytes: Uint8Array, meta: VersionMeta = {}): Promise<'new' | 'same' | 'version'> {
    this.check(path)
    if (this.appending.has(path)) throw new Error(`${path} is being appended to`)
    const before = this.current.get(path)
    if (before !== undefined && equalBytes(before.bytes, bytes)) return 'same'
    if (before !== undefined) {
      const version = this.versions.filter((v) => v.path === path).reduce((n, v) => Math.max(n, v.version), 0) + 1
      await this.write(versionFile(path, version), before.bytes)
      this.versions.push({path, version, file: versionFile(path, version), seenAt: before.meta.seenAt ?? null, note: before.meta.note ?? null, bytes: before.bytes})
    }
    await this.write(path, bytes)
    this.current.set(path, {bytes, meta})
    return before === undefined ? 'new' : 'version'
  }

  /** An earlier version known from elsewhere (`record` of a recording keeps its `versions/`). */
  async putVersion(path: string, version: number, bytes: Uint8Array, meta: VersionMeta = {}): Promise<void> {
    this.check(path)
    if (!Number.isSafeInteger(version) || version < 1) throw new Error(`version ${version} of ${path}: versions count from 1`)
    if (this.versions.some((v) => v.path === path && v.version === version)) throw new Error(`version ${version} of ${path} written twice`)
    await this.write(versionFile(path, version), bytes)
    this.versions.push({path, version, file: versionFile(path, version), seenAt: meta.seenAt ?? null, note: meta.note ?? null, bytes})
  }

  /** Appends to `path` (the console capture, as the command prints it). */
  async append(path: string, chunk: Uint8Array): Promise<void> {
    this.check(path)
    let handle = this.appending.get(path)
    if (handle === undefined) {
      if (this.current.has(path)) throw new Error(`${path} was written whole`)
      await mkdir(dirname(join(this.dir, ...path.split('/'))), {recursive: true})
      handle = await open(join(this.dir, ...path.split('/')), 'a')
      this.appending.set(path, handle)
    }
    await handle.write(chunk)
  }

  /** Reads `path` as a log whatever its name (`run.log`, a captured `.md`, a log without extension). */
  markLog(path: string): void {
    this.check(path)
    this.logs.add(path)
  }

  /** Where a version may have been missed (the recorder cannot see a write overwritten before it looks). */
  addGap(path: string, message: string): void {
    this.gaps.push({path, message})
  }

  /** Closes appended files, hashes every file and writes the manifest (last). */
  async finish(extra: Pick<RecordingManifest, 'redaction'> = {}): Promise<RecordingManifest> {
    if (this.finished) throw new Error('the recording is already finished')
    this.finished = true
    for (const handle of this.appending.values()) await handle.close()
    const paths = [...new Set([...this.current.keys(), ...this.appending.keys()])].sort(byCodePoint)
    const files = []
    for (const path of paths) {
      const held = this.current.get(path)?.bytes
      files.push(held === undefined ? {path, ...(await hashFile(join(this.dir, ...path.split('/'))))} : {path, sha256: sha256Hex(held), bytes: held.length})
    }
    const versions = this.versions
      .slice()
      .sort((a, b) => byCodePoint(a.path, b.path) || a.version - b.version)
      .map(({bytes, ...v}) => ({...v, sha256: sha256Hex(bytes), bytes: bytes.length}))
    const manifest: RecordingManifest = {
      format: RECORDING_FORMAT,
      formatVersion: 1,
      tool: this.options.tool,
      createdBy: this.options.createdBy,
      redacted: this.options.redacted,
      files,
      logs: [...this.logs].filter((p) => paths.includes(p)).sort(byCodePoint),
      versions,
      gaps: this.gaps.slice(),
      ...(extra.redaction === undefined ? {} : {redaction: extra.redaction}),
    }
    // written to a temporary name and renamed: a reader never sees half a manifest
    const temp = join(this.dir, `.${RECORDING_MANIFEST_NAME}.partial`)
    await writeFile(temp, serializeManifest(manifest))
    await rename(temp, join(this.dir, RECORDING_MANIFEST_NAME))
    return manifest
  }

  private check(path: string): void {
    if (this.finished) throw new Error('the recording is already finished')
    const problem = checkRecordingPath(path)
    if (problem !== null) throw new Error(`cannot write ${problem}`)
    if (path === 'versions' || path.startsWith('versions/')) throw new Error(`versions/ holds earlier versions: ${path}`)
  }

  private async write(path: string, bytes: Uint8Array): Promise<void> {
    const abs = join(this.dir, ...path.split('/'))
    await mkdir(dirname(abs), {recursive: true})
    await writeFile(abs, bytes)
  }
}

async function hashFile(abs: string): Promise<{sha256: string; bytes: number}> {
  const hash = createHash('sha256')
  let bytes = 0
  for await (const chunk of createReadStream(abs)) {
    hash.update(chunk as Buffer)
    bytes += (chunk as Buffer).length
  }
  return {sha256: hash.digest('hex'), bytes}
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}
