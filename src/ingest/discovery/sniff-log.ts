import {errorCode, type FsPort} from '../fs/file-port.js'
import {detectEncoding, looksBinary} from '../fs/text-bytes.js'

export const LOG_EXTENSIONS = ['.log', '.md', '.txt'] as const

export type Sniff = 'autobuild' | 'mentions' | 'other' | 'empty' | 'binary' | {readonly unreadable: string}

const RECORD = /(?:INFO|WARNING|ERROR|DEBUG|CRITICAL):guardkit[\w.-]*:/g
// a run start record, or a shell prompt running `guardkit autobuild` (a capture that died before logging)
const RUN_START = /Starting (?:feature orchestration|orchestration for) |(?:^|\n)[^\n]*[%$#] (?:[A-Z_]+=\S* )*guardkit autobuild /
const MIN_RECORDS = 3

/**
 * Whether a text file holds AutoBuild console output: a run start (or a shell prompt running
 * `guardkit autobuild`), or at least three GuardKit log records, in its head. A note that quotes
 * one or two records (a README, a review) is not a log.
 */
export async function sniffLog(port: FsPort, abs: string, bytes: number): Promise<Sniff> {
  let head: Uint8Array
  try {
    head = (await port.readFile(abs, bytes)).bytes
  } catch (error) {
    return {unreadable: errorCode(error)}
  }
  if (head.length === 0) return 'empty'
  // a stray NUL or a few bad bytes do not make a log binary: the log ingest skips those lines
  if (looksBinary(head)) return 'binary'
  const text = new TextDecoder(detectEncoding(head), {fatal: false}).decode(head)
  if (RUN_START.test(text)) return 'autobuild'
  const records = text.match(RECORD)?.length ?? 0
  if (records >= MIN_RECORDS) return 'autobuild'
  return records > 0 ? 'mentions' : 'other'
}

export function hasLogExtension(name: string): boolean {
  return LOG_EXTENSIONS.some((ext) => name.endsWith(ext))
}
