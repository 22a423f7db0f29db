import {lstat, readdir, realpath, stat} from 'node:fs/promises'
import {resolve} from 'node:path'
import type {Stats} from 'node:fs'
import {PortError, type FsPort, type PortRead, type PortStat} from './file-port.js'
import {openInputFile} from './safe-open.js'

/**
 * The real file system, read-only. Files are opened the one safe way (src/ingest/fs/safe-open.ts):
 * regular files only, never blocking, and with a root (`within`) only inside it.
 */
export function createNodeFilePort(root: string | null = null): FsPort {
  return {
    lstat: (path) => wrap(async () => toStat(await lstat(path))),
    stat: (path) => wrap(async () => toStat(await stat(path))),
    readdir: (path) => wrap(() => readdir(path)),
    realpath: (path) => wrap(() => realpath(path)),
    readFile: (path, maxBytes) => wrap(() => readBounded(path, maxBytes, root)),
    readChunks: (path, maxBytes, onChunk) => wrap(() => streamBounded(path, maxBytes, onChunk, root)),
    resolve: (path) => resolve(path),
    within: (dir) => createNodeFilePort(dir),
  }
}

const CHUNK = 1 << 20
/** What is read past the size stat gave (a writer appending, or the read that finds the end). */
const TAIL = 64 << 10

async function readBounded(path: string, maxBytes: number, root: string | null): Promise<PortRead> {
  const chunks: Uint8Array[] = []
  const read = await streamBounded(path, maxBytes, (chunk) => chunks.push(chunk), root)
  return {...read, bytes: Buffer.concat(chunks)}
}

async function streamBounded(path: string, maxBytes: number, onChunk: (chunk: Uint8Array) => void, root: string | null): Promise<PortRead> {
  const {handle, stat: first} = await openInputFile(path, root)
  try {
    let total = 0
    let truncated = false
    // read to EOF, not to the size stat gave: it is stale while a writer appends. Each buffer is sized by what
    // stat promises (a chunk at most), so that a file of a few kilobytes does not cost two zeroed MiB
    for (;;) {
      const size = total < first.size ? Math.min(CHUNK, first.size - total) : TAIL
      // not zero-filled: only the bytes read are handed on
      const buffer = Buffer.allocUnsafe(size)
      const {bytesRead} = await handle.read(buffer, 0, size, total)
      if (bytesRead === 0) break
      const keep = Math.min(bytesRead, maxBytes - total)
      if (keep > 0) onChunk(buffer.subarray(0, keep))
      total += bytesRead
      if (total > maxBytes) {
        truncated = true
        break
      }
    }
    const last = await handle.stat()
    return {
      bytes: new Uint8Array(0),
      truncated,
      before: {size: first.size, mtimeMs: first.mtimeMs},
      after: {size: last.size, mtimeMs: last.mtimeMs},
    }
  } finally {
    await handle.close()
  }
}

export function toStat(s: Stats): PortStat {
  const kind = s.isSymbolicLink() ? 'symlink' : s.isFile() ? 'file' : s.isDirectory() ? 'dir' : 'other'
  return {kind, size: s.size, mtimeMs: s.mtimeMs}
}

async function wrap<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    if (error instanceof PortError) throw error
    const code = (error as NodeJS.ErrnoException).code ?? 'EUNKNOWN'
    throw new PortError(code, (error as Error).message)
  }
}
