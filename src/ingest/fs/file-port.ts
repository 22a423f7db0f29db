import type {IngestIssue} from '../../model/ingest-issue.js'

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
  /**
   * The same port, reading only regular files whose real location is inside `root` (a real path):
   * a file reached through a link, or a folder swapped for one, that leads out of it is refused
   * (`OUTSIDE_ROOT`). Discovery hands out the port confined to RUN (src/ingest/fs/safe-open.ts).
   */
  within(root: string): FsPort
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
/** The port's own code for a file whose real location is outside the folder being read (a link out of RUN). */
export const OUTSIDE_ROOT = 'EOUTSIDE'

/**
 * The issue for a file that could not be read: a FIFO, socket or device is `special-file` (info,
 * as discovery reports one), a file reached through a link out of RUN `symlink-outside`
 * (warning, as discovery reports one); anything else `unreadable` (error).
 */
export function readErrorIssue(file: string, error: unknown, after = ''): IngestIssue {
  const code = errorCode(error)
  if (code === NOT_REGULAR) return {file, code: 'special-file', severity: 'info', message: `not a regular file (a FIFO, socket or device): skipped, not read${after}`}
  if (code === OUTSIDE_ROOT) return {file, code: 'symlink-outside', severity: 'warning', message: `reached through a symbolic link to a target outside RUN: not followed${after}`}
  return {file, code: 'unreadable', severity: 'error', message: `cannot read the file: ${describeErrorCode(code)} (${code})${after}`}
}

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
    case OUTSIDE_ROOT:
      return 'reached through a symbolic link that leads outside RUN: not followed'
    case 'EMFILE':
    case 'ENFILE':
      return 'too many open files'
    default:
      return `read error (${code})`
  }
}
