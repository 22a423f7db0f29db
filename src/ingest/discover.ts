import {basename, dirname, isAbsolute, join, sep} from 'node:path'
import type {IngestIssue} from '../model/ingest-issue.js'
import {UsageError} from '../shared/errors.js'
import {describeErrorCode, errorCode, PortError, readErrorIssue, type FsPort} from './fs/file-port.js'
import type {Compression} from './fs/text-bytes.js'
import type {RecordingManifest} from './discovery/recording.js'
import {collectWorktree, isEventLog, isWorktreeRoot, type DiscoveredFile, type DiscoveredWorktree} from './discovery/find-worktree.js'
import {DEFAULT_LIMITS, type IngestLimits} from './discovery/limits.js'
import {byCodePoint, listDir, type Entry, type RunRoot} from './discovery/run-paths.js'
import {compressedIssue, decompressedName, hasCompressedLogName, hasLogExtension, sniffLog, type QuotingDocument} from './discovery/sniff-log.js'
import {RECORDING_MANIFEST_NAME} from './discovery/limits.js'
import {neutralised} from '../shared/neutralise.js'

export type {DiscoveredFile, DiscoveredTaskFolder, DiscoveredWorktree} from './discovery/find-worktree.js'
export type {RecordingManifest} from './discovery/recording.js'
export {DEFAULT_LIMITS, type IngestLimits} from './discovery/limits.js'

/** What RUN holds, before anything is parsed. */
export interface Discovery {
  /** RUN as the user gave it. */
  readonly runPath: string
  readonly input: 'stdin' | 'file' | 'dir'
  /** Absolute RUN (for a single file: its folder); null for stdin. */
  readonly root: RunRoot | null
  readonly logs: readonly DiscoveredFile[]
  readonly worktrees: readonly DiscoveredWorktree[]
  /**
   * Event logs (`feature-events.jsonl`, `events.jsonl`: one JSON object per line, June 2026): found
   * anywhere the search looks for logs, and in `.guardkit/autobuild/FEAT-*` folders of a worktree.
   */
  readonly eventFiles?: readonly DiscoveredFile[]
  /** The manifest of a recording (docs/recording-format.md), when RUN is one. */
  readonly fixture: RecordingManifest | null
  readonly issues: readonly IngestIssue[]
  /** The port to read RUN's files through: confined to RUN (for stdin, the port given). */
  readonly port: FsPort
}

const SKIP_DIRS = new Set(['node_modules', '__pycache__', 'venv', 'site-packages'])

/**
 * Finds what RUN holds (docs/ingest.md): `-` is a log on stdin; a file is a log; a directory may hold
 * logs (`*.log`, `*.md`, `*.txt` with AutoBuild output), worktrees or copies of them (RUN itself,
 * `.guardkit/worktrees/*` of a repository root, or folders below RUN), and a fixture manifest.
 * Nothing is opened for writing. A missing or unreadable RUN is a usage error; everything else
 * that is wrong becomes an issue.
 */
