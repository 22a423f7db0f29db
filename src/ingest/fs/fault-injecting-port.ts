import {PortError, type FsPort, type PortRead} from './file-port.js'

/**
 * What can go wrong with one path. Read errors cannot be produced with file modes when the tests
 * run as root, and a writer racing a read cannot be timed reliably, so both are injected here.
 */
export interface Fault {
  /** errno code thrown by readFile (EIO, EACCES, …). */
  readonly readError?: string
  /** errno code thrown by lstat/stat. */
  readonly statError?: string
  /** errno code thrown by readdir. */
  readonly readdirError?: string
  /**
   * The file is being written while read: each affected read returns the content cut to
   * `visibleBytes` with a size that changed between the two stats. `reads` affected reads
   * (default: every read), after which the file reads as complete.
   */
  readonly changing?: {readonly visibleBytes: number; readonly reads?: number}
}

/** Wraps a port and injects faults for absolute paths (as given to the port). */
export function createFaultInjectingPort(base: FsPort, faults: Readonly<Record<string, Fault>>, readsSoFar = new Map<string, number>()): FsPort {
  const faultFor = (path: string): Fault | undefined => faults[base.resolve(path)]
  const port: FsPort = {
    ...base,
    within: (root) => createFaultInjectingPort(base.within(root), faults, readsSoFar),
    async lstat(path) {
      const code = faultFor(path)?.statError
      if (code) throw new PortError(code, `${code}: lstat '${path}'`)
      return base.lstat(path)
    },
    async stat(path) {
      const code = faultFor(path)?.statError
      if (code) throw new PortError(code, `${code}: stat '${path}'`)
      return base.stat(path)
    },
    async readdir(path) {
      const code = faultFor(path)?.readdirError
      if (code) throw new PortError(code, `${code}: scandir '${path}'`)
      return base.readdir(path)
    },
    async readChunks(path, maxBytes, onChunk): Promise<PortRead> {
      const read = await port.readFile(path, maxBytes)
      if (read.bytes.length > 0) onChunk(read.bytes)
      return {...read, bytes: new Uint8Array(0)}
    },
    async readFile(path, maxBytes): Promise<PortRead> {
      const fault = faultFor(path)
      if (fault?.readError) throw new PortError(fault.readError, `${fault.readError}: read '${path}'`)
      const read = await base.readFile(path, maxBytes)
      if (!fault?.changing) return read
      const key = base.resolve(path)
      const count = (readsSoFar.get(key) ?? 0) + 1
      readsSoFar.set(key, count)
      if (count > (fault.changing.reads ?? Number.POSITIVE_INFINITY)) return read
      const visible = Math.min(fault.changing.visibleBytes, read.bytes.length)
      return {
        bytes: read.bytes.subarray(0, visible),
        truncated: false,
        before: {size: visible, mtimeMs: read.before.mtimeMs},
        after: {size: read.after.size, mtimeMs: read.after.mtimeMs + 1},
      }
    },
  }
  return port
}
