import {deserialize, serialize} from 'node:v8'
import type {TaskRun} from '../model/run-record.js'
import {createAttemptBytes} from './attempt-bytes.js'

/**
 * Where a streamed run's task runs wait, attempt by attempt, between the end of their attempt in the
 * log and their analysis (docs/architecture.md "Streaming"): the era, and so every replay, is known
 * only once the whole log is read. Held as V8's serialisation (a third of the objects' size), in
 * memory up to `memoryBytes`, then in an unlinked temporary file (attempt-bytes.ts).
 */
export interface TaskSpill {
  add(attempt: number, tasks: readonly TaskRun[]): void
  /** The task runs of an attempt, read back (each attempt once: its bytes are released). */
  take(attempt: number): readonly TaskRun[]
  /** An attempt's task runs as V8 serialised them, without releasing them (another thread deserialises them). */
  bytes(attempt: number): Buffer | null
  readonly taskCount: number
  /** Bytes set aside in all (memory and file). */
  readonly addedBytes: number
  /** Bytes held in the file (0 while everything fits in memory). */
  readonly spilledBytes: number
  close(): void
}

const DEFAULT_MEMORY_BYTES = 32 * 2 ** 20

export function createTaskSpill(memoryBytes = DEFAULT_MEMORY_BYTES): TaskSpill {
  const store = createAttemptBytes(memoryBytes, 'task-runs.v8')
  let taskCount = 0
  return {
    add(attempt, tasks) {
      taskCount += tasks.length
      store.add(attempt, serialize(tasks))
    },
    take(attempt) {
      const bytes = store.take(attempt)
      return bytes === null ? [] : (deserialize(bytes) as TaskRun[])
    },
    bytes: (attempt) => store.read(attempt),
    get taskCount() {
      return taskCount
    },
    get addedBytes() {
      return store.addedBytes
    },
    get spilledBytes() {
      return store.spilledBytes
    },
    close() {
      store.close()
    },
  }
}
