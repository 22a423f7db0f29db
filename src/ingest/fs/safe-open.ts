import {closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, realpathSync, statSync, type Stats} from 'node:fs'
import {lstat, open, readlink, realpath, stat, type FileHandle} from 'node:fs/promises'
import {isAbsolute, relative} from 'node:path'
import {NOT_REGULAR, OUTSIDE_ROOT, PortError} from './file-port.js'

/**
 * The one way guardkit-replay opens a file it did not write (docs/security.md): ingest's file
 * ports, `record` (through them), `live`'s watcher and tail, and every file a user names
 * (`--profiles`, `conformance`, `gate merge`). What RUN and a worktree hold may come from a
 * compromised machine, and a worktree changes while `live` reads it, so a check made before the
 * open proves nothing about what is opened. The file is therefore
 *
 * - opened without following a link in its last component (`O_NOFOLLOW`) and without blocking
 *   (`O_NONBLOCK`: a FIFO swapped in does not wait for a writer, `O_NOCTTY`: a terminal is not
 *   adopted), after an `lstat` that keeps FIFOs, sockets and devices from being opened at all;
 * - checked on the open handle (`fstat`): only a regular file is read (`NOT_REGULAR` otherwise);
 * - when a root is given, checked to lie inside it, again on the open handle: its location is the
 *   kernel's (`/proc/self/fd/N`), or where `/proc` is missing, the real path of the name with
 *   the same device and inode as the handle (`OUTSIDE_ROOT` otherwise). So a directory of the
 *   path swapped for a link out of the root between discovery and the read is caught too.
 *
 * A link in the last component is followed by hand, one level at a time: its real path is
 * opened the same way, so a link inside the root reads its target and one leading out of it is
 * refused with `OUTSIDE_ROOT`. With no root (a file the user named on the command line) links are
 * followed, as the user's shell would.
 */
export interface OpenedInput {
  readonly handle: FileHandle
  readonly stat: Stats
}

const FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0)
const NOFOLLOW = constants.O_NOFOLLOW ?? 0
/** Links followed by hand before giving up (as the kernel's ELOOP). */
const MAX_LINKS = 16

export async function openInputFile(path: string, root: string | null): Promise<OpenedInput> {
  let current = path
  for (let hops = 0; ; hops++) {
    const kind = kindOf(await lstat(current))
    if (kind === 'symlink') {
      if (hops >= MAX_LINKS) throw new PortError('ELOOP', `ELOOP: too many symbolic links '${path}'`)
      current = await realpath(current)
      if (root !== null && !isInside(root, current)) throw outside(path)
      continue
    }
    if (kind !== 'file') throw kind === 'dir' ? isDir(path) : notRegular(path)
    let handle: FileHandle
    try {
      handle = await open(current, FLAGS | (root === null ? 0 : NOFOLLOW))
    } catch (error) {
      // a link swapped in since the lstat: look again
      if ((error as NodeJS.ErrnoException).code === 'ELOOP' && hops < MAX_LINKS) continue
      throw error
    }
    try {
      const st = await handle.stat()
      if (!st.isFile()) throw notRegular(path)
      if (root !== null && !(await handleInside(handle.fd, current, st, root))) throw outside(path)
      return {handle, stat: st}
    } catch (error) {
      await handle.close()
      throw error
    }
  }
}

/** openInputFile with synchronous calls (the worker threads of `gate` read thousands of small files). */
export function openInputFileSync(path: string, root: string | null): {fd: number; stat: Stats} {
  let current = path
  for (let hops = 0; ; hops++) {
    const kind = kindOf(lstatSync(current))
    if (kind === 'symlink') {
      if (hops >= MAX_LINKS) throw new PortError('ELOOP', `ELOOP: too many symbolic links '${path}'`)
      current = realpathSync(current)
      if (root !== null && !isInside(root, current)) throw outside(path)
      continue
    }
    if (kind !== 'file') throw kind === 'dir' ? isDir(path) : notRegular(path)
    let fd: number
    try {
      fd = openSync(current, FLAGS | (root === null ? 0 : NOFOLLOW))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ELOOP' && hops < MAX_LINKS) continue
      throw error
    }
    try {
      const st = fstatSync(fd)
      if (!st.isFile()) throw notRegular(path)
      if (root !== null && !handleInsideSync(fd, current, st, root)) throw outside(path)
      return {fd, stat: st}
    } catch (error) {
      closeSync(fd)
      throw error
    }
  }
}

