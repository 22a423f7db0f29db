import {closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {deserialize, serialize} from 'node:v8'
import type {TaskRun} from '../model/run-record.js'

/**
 * Where a streamed run's task runs wait, attempt by attempt, between the end of their attempt in the
 * log and their analysis (docs/architecture.md "Streaming"): the era, and so every replay, is known
 * only once the whole log is read. Held in memory as V8's serialisation (a third of the objects'
 * size) up to `memoryBytes`, then in a file of the system's temporary folder, never in RUN. The file
 * is unlinked as soon as it is opened: it disappears with the process whatever happens to it.
 */
export interface TaskSpill {
  add(attempt: number, tasks: readonly TaskRun[]): void
  /** The task runs of an attempt, read back (each attempt once: its bytes are released). */
  take(attempt: number): readonly TaskRun[]
  readonly taskCount: number
  /** Bytes held in the file (0 while everything fits in memory). */
  readonly spilledBytes: number
  close(): void
}

const DEFAULT_MEMORY_BYTES = 32 * 2 ** 20

export function createTaskSpill(memoryBytes = DEFAULT_MEMORY_BYTES): TaskSpill {
  const inMemory = new Map<number, Buffer>()
  const inFile = new Map<number, {position: number; length: number}>()
  let held = 0
  let fd: number | null = null
  let position = 0
  let taskCount = 0

  function openFile(): number {
    const dir = mkdtempSync(join(tmpdir(), 'guardkit-replay-'))
    const path = join(dir, 'task-runs.v8')
    const opened = openSync(path, 'w+', 0o600)
    rmSync(dir, {recursive: true, force: true})
    return opened
  }

  function toFile(attempt: number, bytes: Buffer): void {
    fd ??= openFile()
    let written = 0
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written, position + written)
    inFile.set(attempt, {position, length: bytes.length})
    position += bytes.length
  }

  return {
    add(attempt, tasks) {
      taskCount += tasks.length
      const bytes = serialize(tasks)
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
    take(attempt) {
      const kept = inMemory.get(attempt)
      if (kept !== undefined) {
        inMemory.delete(attempt)
        held -= kept.length
        return deserialize(kept) as TaskRun[]
      }
      const at = inFile.get(attempt)
      if (at === undefined || fd === null) return []
      inFile.delete(attempt)
      const bytes = Buffer.allocUnsafe(at.length)
      let read = 0
      while (read < at.length) {
        const n = readSync(fd, bytes, read, at.length - read, at.position + read)
        if (n === 0) break
        read += n
      }
      return deserialize(bytes.subarray(0, read)) as TaskRun[]
    },
    get taskCount() {
      return taskCount
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
