import {lstat, mkdir, mkdtemp, readdir, realpath, rename, rm, rmdir} from 'node:fs/promises'
import {homedir} from 'node:os'
import {basename, dirname, isAbsolute, join, parse, relative, resolve, sep} from 'node:path'
import {createNodeFilePort, DEFAULT_LIMITS, discoverRun, type FsPort} from '../ingest/index.js'
import type {RecordingManifest} from '../recording/manifest.js'
import {selectRecordingFiles, type RecordingSource} from '../recording/select-files.js'
import {RecordingWriter} from '../recording/writer.js'
import type {Report} from '../render/json/report.js'
import {UsageError} from '../shared/errors.js'
import type {RedactionIdentities, RedactionKind} from '../shared/redact.js'
import {analyzeRunPath} from './analyze.js'
import {createProgress, type Progress} from './progress.js'
import {machineIdentities} from './redaction.js'
import {redactionRefusal, roundTripBug, type PreparedFile} from './record-messages.js'
import {checkRedactedFiles, redactFiles} from './record-redact.js'
import {diffVerdicts, verdictView} from './record-verdicts.js'
import {neutralised} from '../shared/neutralise.js'

export interface RecordOptions {
  readonly out: string
  /** Replace the contents of a non-empty `out`. */
  readonly force?: boolean
  /** Redact names and secrets (default true; `--no-redact`). */
  readonly redact?: boolean
  /** More words to redact (`--redact-also`). */
  readonly redactAlso?: readonly string[]
  readonly tool: {readonly name: string; readonly version: string}
  readonly progress?: Progress
  /** The recording machine's user, host and home (default: this machine's); tests pass their own. */
  readonly machine?: RedactionIdentities
  /** The read-only door to RUN (tests inject their own). */
  readonly port?: FsPort
}

export interface RecordResult {
  /** The recording's absolute path. */
  readonly out: string
  readonly redacted: boolean
  readonly files: number
  readonly versions: number
  readonly bytes: number
  /** What redaction replaced, per kind. */
  readonly replaced: Readonly<Partial<Record<RedactionKind, number>>>
  /** The profiles under which the recording was checked to replay as RUN does. */
  readonly profiles: readonly string[]
  readonly tasks: readonly {readonly taskId: string; readonly attempt: number; readonly recorded: string | null; readonly replay: Readonly<Record<string, string | null>>}[]
  readonly manifest: RecordingManifest
}

const SILENT: Progress = {step: () => undefined, done: () => undefined}

/**
 * `guardkit-replay record RUN --out DIR`: copies what replay reads of RUN (docs/recording-format.md),
 * redacted unless asked not to, into a new recording, and keeps it only if `analyze` of the
 * recording reaches the same verdicts and signatures as `analyze` of RUN (else nothing is written).
 * RUN is only read, through ingest's read-only port; the recording is built next to DIR and moved
 * into place when checked.
 */
export async function runRecord(runPath: string, options: RecordOptions): Promise<RecordResult> {
  const progress = options.progress ?? createProgress()
  try {
    if (runPath === '-') throw new UsageError('record needs RUN as a file or a directory, not stdin.', 'Save the log first (`… 2>&1 | tee run.log`), or record while it runs with `guardkit-replay live --record DIR -- …`.')
    const port = options.port ?? createNodeFilePort()
    const out = await checkOut(runPath, options.out, options.force === true)
    progress.step(`replaying ${runPath} …`)
    const before = await analyse(runPath, options, port)
    const discovery = await discoverRun(port, runPath, DEFAULT_LIMITS)
    const source = await selectRecordingFiles(discovery.port, discovery)
    progress.step(`reading ${source.files.length} files …`)
    const plain = await readSource(discovery.port, source)
    const redact = options.redact !== false
    const identities = {...(options.machine ?? machineIdentities({bytes: true})), words: [...(options.machine?.words ?? []), ...(options.redactAlso ?? []).map(latin1OfUtf8)]}
    const prepared = redact ? redactFiles(plain, identities) : plain
    // every redacted file is parsed again: one that would not parse is refused before anything is written
    if (redact) checkRedactedFiles(plain, prepared)
    const created = await mkdir(dirname(out.abs), {recursive: true}).catch((error: unknown) => {
      throw cannotWrite(options.out, error)
    })
    const staged: string[] = []
    let done = false
    try {
      const stage = async (files: readonly PreparedFile[], redacted: boolean) => {
        const dir = await mkdtemp(join(dirname(out.abs), '.guardkit-replay-record-')).catch((error: unknown) => {
          throw cannotWrite(options.out, error)
        })
        staged.push(dir)
        return {dir, manifest: await writeRecording(dir, files, source, redacted, options)}
      }
      progress.step('writing and replaying the recording …')
      const first = await stage(prepared, redact)
      // the recording is on disk whatever port RUN was read through
      const disk = createNodeFilePort()
      const after = await analyse(first.dir, options, disk)
      const differences = diffVerdicts(verdictView(before), verdictView(after))
      if (differences.length > 0) {
        if (!redact) throw roundTripBug(runPath, differences)
        const unredacted = await stage(plain, false)
        const plainDifferences = diffVerdicts(verdictView(before), verdictView(await analyse(unredacted.dir, options, disk)))
        if (plainDifferences.length > 0) throw roundTripBug(runPath, plainDifferences)
        throw redactionRefusal(options.out, before, differences, prepared)
      }
      await install(first.dir, out, options.out)
      staged.splice(staged.indexOf(first.dir), 1)
      done = true
      return summarise(out.abs, first.manifest, prepared, before, redact)
    } finally {
      for (const dir of staged) await rm(dir, {recursive: true, force: true})
      // nothing written: not even the folders made for DIR — unless another record has put its recording there meanwhile
      if (!done && created !== undefined) await removeEmptyUpTo(dirname(out.abs), created)
    }
  } finally {
    progress.done()
  }
}

