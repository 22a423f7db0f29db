import {closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

/**
 * Bytes kept per attempt of a streamed run until their turn comes (docs/architecture.md
 * "Streaming"): the task runs set aside until the era is known (task-spill.ts), the task runs drawn
 * before the head of the document they go in. In memory up to `memoryBytes`, then in a file of the
 * system's temporary folder, never in RUN. The file is unlinked as soon as it is opened: it
 * disappears with the process whatever happens to it.
 */
export interface AttemptBytes {
  add(attempt: number, bytes: Uint8Array): void
  /** An attempt's bytes, read back (null when none were added or they were taken). */
  read(attempt: number): Buffer | null
  /** An attempt's bytes, read back and released. */
  take(attempt: number): Buffer | null
  /** Each attempt's bytes in `order`, taken ('' for none), then the store closed (also when the reader stops early). */
  drain(order: readonly number[]): Generator<Buffer | ''>
  /** Bytes added in all (memory and file). */
  readonly addedBytes: number
  /** Bytes held in the file (0 while everything fits in memory). */
  readonly spilledBytes: number
  close(): void
}

/**
 * Drawn task runs held in memory before the rest go to a file, while they wait for the document's head (inspect and
 * the analysis ahead of the read). Held in memory, they sit beside the reading thread's heap at its peak: 32 MiB put
 * a 1 GB `analyze --json` at 305–314 MB, 4 MiB at 265–282 MB (docs/performance.md), for no time the spread showed.
 */
export const DRAWN_MEMORY_BYTES = 4 * 2 ** 20

export function createAttemptBytes(memoryBytes: number, name: string): AttemptBytes {
  const inMemory = new Map<number, Uint8Array>()
  const inFile = new Map<number, {position: number; length: number}>()
  let held = 0
  let added = 0
  let fd: number | null = null
  let position = 0

  function openFile(): number {
    const dir = mkdtempSync(join(tmpdir(), 'guardkit-replay-'))
    const opened = openSync(join(dir, name), 'w+', 0o600)
    rmSync(dir, {recursive: true, force: true})
    return opened
  }

  function toFile(attempt: number, bytes: Uint8Array): void {
    fd ??= openFile()
    let written = 0
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written, position + written)
    inFile.set(attempt, {position, length: bytes.length})
    position += bytes.length
  }

  function read(attempt: number): Buffer | null {
    const kept = inMemory.get(attempt)
    if (kept !== undefined) return Buffer.from(kept.buffer, kept.byteOffset, kept.length)
    const at = inFile.get(attempt)
    if (at === undefined || fd === null) return null
    const bytes = Buffer.allocUnsafe(at.length)
    let got = 0
    while (got < at.length) {
      const n = readSync(fd, bytes, got, at.length - got, at.position + got)
      if (n === 0) break
      got += n
    }
    return bytes.subarray(0, got)
  }

  function take(attempt: number): Buffer | null {
    const bytes = read(attempt)
    const kept = inMemory.get(attempt)
    if (kept !== undefined) {
      inMemory.delete(attempt)
      held -= kept.length
    }
    inFile.delete(attempt)
    return bytes
  }

  function close(): void {
    inMemory.clear()
    inFile.clear()
    if (fd !== null) closeSync(fd)
    fd = null
  }

  return {
    add(attempt, bytes) {
      added += bytes.length
      if (fd === null && held + bytes.length <= memoryBytes) {
        inMemory.set(attempt, bytes)
        held += bytes.length
        return
      }
      // memory is full: what it holds goes to the file too, so that memory stays at the bound
      for (const [a, b] of inMemory) toFile(a, b)
      inMemory.clear()
      held = 0
      toFile(attempt, bytes)
    },
    read,
    take,
    *drain(order) {
      try {
        for (const attempt of order) yield take(attempt) ?? ''
      } finally {
        close()
      }
    },
    get addedBytes() {
      return added
    },
    get spilledBytes() {
      return position
    },
    close,
  }
}
