import {createHash} from 'node:crypto'
import {mkdir, rename, rm, writeFile} from 'node:fs/promises'
import {dirname, join} from 'node:path'
import {RECORDING_FORMAT, RECORDING_MANIFEST_NAME, serializeManifest, versionFile, type ManifestGap, type ManifestVersion, type RecordingManifest} from '../recording/manifest.js'
import {RecordingWriter} from '../recording/writer.js'
import {keepsVersions} from './worktree-paths.js'

export const RUN_LOG = 'run.log'

export type RecordResult = 'new' | 'same' | 'version'

/**
 * The recording `live` leaves (docs/recording-format.md), written as the build runs through the
 * shared RecordingWriter: `run.log` appended as the command prints, each artifact under
 * `.guardkit/autobuild/` put as it lands (an overwritten one keeps its earlier bytes under
 * `versions/`, with when it was seen), task files, feature YAML and config as they are now (a
 * task file GuardKit moves is moved here too). Operations run one after another, in call order.
 *
 * While the build runs, an interim manifest (no `files`, the versions so far) keeps the directory a
 * RUN that `analyze` and the live view can read; `finish` writes the final one.
 */
export class LiveRecorder {
  private chain: Promise<unknown> = Promise.resolve()
  private readonly logHash = createHash('sha256')
  private logBytes = 0
  /** Files kept at their latest state only (task files, feature YAML, config): path → bytes. */
  private readonly mirror = new Map<string, Buffer>()
  private readonly artifacts = new Map<string, {sha256: string; bytes: number; seenAt: string | null; note: string | null}>()
  private readonly versions: ManifestVersion[] = []
  private readonly gaps: ManifestGap[] = []
  private failure: Error | null = null
  private finishing = false

  private constructor(
    private readonly writer: RecordingWriter,
    private readonly tool: {readonly name: string; readonly version: string},
  ) {}

  static async create(dir: string, tool: {name: string; version: string}): Promise<LiveRecorder> {
    const writer = await RecordingWriter.create(dir, {tool, createdBy: 'live', redacted: false})
    writer.markLog(RUN_LOG)
    const recorder = new LiveRecorder(writer, tool)
    // run.log exists from the start, empty when the command prints nothing
    await writer.append(RUN_LOG, new Uint8Array(0))
    await recorder.writeInterimManifest()
    return recorder
  }

  get dir(): string {
    return this.writer.dir
  }

  get logSize(): number {
    return this.logBytes
  }

  /** The first write error, if any (the recording is then incomplete). */
  get error(): Error | null {
    return this.failure
  }

  appendLog(chunk: Uint8Array): void {
    this.logHash.update(chunk)
    this.logBytes += chunk.length
    void this.enqueue(() => this.writer.append(RUN_LOG, chunk))
  }

  /** A worktree file's latest bytes; resolves once written. */
  recordFile(rel: string, bytes: Buffer, seenAt: Date): Promise<RecordResult> {
    return this.enqueue(async () => {
      if (!keepsVersions(rel)) {
        const before = this.mirror.get(rel)
        if (before?.equals(bytes)) return 'same'
        await this.writeDirect(rel, bytes)
        this.mirror.set(rel, bytes)
        return before === undefined ? 'new' : 'version'
      }
      const meta = {seenAt: seenAt.toISOString(), note: null}
      const before = this.artifacts.get(rel)
      const result = await this.writer.putFile(rel, bytes, meta)
      if (result === 'version' && before !== undefined) {
        const version = this.versions.filter((v) => v.path === rel).length + 1
        this.versions.push({path: rel, version, file: versionFile(rel, version), seenAt: before.seenAt, sha256: before.sha256, bytes: before.bytes, note: before.note})
      }
      if (result !== 'same') this.artifacts.set(rel, {sha256: sha256(bytes), bytes: bytes.length, ...meta})
      return result
    }) as Promise<RecordResult>
  }

  /** A task file moved or deleted in the worktree: the recording follows (artifacts are kept as last seen). */
  removeFile(rel: string): Promise<void> {
    return this.enqueue(async () => {
      if (keepsVersions(rel) || !this.mirror.has(rel)) return
      this.mirror.delete(rel)
      await rm(join(this.dir, ...rel.split('/')), {force: true})
    }) as Promise<void>
  }

  addGap(path: string, message: string): void {
    this.gaps.push({path, message})
    this.writer.addGap(path, message)
  }

  writeInterimManifest(): Promise<void> {
    return this.enqueue(async () => {
      if (this.finishing) return
      const manifest: RecordingManifest = {
        format: RECORDING_FORMAT,
        formatVersion: 1,
        tool: this.tool,
        createdBy: 'live',
        redacted: false,
        files: [],
        logs: [],
        versions: [...this.versions],
        gaps: [...this.gaps],
      }
      const temp = join(this.dir, `.${RECORDING_MANIFEST_NAME}.interim`)
      await writeFile(temp, serializeManifest(manifest))
      await rename(temp, join(this.dir, RECORDING_MANIFEST_NAME))
    }) as Promise<void>
  }

  /** Everything queued written, the mirrored files handed to the writer, the final manifest written. */
  async finish(): Promise<RecordingManifest | null> {
    return (await this.enqueue(async () => {
      this.finishing = true
      for (const [rel, bytes] of [...this.mirror].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) await this.writer.putFile(rel, bytes)
      return this.writer.finish()
    })) ?? null
  }

  private async writeDirect(rel: string, bytes: Buffer): Promise<void> {
    const abs = join(this.dir, ...rel.split('/'))
    await mkdir(dirname(abs), {recursive: true})
    await writeFile(abs, bytes)
  }

  private enqueue<T>(op: () => Promise<T>): Promise<T | undefined> {
    const next = this.chain.then(op).catch((error: unknown) => {
      this.failure ??= error as Error
      return undefined
    })
    this.chain = next
    return next
  }
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex')
}