async function analyse(runPath: string, options: RecordOptions, port: FsPort): Promise<Report> {
  const report = await analyzeRunPath(runPath, {names: [], with: [], without: [], tool: options.tool, progress: SILENT, port})
  const {buildAnalysisReport} = await import('../render/json/build-analysis-report.js')
  return buildAnalysisReport(report)
}

interface OutDir {
  readonly abs: string
  readonly exists: boolean
  readonly nonEmpty: boolean
}

/**
 * DIR may not be RUN, lie inside RUN (RUN is never written to) or hold RUN (`--force` would
 * delete it); a non-empty DIR needs `--force`. All usage errors, found before anything is read.
 */
async function checkOut(runPath: string, out: string, force: boolean): Promise<OutDir> {
  const abs = resolve(out)
  // RUN as the file system reads it (`RUN/link/../run` is `..` of the link's target), as discovery does
  const runReal = await realpath(runPath).catch(() => resolve(runPath))
  const outReal = await realOfMaybeMissing(abs)
  if (within(outReal, runReal) || within(abs, resolve(runPath))) {
    throw new UsageError(neutralised`--out ${out} is inside RUN ${runPath}: RUN is never written to.`, 'Write the recording somewhere else, e.g. `--out ../recordings/NAME`.')
  }
  if (within(runReal, outReal)) throw new UsageError(neutralised`--out ${out} holds RUN ${runPath}: the recording would replace it.`, 'Write the recording to a folder of its own.')
  const st = await lstat(abs).catch(() => null)
  if (st === null) return {abs, exists: false, nonEmpty: false}
  if (!st.isDirectory()) throw new UsageError(neutralised`--out ${out} exists and is not a directory.`)
  const entries = await readdir(abs)
  if (entries.length > 0 && !force) {
    throw new UsageError(neutralised`--out ${out} is not empty (${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}).`, 'Pass an empty or new folder, or --force to replace its contents.')
  }
  if (entries.length > 0 && (outReal === parse(outReal).root || outReal === (await realpath(homedir()).catch(() => homedir())))) {
    throw new UsageError(neutralised`--out ${out} is ${outReal === parse(outReal).root ? 'the file system root' : 'your home directory'}: --force will not empty it.`)
  }
  return {abs, exists: true, nonEmpty: entries.length > 0}
}

/** The real path of a path that may not exist yet: its nearest existing parent's, plus the rest. */
async function realOfMaybeMissing(abs: string): Promise<string> {
  const rest: string[] = []
  let here = abs
  for (;;) {
    try {
      return join(await realpath(here), ...rest.reverse())
    } catch {
      const up = dirname(here)
      if (up === here) return abs
      rest.push(basename(here))
      here = up
    }
  }
}

function within(child: string, parent: string): boolean {
  const rel = relative(parent, child)
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel))
}

