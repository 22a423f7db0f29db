import {closeSync, fstatSync, lstatSync, readdirSync, readSync, realpathSync, statSync} from 'node:fs'
import {resolve} from 'node:path'
import {PortError, type FsPort, type PortRead} from './file-port.js'
import {toStat} from './node-file-port.js'
import {openInputFileSync} from './safe-open.js'

const CHUNK = 1 << 20

/**
 * The node port's semantics (read-only, regular files only, O_NOFOLLOW, read to EOF, size and mtime
 * around each read) with synchronous calls and reads sized to the file. A corpus is
 * thousands of small JSON artifacts read on worker threads that have nothing else to do: each
 * asynchronous call's trip through libuv's pool, and a zero-filled 1 MiB buffer per read, cost
 * more than the reading itself (half of `gate`'s time went to them). The second stat is skipped
 * when exactly the size the first one gave was read: a corpus is not being written to.
 */
export function createSyncFilePort(root: string | null = null): FsPort {
  return {
    lstat: (path) => sync(() => toStat(lstatSync(path))),
    stat: (path) => sync(() => toStat(statSync(path))),
    readdir: (path) => sync(() => readdirSync(path)),
    realpath: (path) => sync(() => realpathSync(path)),
    readChunks: (path, maxBytes, onChunk) => sync(() => readSized(path, maxBytes, onChunk, root)),
    readFile: (path, maxBytes) =>
      sync(() => {
        const chunks: Uint8Array[] = []
        const read = readSized(path, maxBytes, (c) => chunks.push(c), root)
        return {...read, bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)}
      }),
    resolve: (path) => resolve(path),
    within: (dir) => createSyncFilePort(dir),
  }
}

function readSized(path: string, maxBytes: number, onChunk: (chunk: Uint8Array) => void, root: string | null): PortRead {
  const {fd, stat: first} = openInputFileSync(path, root)
  try {
    let total = 0
    let truncated = false
    for (;;) {
      // one byte more than stat said, so that a file that grew is still read to its end
      const size = Math.min(CHUNK, Math.max(first.size - total, 0) + 1)
      const buffer = Buffer.allocUnsafe(size)
      const bytesRead = readSync(fd, buffer, 0, size, total)
      if (bytesRead === 0) break
      const keep = Math.min(bytesRead, maxBytes - total)
      if (keep > 0) onChunk(buffer.subarray(0, keep))
      total += bytesRead
      if (total > maxBytes) {
        truncated = true
        break
      }
    }
    const last = total === first.size ? first : fstatSync(fd)
    return {bytes: new Uint8Array(0), truncated, before: {size: first.size, mtimeMs: first.mtimeMs}, after: {size: last.size, mtimeMs: last.mtimeMs}}
  } finally {
    closeSync(fd)
  }
}

/** The port is asynchronous; a failure is a rejected promise with the errno code, as the node port's. */
function sync<T>(run: () => T): Promise<T> {
  try {
    return Promise.resolve(run())
  } catch (error) {
    if (error instanceof PortError) return Promise.reject(error)
    return Promise.reject(new PortError((error as NodeJS.ErrnoException).code ?? 'EUNKNOWN', (error as Error).message))
  }
}
