import {lstatSync, readdirSync, readFileSync, readlinkSync} from 'node:fs'
import {posix} from 'node:path'
import {OUTSIDE_ROOT, PortError, type FsPort, type PortRead, type PortStat} from '../../src/ingest/fs/file-port.js'

/**
 * An in-memory, read-only file system behind the ingest's only door (`FsPort`), for the ingest
 * properties: directory listings come back in an order the test chooses, every call can be delayed
 * by a few ticks, and logs arrive in chunks of chosen sizes. The ingest cannot tell it from a disk.
 */
export type MemEntry = {readonly kind: 'file'; readonly bytes: Uint8Array} | {readonly kind: 'dir'} | {readonly kind: 'symlink'; readonly target: string}

export interface MemoryPortOptions {
  /** Reorders a directory listing (default: as inserted). */
  readonly order?: (names: readonly string[], dir: string) => string[]
  /** Awaited before each call completes (default: none). */
  readonly delay?: () => Promise<void>
  /** Chunk sizes for `readChunks`, used in turn (default: the whole file at once). */
  readonly chunkSizes?: () => number
  /** Files are read only inside this folder, as the disk ports' `within` (src/ingest/fs/safe-open.ts). */
  readonly root?: string
}

const MTIME = 1_767_225_600_000

export function createMemoryPort(entries: ReadonlyMap<string, MemEntry>, options: MemoryPortOptions = {}): FsPort {
  const delay = options.delay ?? (async () => {})
  const children = new Map<string, string[]>()
  for (const path of entries.keys()) {
    if (path === '/') continue
    const parent = posix.dirname(path)
    const list = children.get(parent) ?? []
    list.push(posix.basename(path))
    children.set(parent, list)
  }
  const missing = (path: string, op: string) => new PortError('ENOENT', `ENOENT: no such file or directory, ${op} '${path}'`)

  /** Follows symlinks in every component; null when some component does not exist. */
  function real(path: string, depth = 0): string | null {
    if (depth > 40) return null
    const parts = posix.resolve('/', path).split('/').filter(Boolean)
    let here = '/'
    for (const part of parts) {
      const next = posix.join(here, part)
      const e = entries.get(next)
      if (e === undefined) return null
      if (e.kind === 'symlink') {
        const resolved = real(posix.resolve(here, e.target), depth + 1)
        if (resolved === null) return null
        here = resolved
      } else {
        here = next
      }
    }
    return here
  }

  function statOf(e: MemEntry | undefined, path: string, op: string): PortStat {
    if (e === undefined) throw missing(path, op)
    if (e.kind === 'file') return {kind: 'file', size: e.bytes.length, mtimeMs: MTIME}
    return {kind: e.kind, size: 0, mtimeMs: MTIME}
  }

  /** The entry a path names without following its last component (parents are followed, as lstat does). */
  function lentry(path: string): MemEntry | undefined {
    const abs = posix.resolve('/', path)
    if (abs === '/') return entries.get('/')
    const parent = real(posix.dirname(abs))
    return parent === null ? undefined : entries.get(posix.join(parent, posix.basename(abs)))
  }

  function fileBytes(path: string): Uint8Array {
    // as the disk ports: links are followed, but with a root only to a file inside it
    const r = real(path)
    const e = r === null ? undefined : entries.get(r)
    if (e === undefined || r === null) throw missing(path, 'open')
    if (options.root !== undefined && r !== options.root && !r.startsWith(`${options.root}/`)) throw new PortError(OUTSIDE_ROOT, `${OUTSIDE_ROOT}: outside the folder being read '${path}'`)
    if (e.kind === 'dir') throw new PortError('EISDIR', `EISDIR: illegal operation on a directory, read '${path}'`)
    if (e.kind !== 'file') throw new PortError('ELOOP', `ELOOP: too many symbolic links encountered, open '${path}'`)
    return e.bytes
  }

  const stable = (size: number) => ({size, mtimeMs: MTIME})

  return {
    async lstat(path) {
      await delay()
      return statOf(lentry(path), path, 'lstat')
    },
    async stat(path) {
      await delay()
      const r = real(path)
      return statOf(r === null ? undefined : entries.get(r), path, 'stat')
    },
    async readdir(path) {
      await delay()
      const r = real(path)
      if (r === null || entries.get(r)?.kind !== 'dir') throw missing(path, 'scandir')
      const names = [...(children.get(r) ?? [])]
      return options.order ? options.order(names, r) : names
    },
    async realpath(path) {
      await delay()
      const r = real(path)
      if (r === null) throw missing(path, 'realpath')
      return r
    },
    async readFile(path, maxBytes): Promise<PortRead> {
      await delay()
      const bytes = fileBytes(path)
      return {bytes: bytes.subarray(0, maxBytes), truncated: bytes.length > maxBytes, before: stable(bytes.length), after: stable(bytes.length)}
    },
    async readChunks(path, maxBytes, onChunk): Promise<PortRead> {
      await delay()
      const bytes = fileBytes(path)
      const end = Math.min(bytes.length, maxBytes)
      for (let at = 0; at < end; ) {
        const n = Math.max(1, options.chunkSizes?.() ?? end)
        onChunk(bytes.slice(at, Math.min(end, at + n)))
        at += n
        await delay()
      }
      return {bytes: new Uint8Array(0), truncated: bytes.length > maxBytes, before: stable(bytes.length), after: stable(bytes.length)}
    },
    resolve: (path) => posix.resolve('/', path),
    within: (root) => createMemoryPort(entries, {...options, root}),
  }
}