async function readSource(port: FsPort, source: RecordingSource): Promise<PreparedFile[]> {
  const out: PreparedFile[] = []
  // what ingest would read of each file: a log longer than maxLogBytes is read up to it
  for (const f of source.files) {
    const bytes = await readAll(port, f.abs, f.role === 'log' ? DEFAULT_LIMITS.maxLogBytes : DEFAULT_LIMITS.maxArtifactBytes)
    if (bytes !== null) out.push({path: f.path, bytes, hits: [], role: f.role === 'log' ? 'log' : 'other'})
  }
  for (const v of source.versions) {
    const bytes = await readAll(port, v.abs, DEFAULT_LIMITS.maxArtifactBytes)
    if (bytes !== null) out.push({path: `versions/${v.path}/${v.version}`, bytes, hits: [], role: 'version', version: v})
  }
  return out
}

async function readAll(port: FsPort, abs: string, max: number): Promise<Uint8Array | null> {
  try {
    return (await port.readFile(abs, max)).bytes
  } catch {
    // unreadable in RUN too: ingest reported it there, and the round trip check compares the rest
    return null
  }
}

function latin1OfUtf8(s: string): string {
  return Buffer.from(s, 'utf8').toString('latin1')
}

async function writeRecording(dir: string, files: readonly PreparedFile[], source: RecordingSource, redacted: boolean, options: RecordOptions): Promise<RecordingManifest> {
  const writer = await RecordingWriter.create(dir, {tool: options.tool, createdBy: 'record', redacted})
  for (const f of files) {
    if (f.version !== undefined) {
      await writer.putVersion(f.version.path, f.version.version, f.bytes, {seenAt: f.version.seenAt, note: f.version.note})
    } else {
      await writer.putFile(f.path, f.bytes)
      if (f.role === 'log') writer.markLog(f.path)
    }
  }
  for (const gap of source.gaps) writer.addGap(gap.path, gap.message)
  return writer.finish(redacted ? {redaction: {replaced: countHits(files)}} : {})
}

function countHits(files: readonly PreparedFile[]): Partial<Record<RedactionKind, number>> {
  const counts: Partial<Record<RedactionKind, number>> = {}
  for (const f of files) for (const h of f.hits) counts[h.kind] = (counts[h.kind] ?? 0) + 1
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}

function cannotWrite(out: string, error: unknown): UsageError {
  const code = (error as NodeJS.ErrnoException).code ?? 'an error'
  return new UsageError(neutralised`Cannot write the recording to ${out}: ${code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'EROFS' ? 'a read-only file system' : (error as Error).message}.`, 'Pass --out a folder you can write to.')
}

/**
 * Moves the checked recording into DIR (emptied first under --force) with one rename: a reader sees
 * no recording or a whole one. Another `record` (or anything else) writing DIR meanwhile makes the
 * rename fail: that is a clash, a usage error (exit 2), and this recording is not kept.
 */
async function install(staged: string, out: OutDir, given: string): Promise<void> {
  try {
    if (out.exists) {
      if (out.nonEmpty) for (const name of await readdir(out.abs)) await rm(join(out.abs, name), {recursive: true, force: true})
      await rmdir(out.abs)
    }
    await rename(staged, out.abs)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error'
    if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') {
      throw new UsageError(neutralised`--out ${given} was written by another process while this recording was made (${code}): nothing was written by this one.`,
        'Give each record its own --out (or record again once the other has finished, with --force to replace its recording).')
    }
    throw cannotWrite(given, error)
  }
}

/** The folders made for DIR, removed from `dir` up to `top` as long as they are empty. */
async function removeEmptyUpTo(dir: string, top: string): Promise<void> {
  for (let here = dir; ; here = dirname(here)) {
    try {
      await rmdir(here)
    } catch {
      return
    }
    if (here === top || dirname(here) === here) return
  }
}

function summarise(abs: string, manifest: RecordingManifest, files: readonly PreparedFile[], report: Report, redacted: boolean): RecordResult {
  return {
    out: abs,
    redacted,
    files: manifest.files.length,
    versions: manifest.versions.length,
    bytes: manifest.files.reduce((n, f) => n + f.bytes, 0) + manifest.versions.reduce((n, v) => n + v.bytes, 0),
    replaced: redacted ? countHits(files) : {},
    profiles: (report.profiles ?? []).map((p) => p.name),
    tasks: report.tasks.map((t) => ({
      taskId: t.taskId,
      attempt: t.attempt,
      recorded: t.recorded.outcome,
      replay: Object.fromEntries(Object.entries(t.replay ?? {}).map(([name, r]) => [name, r.outcome])),
    })),
    manifest,
  }
}
