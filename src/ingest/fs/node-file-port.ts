import {constants} from 'node:fs'
import {lstat, open, readdir, realpath, stat} from 'node:fs/promises'
import {resolve} from 'node:path'
import type {Stats} from 'node:fs'
import {NOT_REGULAR, PortError, type FsPort, type PortRead, type PortStat} from './file-port.js'

/** The real file system, read-only: files are opened with O_RDONLY (and O_NOFOLLOW where the OS has it). */
export function createNodeFilePort(): FsPort {
  return {
    lstat: (path) => wrap(async () => toStat(await lstat(path))),
    stat: (path) => wrap(async () => toStat(await stat(path))),
    readdir: (path) => wrap(() => readdir(path)),
    realpath: (path) => wrap(() => realpath(path)),
    readFile: (path, maxBytes) => wrap(() => readBounded(path, maxBytes)),
    readChunks: (path, maxBytes, onChunk) => wrap(() => streamBounded(path, maxBytes, onChunk)),
    resolve: (path) => resolve(path),
  }
}

const CHUNK = 1 << 20

async function readBounded(path: string, maxBytes: number): Promise<PortRead> {
  const chunks: Uint8Array[] = []
  const read = await streamBounded(path, maxBytes, (chunk) => chunks.push(chunk))
  return {...read, bytes: Buffer.concat(chunks)}
}

async function streamBounded(path: string, maxBytes: number, onChunk: (chunk: Uint8Array) => void): Promise<PortRead> {
  // Only regular files are read: opening a FIFO waits for a writer (forever), a device may never end.
  // lstat first, so a FIFO is not even opened (that would release a writer blocked in open(2)).
  const kind = toStat(await lstat(path)).kind
  if (kind !== 'file' && kind !== 'symlink') throw notRegular(path)
  // O_NOFOLLOW: a file swapped for a symlink between discovery and this read is refused, not followed.
  // O_NONBLOCK: one swapped for a FIFO since the lstat does not block the open; fstat then refuses it.
  const handle = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0))
  try {
    const first = await handle.stat()
    if (!first.isFile()) throw notRegular(path)
    let total = 0
    let truncated = false
    // read to EOF, not to the size stat gave: it is stale while a writer appends
    for (;;) {
      const buffer = Buffer.alloc(CHUNK)
      const {bytesRead} = await handle.read(buffer, 0, CHUNK, total)
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

export function notRegular(path: string): PortError {
  return new PortError(NOT_REGULAR, `${NOT_REGULAR}: not a regular file '${path}'`)
}

export function toStat(s: Stats): PortStat {
  const kind = s.isSymbolicLink() ? 'symlink' : s.isFile() ? 'file' : s.isDirectory() ? 'dir' : 'other'
  return {kind, size: s.size, mtimeMs: s.mtimeMs}
}

async function wrap<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'EUNKNOWN'
    throw new PortError(code, (error as Error).message)
  }
}
