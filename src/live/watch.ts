import {createHash} from 'node:crypto'
import {lstatSync, statSync, watch, type FSWatcher} from 'node:fs'
import {lstat, readdir, realpath} from 'node:fs/promises'
import {join} from 'node:path'
import {DEFAULT_LIMITS, errorCode, NOT_REGULAR, OUTSIDE_ROOT, parsePythonJson, readInputFile} from '../ingest/index.js'
import {isJsonArtifact, recordedKind, WATCHED_DIRS} from './worktree-paths.js'

/** A file of the worktree as the watcher read it, once it is complete (or given up on). */
export interface WatchedFile {
  /** Worktree-relative, `/`-separated. */
  readonly rel: string
  readonly bytes: Buffer
  readonly seenAt: Date
  /** Writes that began (truncation or replacement seen) since the last version was read: more than one means one may be missed. */
  readonly writesSinceLast: number
  /** Still invalid JSON after every retry: what the file holds is recorded, and this says why it is suspect. */
  readonly invalid: string | null
  /** Reads it took (more than one: it was caught half-written and read again). */
  readonly reads: number
}

/** A file of the worktree that is never read (docs/security.md): said once per path and reason. */
export interface SkippedFile {
  readonly rel: string
  /** The ingest issue codes: `special-file` (a FIFO, socket or device), `symlink-outside` (a link, or a folder on the path, leading out of the worktree), `too-large`. */
  readonly code: 'special-file' | 'symlink-outside' | 'too-large'
  readonly message: string
}

export interface WatchOptions {
  readonly onFile: (file: WatchedFile) => void
  readonly onRemoved: (rel: string) => void
  /** A file that is not read: not a regular file, outside the worktree, too large. */
  readonly onSkipped?: (file: SkippedFile) => void
  /** Larger files are not read (default: ingest's maxArtifactBytes). */
  readonly maxBytes?: number
  readonly onNotice?: (message: string) => void
  /** Quiet time after the last change event before a file is read (ms). */
  readonly debounceMs?: number
  /** Delays between reads of a JSON file that does not parse yet (half-written) before it is reported. */
  readonly retryDelaysMs?: readonly number[]
  /** Full rescans, catching what change events missed (ms); shorter when polling only. */
  readonly rescanMs?: number
  /** Do not use fs.watch at all (file systems without change events). */
  readonly polling?: boolean
  /** Ignore files last modified before this time (epoch ms): the current directory fallback skips old runs. */
  readonly modifiedSince?: number
  readonly clock?: () => Date
  /** A JSON file did not parse and will be read again (`attempt` from 1): it is being written. */
  readonly onRetry?: (rel: string, attempt: number) => void
}

export interface WorktreeWatcher {
  readonly root: string
  /** A last full scan, every pending read and retry settled, then nothing more is reported. */
  close(): Promise<void>
}

interface FileState {
  /** Why the file was last refused (said once until it changes). */
  refused: SkippedFile['code'] | null
  sha: string | null
  observed: {ino: number; size: number; mtimeMs: number} | null
  writes: number
  attempts: number
  timer: NodeJS.Timeout | null
  reading: boolean
  again: boolean
}

const DEFAULT_RETRIES = [50, 100, 200, 400, 800]
/** The state of a file left out by `modifiedSince` (older than the session): read again only when it changes. */
const SKIPPED = 'skipped'

/**
 * Watches the GuardKit files of a worktree (`.guardkit/autobuild/TASK-*\/*`, feature YAML, config,
 * `tasks/**\/TASK-*.md`) and hands each new version over once it is complete. Change events of
 * `fs.watch` (recursive on the folders that hold them, never the whole worktree) are raw and
 * repeated (pitfall 17): a file is read after `debounceMs` of quiet, and a rescan every `rescanMs`
 * catches anything they missed (and is all there is with `polling`). A JSON artifact that does not
 * parse is being written: it is read again after each of `retryDelaysMs`, and only reported when it
 * is still invalid after the last.
 */
