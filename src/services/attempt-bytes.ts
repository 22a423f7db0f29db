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
  /** Bytes added in all (memory and file). */
  readonly addedBytes: number
  /** Bytes held in the file (0 while everything fits in memory). */
  readonly spilledBytes: number
  close(): void
}

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
    take(attempt) {
      const bytes = read(attempt)
      const kept = inMemory.get(attempt)
      if (kept !== undefined) {
        inMemory.delete(attempt)
        held -= kept.length
      }
      inFile.delete(attempt)
      return bytes
    },
    get addedBytes() {
      return added
    },
    get spilledBytes() {
      return position
    },
    close() {
      inMemory.clear()
      inFile.clear()
      if (fd !== null) closeSync(fd)
      fd = null
    },
  }
}