export async function discoverRun(port: FsPort, runPath: string, limits: IngestLimits = DEFAULT_LIMITS): Promise<Discovery> {
  if (runPath === '-') return {runPath, input: 'stdin', root: null, logs: [], worktrees: [], fixture: null, issues: [], port}
  // `RUN/link/../run` means what it means to the shell: `..` of the link's target, not of `RUN/`
  // (port.resolve would fold it away before the file system saw it)
  const given = physicalPath(port, runPath)
  let kind: 'file' | 'dir' | 'other'
  let real: string
  try {
    kind = (await port.stat(given)).kind as 'file' | 'dir' | 'other'
    real = await port.realpath(given)
  } catch (error) {
    const code = errorCode(error)
    if (code === 'ENOENT') throw new UsageError(neutralised`RUN not found: ${runPath}`, 'Pass a log file, `-` for a log on stdin, or a directory holding logs, a worktree or a fixture.')
    throw new UsageError(neutralised`Cannot read RUN ${runPath}: ${describeErrorCode(code)} (${code}).`)
  }
  if (kind === 'file') {
    // the user named this file: it is read at its target (through a link too), under the name given
    const root = {abs: dirname(real), real: dirname(real)}
    const size = await port.stat(real).then((s) => s.size)
    const rel = basename(port.resolve(runPath))
    const inside = port.within(root.real)
    // whatever its name, a review that quotes records is not a capture (sniff-log.ts): it is not read as one
    const sniff = await sniffLog(inside, real, limits.sniffBytes)
    if (typeof sniff === 'object' && 'document' in sniff) return {runPath, input: 'file', root, logs: [], worktrees: [], fixture: null, issues: [notACaptureIssue(rel, sniff)], port: inside}
    if (typeof sniff === 'object' && 'compressed' in sniff) {
      // the copy goes beside the path the user gave: a file of its name there is not to be overwritten
      const beside = new Set(await port.readdir(dirname(port.resolve(runPath))).catch(() => [] as string[]))
      const copy = decompressedName(runPath, sniff.compressed, (name) => beside.has(basename(name)))
      return {runPath, input: 'file', root, logs: [], worktrees: [], fixture: null, issues: [compressedIssue(rel, sniff.compressed, runPath, copy)], port: inside}
    }
    return {runPath, input: 'file', root, logs: [{abs: real, rel, size}], worktrees: [], fixture: null, issues: [], port: inside}
  }
  if (kind !== 'dir') throw new UsageError(neutralised`RUN is neither a file nor a directory: ${runPath}`)
  const root: RunRoot = {abs: real, real}
  // every file of RUN is read through the port confined to it: a link (or a folder swapped for one) out of RUN is refused
  const inside = port.within(real)
  const walker = new Walker(inside, root, limits)
  await walker.walk(real, '.', 1)
  // The manifest reader pulls in zod; a plain log should not pay for it at start-up.
  const fixture = walker.sawManifest
    ? await (await import('./discovery/recording.js')).readRecordingManifest(inside, root, limits, walker.issues)
    : null
  const logs = await walker.pickLogs(fixture)
  const worktrees = walker.worktrees.slice().sort((a, b) => byCodePoint(a.rel, b.rel))
  const eventFiles = walker.eventFiles.slice().sort((a, b) => byCodePoint(a.rel, b.rel))
  return {runPath, input: 'dir', root, logs, worktrees, eventFiles, fixture, issues: walker.issues, port: inside}
}

/** An absolute form of a user's path that leaves `..` to the file system (path.resolve would fold `link/..`). */
function physicalPath(port: FsPort, path: string): string {
  if (isAbsolute(path)) return path
  const cwd = port.resolve('.')
  return cwd.endsWith(sep) ? `${cwd}${path}` : `${cwd}${sep}${path}`
}

class Walker {
  readonly issues: IngestIssue[] = []
  readonly worktrees: DiscoveredWorktree[] = []
  readonly candidates: DiscoveredFile[] = []
  readonly eventFiles: DiscoveredFile[] = []
  sawManifest = false
  private readonly visited = new Set<string>()
  private entries = 0
  private stopped = false

  constructor(
    private readonly port: FsPort,
    private readonly root: RunRoot,
    private readonly limits: IngestLimits,
  ) {
    this.visited.add(root.real)
  }

  async walk(dirAbs: string, dirRel: string, depth: number): Promise<void> {
    if (this.stopped) return
    const entries = await listDir(this.port, this.root, dirAbs, this.issues, this.visited, this.limits.maxFolderEntries)
    this.entries += entries.length
    if (this.entries > this.limits.maxEntries) {
      this.stopped = true
      this.issues.push({file: dirRel, code: 'search-limit', severity: 'warning',
        message: `RUN has more than ${this.limits.maxEntries} entries: the search stopped here; pass a smaller folder (a worktree, or the logs)`})
      return
    }
    const worktree = isWorktreeRoot(entries)
    if (depth === 1) this.sawManifest = entries.some((e) => e.kind === 'file' && e.name === RECORDING_MANIFEST_NAME)
    if (worktree) await this.collect({abs: dirAbs, rel: dirRel}, entries)
    for (const e of entries) {
      if (e.kind === 'file') {
        if (!(depth === 1 && e.name === RECORDING_MANIFEST_NAME) && hasLogExtension(e.name)) this.candidates.push({abs: e.abs, rel: e.rel, size: e.size})
        else if (isEventLog(e.name)) this.eventFiles.push({abs: e.abs, rel: e.rel, size: e.size})
      } else if (depth < this.limits.maxSearchDepth && !e.name.startsWith('.') && !SKIP_DIRS.has(e.name) && !(worktree && e.name === 'tasks')
        // a recording keeps earlier versions of its files under versions/ (read through the manifest)
        && !(depth === 1 && this.sawManifest && e.name === 'versions')) {
        await this.walk(e.abs, e.rel, depth + 1)
      }
    }
  }

