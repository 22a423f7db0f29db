/**
 * The only door from ingest to the file system. Everything RUN-related goes through it, so tests
 * can inject the failures a real disk produces (EIO, EACCES, a file growing while read) — CI runs
 * as root, where file modes do not stop reads — and so ingest can never write: the port has no
 * write operation at all.
 */
export interface FsPort {
  /** Like lstat(2): a symlink is reported as a symlink, not followed. */
  lstat(path: string): Promise<PortStat>
  /** Like stat(2) (follows symlinks). */
  stat(path: string): Promise<PortStat>
  /** Entry names of a directory, unsorted. */
  readdir(path: string): Promise<string[]>
  /** Canonical absolute path (symlinks resolved). */
  realpath(path: string): Promise<string>
  /**
   * Reads at most `maxBytes` bytes of a file opened read-only. `before`/`after` are the open
   * file's size and mtime taken around the read, so a writer racing the read is visible.
   */
  readFile(path: string, maxBytes: number): Promise<PortRead>
  /**
   * Streams a file opened read-only to `onChunk` (for logs too large to hold twice), at most
   * `maxBytes`. Same change detection as readFile; `bytes` of the result is empty.
   */
  readChunks(path: string, maxBytes: number, onChunk: (chunk: Uint8Array) => void): Promise<PortRead>
  /** Absolute form of a user-given path. */
  resolve(path: string): string
}

export interface PortStat {
  readonly kind: 'file' | 'dir' | 'symlink' | 'other'
  readonly size: number
  readonly mtimeMs: number
}

export interface PortRead {
  readonly bytes: Uint8Array
  /** The file holds more than `maxBytes`. */
  readonly truncated: boolean
  readonly before: {readonly size: number; readonly mtimeMs: number}
  readonly after: {readonly size: number; readonly mtimeMs: number}
}

/** An fs error as the port reports it: the errno code (`EIO`, `EACCES`, `ENOENT`, …) and text. */
export class PortError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message)
    this.name = 'PortError'
  }
}

/** The port's own code for a FIFO, socket or device: never opened for reading (a FIFO blocks, a device may not end). */
export const NOT_REGULAR = 'ENOTREG'

export function errorCode(error: unknown): string {
  if (error instanceof PortError) return error.code
  const code = (error as {code?: unknown} | null)?.code
  return typeof code === 'string' ? code : 'EUNKNOWN'
}

/** A sentence for an fs error code, without the path (the issue carries the file). */
export function describeErrorCode(code: string): string {
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied'
    case 'EIO':
      return 'input/output error while reading'
    case 'ENOENT':
      return 'no such file (it may have been removed while RUN was read)'
    case 'EISDIR':
      return 'is a directory'
    case 'ELOOP':
      return 'too many levels of symbolic links'
    case NOT_REGULAR:
      return 'not a regular file (a FIFO, socket or device): not read'
    case 'EMFILE':
    case 'ENFILE':
      return 'too many open files'
    default:
      return `read error (${code})`
  }
}