/** Whether `real` (an absolute real path) is `root` or below it. */
export function isInside(root: string, real: string): boolean {
  if (real === root) return true
  const rel = relative(root, real)
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${SEP}`) && !isAbsolute(rel)
}

const SEP = process.platform === 'win32' ? '\\' : '/'

async function handleInside(fd: number, path: string, st: Stats, root: string): Promise<boolean> {
  const where = await readlink(`/proc/self/fd/${fd}`).catch(() => null)
  if (where !== null && isAbsolute(where)) return isInside(root, stripDeleted(where))
  const real = await realpath(path).catch(() => null)
  if (real === null || !isInside(root, real)) return false
  const again = await stat(real).catch(() => null)
  return again !== null && again.dev === st.dev && again.ino === st.ino
}

function handleInsideSync(fd: number, path: string, st: Stats, root: string): boolean {
  let where: string | null
  try {
    where = readlinkSync(`/proc/self/fd/${fd}`)
  } catch {
    where = null
  }
  if (where !== null && isAbsolute(where)) return isInside(root, stripDeleted(where))
  try {
    const real = realpathSync(path)
    if (!isInside(root, real)) return false
    const again = statSync(real)
    return again.dev === st.dev && again.ino === st.ino
  } catch {
    return false
  }
}

/** Linux names an open file that was unlinked `PATH (deleted)`; where it was is what counts. */
function stripDeleted(where: string): string {
  return where.endsWith(' (deleted)') ? where.slice(0, -' (deleted)'.length) : where
}

function kindOf(st: Stats): 'file' | 'dir' | 'symlink' | 'other' {
  return st.isSymbolicLink() ? 'symlink' : st.isFile() ? 'file' : st.isDirectory() ? 'dir' : 'other'
}

export function notRegular(path: string): PortError {
  return new PortError(NOT_REGULAR, `${NOT_REGULAR}: not a regular file '${path}'`)
}

function isDir(path: string): PortError {
  return new PortError('EISDIR', `EISDIR: is a directory '${path}'`)
}

function outside(path: string): PortError {
  return new PortError(OUTSIDE_ROOT, `${OUTSIDE_ROOT}: outside the folder being read '${path}'`)
}

export interface InputRead {
  readonly bytes: Buffer
  readonly stat: Stats
  /** The file holds more than `maxBytes` (only the first `maxBytes` are in `bytes`). */
  readonly truncated: boolean
}

/** A whole input file, opened as openInputFile opens it, at most `maxBytes` of it. */
export async function readInputFile(path: string, root: string | null, maxBytes: number): Promise<InputRead> {
  const {handle, stat: st} = await openInputFile(path, root)
  try {
    const chunks: Buffer[] = []
    let total = 0
    let truncated = false
    // to EOF, not to the size fstat gave: a writer may still be appending
    for (;;) {
      const want = Math.min(READ_CHUNK, maxBytes + 1 - total)
      const buffer = Buffer.allocUnsafe(want)
      const {bytesRead} = await handle.read(buffer, 0, want, total)
      if (bytesRead === 0) break
      chunks.push(buffer.subarray(0, bytesRead))
      total += bytesRead
      if (total > maxBytes) {
        truncated = true
        break
      }
    }
    const bytes = Buffer.concat(chunks)
    return {bytes: truncated ? bytes.subarray(0, maxBytes) : bytes, stat: st, truncated}
  } finally {
    await handle.close()
  }
}

const READ_CHUNK = 1 << 20

/** Largest file a user names on the command line that is read (profiles, vectors, reports, expectations). */
export const MAX_USER_FILE_BYTES = 256 * 1024 * 1024

/**
 * A file the user named (`--profiles FILE`, `conformance FILE`, `gate merge FILE…`, a corpus's
 * expectations.yaml) as UTF-8 text: links followed as the shell follows them, but only a regular
 * file is read (a FIFO would wait for a writer for good, a device may never end). Errors carry
 * the errno code (`ENOENT`, …, `ENOTREG`, `EFBIG` when larger than MAX_USER_FILE_BYTES).
 */
export async function readUserFile(path: string): Promise<string> {
  const read = await readInputFile(path, null, MAX_USER_FILE_BYTES)
  if (read.truncated) throw new PortError('EFBIG', `EFBIG: larger than ${MAX_USER_FILE_BYTES} bytes '${path}'`)
  return read.bytes.toString('utf8')
}