  private async collect(dir: {abs: string; rel: string}, entries: readonly Entry[]): Promise<void> {
    const {worktree, nested, eventFiles} = await collectWorktree(this.port, this.root, dir, entries, this.limits, this.issues, this.visited)
    if (hasContent(worktree)) this.worktrees.push(worktree)
    this.eventFiles.push(...eventFiles)
    for (const n of nested) {
      const inner = await listDir(this.port, this.root, n.abs, this.issues, this.visited, this.limits.maxFolderEntries)
      await this.collect({abs: n.abs, rel: n.rel}, inner)
    }
  }

  /** Candidates that hold AutoBuild output (a fixture's declared logs always count). */
  async pickLogs(fixture: RecordingManifest | null): Promise<DiscoveredFile[]> {
    const declared = new Set(fixture?.logs ?? [])
    const out: DiscoveredFile[] = []
    const compressed: {rel: string; compression: Compression}[] = []
    for (const c of this.candidates) {
      if (declared.has(c.rel)) {
        out.push(c)
        continue
      }
      const sniff = await sniffLog(this.port, c.abs, this.limits.sniffBytes)
      const isLog = c.rel.endsWith('.log')
      if (sniff === 'autobuild') out.push(c)
      else if (typeof sniff === 'object' && 'document' in sniff) this.issues.push(notACaptureIssue(c.rel, sniff))
      else if (typeof sniff === 'object' && 'compressed' in sniff) {
        // a compressed .md or .txt is skipped silently, as any other binary one is; a log is said to be one
        if (isLog || hasCompressedLogName(c.rel)) compressed.push({rel: c.rel, compression: sniff.compressed})
      }
      else if (typeof sniff === 'object') {
        this.issues.push(readErrorIssue(c.rel, new PortError(sniff.unreadable, sniff.unreadable)))
      } else if (sniff === 'mentions') {
        this.issues.push({file: c.rel, code: 'not-a-log', severity: 'info', message: 'quotes GuardKit log records but holds no captured AutoBuild run: not read as a log'})
      } else if (isLog && sniff === 'empty') {
        this.issues.push({file: c.rel, code: 'empty', severity: 'warning', message: 'the file is empty'})
      } else if (isLog && sniff === 'binary') {
        this.issues.push({file: c.rel, code: 'binary', severity: 'warning', message: 'binary content (mostly control bytes or bytes that are not UTF-8), not a log: skipped'})
      } else if (isLog) {
        this.issues.push({file: c.rel, code: 'not-a-log', severity: 'info', message: 'holds no AutoBuild output: not read as a log'})
      }
    }
    // a compressed log whose decompressed copy is read (the user did as the warning said) is only noted
    for (const c of compressed) {
      const copy = decompressedName(c.rel, c.compression)
      if (out.some((l) => l.rel === copy)) {
        this.issues.push({file: c.rel, code: 'compressed', severity: 'info', message: `the file is compressed, not read: its decompressed copy ${copy} is read`})
        continue
      }
      // a file of the copy's name that is not a log read here is not to be overwritten
      this.issues.push(compressedIssue(c.rel, c.compression, null, decompressedName(c.rel, c.compression, (name) => this.candidates.some((f) => f.rel === name))))
    }
    for (const rel of declared) {
      if (!out.some((l) => l.rel === rel) && !this.candidates.some((c) => c.rel === rel)) {
        const abs = join(this.root.abs, ...rel.split('/'))
        const size = await this.port.stat(abs).then((s) => s.size).catch(() => -1)
        if (size >= 0) out.push({abs, rel, size})
      }
    }
    return out.sort((a, b) => byCodePoint(a.rel, b.rel))
  }
}

function hasContent(w: DiscoveredWorktree): boolean {
  return w.taskFolders.length > 0 || w.taskFiles.length > 0 || w.featureFiles.length > 0 || w.configFile !== null
}

/** A Markdown document quoting GuardKit records is said to be one, with where its quotes are, and not read. */
function notACaptureIssue(rel: string, sniff: QuotingDocument): IngestIssue {
  const {records, firstLine, lastLine} = sniff.document
  const where = firstLine === lastLine ? `line ${firstLine}` : `lines ${firstLine}–${lastLine}`
  return {file: rel, line: firstLine, code: 'not-a-log', severity: 'warning',
    message: `a Markdown document that quotes ${records} GuardKit log record${records === 1 ? '' : 's'} in code blocks among its prose (${where}), not a captured AutoBuild run: excerpts, perhaps of several runs, are not read as one run`}
}