/**
 * A directory on disk copied under `mount` (e.g. `/run`). A symlink keeps its target; a target outside
 * the directory is mounted as an empty file (only its existence matters: ingest does not follow it).
 */
export function snapshotDirectory(dir: string, mount: string): Map<string, MemEntry> {
  const out = new Map<string, MemEntry>([['/', {kind: 'dir'}]])
  const addDirs = (path: string) => {
    for (let p = posix.dirname(path); !out.has(p); p = posix.dirname(p)) out.set(p, {kind: 'dir'})
  }
  const walk = (diskPath: string, memPath: string) => {
    const st = lstatSync(diskPath)
    addDirs(memPath)
    if (st.isSymbolicLink()) {
      const target = readlinkSync(diskPath)
      out.set(memPath, {kind: 'symlink', target})
      const abs = posix.resolve(posix.dirname(memPath), target)
      if (!abs.startsWith(mount + '/') && !out.has(abs)) {
        addDirs(abs)
        out.set(abs, {kind: 'file', bytes: new Uint8Array(0)})
      }
    } else if (st.isDirectory()) {
      out.set(memPath, {kind: 'dir'})
      for (const name of readdirSync(diskPath).sort()) walk(posix.join(diskPath, name), posix.join(memPath, name))
    } else if (st.isFile()) {
      out.set(memPath, {kind: 'file', bytes: new Uint8Array(readFileSync(diskPath))})
    }
  }
  walk(dir, mount)
  return out
}

/** Files under `mount` given as RUN-relative path → bytes or text. */
export function memoryTree(mount: string, files: Readonly<Record<string, Uint8Array | string>>): Map<string, MemEntry> {
  const out = new Map<string, MemEntry>([['/', {kind: 'dir'}]])
  const put = (path: string, e: MemEntry) => {
    for (let p = posix.dirname(path); !out.has(p); p = posix.dirname(p)) out.set(p, {kind: 'dir'})
    out.set(path, e)
  }
  put(mount, {kind: 'dir'})
  for (const [rel, content] of Object.entries(files)) {
    put(posix.join(mount, rel), {kind: 'file', bytes: typeof content === 'string' ? new TextEncoder().encode(content) : content})
  }
  return out
}

/** mulberry32: a small seeded PRNG, so one integer drawn by fast-check fixes every choice the port makes. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items]
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}
