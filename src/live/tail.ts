import {watch, type FSWatcher} from 'node:fs'
import {stat, type FileHandle} from 'node:fs/promises'
import {basename, dirname} from 'node:path'
import {openInputFile} from '../ingest/index.js'

export type TailEvent =
  | {readonly kind: 'waiting'; readonly path: string}
  | {readonly kind: 'opened'; readonly path: string}
  | {readonly kind: 'truncated'; readonly path: string; readonly at: number}
  | {readonly kind: 'rotated'; readonly path: string}

export interface TailOptions {
  readonly onData: (chunk: Buffer) => void
  readonly onEvent?: (event: TailEvent) => void
  /** How often the file is looked at when no change event arrives (ms). */
  readonly pollMs?: number
}

export interface Tail {
  /** Reads what is left, then stops. */
  stop(): Promise<void>
}

const CHUNK = 64 * 1024

/**
 * Follows a log another process is writing (`live --attach`), from its first byte: appends are
 * read as they land; a file cut shorter (copytruncate rotation) is read again from its start; a
 * file replaced under the same name (rename rotation) is read to its end, then the new one from
 * its start. Everything read goes to `onData` in order: the recording's run.log is what the
 * terminal would have shown. Change events trigger a look at once; polling catches the rest.
 */
export function tailFile(path: string, options: TailOptions): Tail {
  const pollMs = options.pollMs ?? 100
  let handle: FileHandle | null = null
  let ino = -1
  let offset = 0
  let waitingReported = false
  let stopped = false
  let busy: Promise<void> = Promise.resolve()
  let timer: NodeJS.Timeout | null = null
  let watcher: FSWatcher | null = null
  try {
    watcher = watch(dirname(path), (_event, name) => {
      if (name === null || name === basename(path)) kick()
    })
    watcher.on('error', () => undefined)
  } catch {
    watcher = null
  }

  async function readToEnd(h: FileHandle): Promise<void> {
    for (;;) {
      const buffer = Buffer.allocUnsafe(CHUNK)
      const {bytesRead} = await h.read(buffer, 0, CHUNK, offset)
      if (bytesRead === 0) return
      offset += bytesRead
      options.onData(Buffer.from(buffer.subarray(0, bytesRead)))
    }
  }

  async function look(): Promise<void> {
    if (handle === null) {
      try {
        // regular files only, never blocking: a FIFO or device put at the log's name is not waited on
        const opened = await openInputFile(path, null)
        handle = opened.handle
        ino = opened.stat.ino
        offset = 0
        options.onEvent?.({kind: 'opened', path})
      } catch {
        if (!waitingReported) options.onEvent?.({kind: 'waiting', path})
        waitingReported = true
        return
      }
    }
    await readToEnd(handle)
    let now
    try {
      now = await stat(path)
    } catch {
      return // renamed away, the new file not there yet: keep the old one until it is
    }
    if (now.ino !== ino) {
      await readToEnd(handle)
      await handle.close()
      handle = null
      options.onEvent?.({kind: 'rotated', path})
      return look()
    }
    if (now.size < offset) {
      options.onEvent?.({kind: 'truncated', path, at: offset})
      offset = 0
      await readToEnd(handle)
    }
  }

  function kick(): void {
    if (stopped) return
    busy = busy.then(look).catch(() => undefined)
  }

  function loop(): void {
    kick()
    void busy.then(() => {
      if (!stopped) timer = setTimeout(loop, pollMs)
    })
  }
  loop()

  return {
    async stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      watcher?.close()
      await busy
      await look().catch(() => undefined)
      await handle?.close().catch(() => undefined)
      handle = null
    },
  }
}