export function watchWorktree(root: string, options: WatchOptions): WorktreeWatcher {
  const debounceMs = options.debounceMs ?? 25
  const retries = options.retryDelaysMs ?? DEFAULT_RETRIES
  const clock = options.clock ?? (() => new Date())
  const files = new Map<string, FileState>()
  const watchers = new Map<string, FSWatcher>()
  const inFlight = new Set<Promise<void>>()
  const maxBytes = options.maxBytes ?? DEFAULT_LIMITS.maxArtifactBytes
  let polling = options.polling ?? false
  let closed = false
  let scanning: Promise<void> | null = null
  /** The worktree's real path, once it exists: every read must stay inside it. */
  let rootReal: string | null = null
  /** Folders already said to hold too many entries. */
  const crowded = new Set<string>()

  const stateOf = (rel: string): FileState => {
    let s = files.get(rel)
    if (s === undefined) files.set(rel, (s = {refused: null, sha: null, observed: null, writes: 0, attempts: 0, timer: null, reading: false, again: false}))
    return s
  }

  function observe(rel: string, st: {ino: number; size: number; mtimeMs: number} | null): boolean {
    const s = stateOf(rel)
    const before = s.observed
    if (st !== null && before !== null && st.ino === before.ino && st.size === before.size && st.mtimeMs === before.mtimeMs) return false
    if (st !== null && (before === null || st.ino !== before.ino || st.size < before.size)) s.writes++
    s.observed = st
    return true
  }

  function schedule(rel: string, delay: number): void {
    const s = stateOf(rel)
    if (s.timer) clearTimeout(s.timer)
    s.timer = setTimeout(() => {
      s.timer = null
      track(read(rel))
    }, delay)
  }

  function track(p: Promise<void>): void {
    inFlight.add(p)
    void p.finally(() => inFlight.delete(p))
  }

  async function read(rel: string): Promise<void> {
    const s = stateOf(rel)
    if (s.reading) {
      s.again = true
      return
    }
    s.reading = true
    try {
      const abs = join(root, ...rel.split('/'))
      let bytes: Buffer
      let st
      try {
        rootReal ??= await realpath(root)
        // the one safe open: a link or a folder leading out of the worktree, a FIFO, a device are never read
        const read = await readInputFile(abs, rootReal, maxBytes)
        if (read.truncated) return refuse(rel, s, 'too-large', `larger than ${maxBytes} bytes: not recorded`)
        bytes = read.bytes
        st = read.stat
      } catch (error) {
        const code = errorCode(error)
        if (code === NOT_REGULAR) return refuse(rel, s, 'special-file', 'not a regular file (a FIFO, socket or device): skipped, not read')
        if (code === OUTSIDE_ROOT || code === 'ELOOP') return refuse(rel, s, 'symlink-outside', 'a symbolic link (or a folder on its path) leading outside the worktree: not followed')
        if (s.sha !== null && s.sha !== SKIPPED) options.onRemoved(rel)
        files.delete(rel)
        return
      }
      s.refused = null
      if (options.modifiedSince !== undefined && st.mtimeMs < options.modifiedSince) {
        s.sha = SKIPPED
        return
      }
      const sha = createHash('sha256').update(bytes).digest('hex')
      if (sha === s.sha) {
        s.attempts = 0
        s.writes = 0
        return
      }
      let invalid: string | null = null
      if (isJsonArtifact(rel)) {
        const parsed = parsePythonJson(bytes.toString('utf8'))
        if (!parsed.ok) {
          if (s.attempts < retries.length) {
            schedule(rel, retries[s.attempts++]!)
            options.onRetry?.(rel, s.attempts)
            return
          }
          invalid = bytes.length === 0 ? 'the file is empty' : `not valid JSON after ${s.attempts + 1} reads: ${parsed.message}`
        }
      }
      const writes = s.writes
      const reads = s.attempts + 1
      s.sha = sha
      s.attempts = 0
      s.writes = 0
      options.onFile({rel, bytes, seenAt: clock(), writesSinceLast: writes, invalid, reads})
    } finally {
      s.reading = false
      if (s.again) {
        s.again = false
        schedule(rel, debounceMs)
      }
    }
  }

  /** Says once why a file is not read; it is looked at again when it changes. */
  function refuse(rel: string, s: FileState, code: SkippedFile['code'], message: string): void {
    if (s.refused === code) return
    s.refused = code
    options.onSkipped?.({rel, code, message})
  }

  function noteChange(rel: string): void {
    if (closed) return
    let st: {ino: number; size: number; mtimeMs: number} | null
    try {
      // lstat: the entry itself (a link or a FIFO is looked at, never followed or opened here)
      const s = lstatSync(join(root, ...rel.split('/')))
      st = {ino: s.ino, size: s.size, mtimeMs: s.mtimeMs}
    } catch {
      st = null
    }
    observe(rel, st)
    const s = stateOf(rel)
    if (s.attempts === 0) schedule(rel, debounceMs)
  }

  function ensureWatchers(): void {
    if (polling || closed) return
    for (const d of WATCHED_DIRS) {
      if (watchers.has(d.rel)) continue
      const abs = d.rel === '.' ? root : join(root, ...d.rel.split('/'))
      try {
        // the worktree itself may be reached through a link the user gave; a folder in it that is a link is not watched
        if (!(d.rel === '.' ? statSync(abs) : lstatSync(abs)).isDirectory()) continue
      } catch {
        continue
      }
      try {
        const w = watch(abs, {recursive: d.recursive}, (_event, name) => {
          const rel = name === null ? null : d.rel === '.' ? name.split('\\').join('/') : `${d.rel}/${name.split('\\').join('/')}`
          if (rel !== null && recordedKind(rel) !== null) noteChange(rel)
          else kickScan()
        })
        w.on('error', () => {
          w.close()
          watchers.delete(d.rel)
          kickScan()
        })
        watchers.set(d.rel, w)
      } catch (error) {
        polling = true
        options.onNotice?.(`file change events are not available (${(error as NodeJS.ErrnoException).code ?? 'error'}): polling ${root} instead`)
        for (const w of watchers.values()) w.close()
        watchers.clear()
        return
      }
    }
  }

  async function walk(relDir: string, depth: number, out: string[]): Promise<void> {
    let entries
    try {
      entries = await readdir(join(root, ...relDir.split('/')), {withFileTypes: true})
    } catch {
      return
    }
    if (entries.length > DEFAULT_LIMITS.maxFolderEntries) {
      // as ingest does (docs/ingest.md "Limits"): the first entries by name, said once per folder
      entries = entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).slice(0, DEFAULT_LIMITS.maxFolderEntries)
      if (!crowded.has(relDir)) {
        crowded.add(relDir)
        options.onNotice?.(`${relDir}: more than ${DEFAULT_LIMITS.maxFolderEntries} entries; only the first ${DEFAULT_LIMITS.maxFolderEntries} (by name) are recorded`)
      }
    }
    for (const e of entries) {
      const rel = `${relDir}/${e.name}`
      // a link to a folder is not walked into; a link, FIFO or device with a recorded name is read (and refused) as a file
      if (e.isDirectory() && depth > 0) await walk(rel, depth - 1, out)
      else if (!e.isDirectory() && recordedKind(rel) !== null) out.push(rel)
    }
  }

  async function scan(): Promise<void> {
    ensureWatchers()
    const found: string[] = []
    await walk('.guardkit', 2, found)
    await walk('tasks', 6, found)
    const seen = new Set(found)
    for (const rel of found) {
      try {
        const s = await lstat(join(root, ...rel.split('/')))
        if (observe(rel, {ino: s.ino, size: s.size, mtimeMs: s.mtimeMs}) || (stateOf(rel).sha === null && stateOf(rel).refused === null)) {
          const st = stateOf(rel)
          if (st.timer === null && st.attempts === 0) schedule(rel, debounceMs)
        }
      } catch {
        // gone between readdir and stat: the next scan says so
      }
    }
    for (const [rel, s] of files) if (!seen.has(rel) && s.sha !== null && s.sha !== SKIPPED && s.timer === null) track(read(rel))
  }

  function kickScan(): Promise<void> {
    if (scanning) return scanning
    scanning = scan().finally(() => (scanning = null))
    track(scanning)
    return scanning
  }

  const rescanMs = options.rescanMs ?? (polling ? 250 : 1000)
  const ticker = setInterval(() => void kickScan(), polling ? Math.min(rescanMs, 250) : rescanMs)
  void kickScan()

  return {
    root,
    async close() {
      closed = true
      clearInterval(ticker)
      for (const w of watchers.values()) w.close()
      watchers.clear()
      // what was written last gets read now (and retried if half-written), not lost with the watcher
      scanning = null
      await scan()
      for (const [rel, s] of files) {
        if (s.timer && s.attempts === 0) {
          clearTimeout(s.timer)
          s.timer = null
          track(read(rel))
        }
      }
      while (inFlight.size > 0 || [...files.values()].some((s) => s.timer !== null)) {
        await Promise.all([...inFlight])
        if ([...files.values()].some((s) => s.timer !== null)) await new Promise((r) => setTimeout(r, 20))
      }
    },
  }
}
