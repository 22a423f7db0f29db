import type {IngestIssue} from '../../model/ingest-issue.js'
import {readErrorIssue, type FsPort, type PortRead} from './file-port.js'
import {detectEncoding, firstInvalidUtf8, lineOfOffset, looksBinary, nulLines} from './text-bytes.js'

export interface TextReadOptions {
  /** Files larger than this are cut (`partial: 'keep'`) or skipped (`'skip'`). */
  readonly maxBytes: number
  /** Lines longer than this many UTF-16 units are cut (null: no limit, e.g. minified JSON). */
  readonly maxLineChars: number | null
  /** What to do with a file larger than maxBytes: logs keep the head, JSON cannot. */
  readonly whenTooLarge: 'keep-head' | 'skip'
}

export interface TextRead {
  /** The decoded text, or null when nothing usable was read (the issues say why). */
  readonly text: string | null
  readonly issues: readonly IngestIssue[]
}

const MAX_LINE_ISSUES = 5
const RETRIES_WHEN_CHANGING = 2

/**
 * Reads one file of RUN as text and turns every way it can be bad into issues: unreadable, empty,
 * binary, too large, invalid UTF-8, over-long lines, changing while read. Never throws for input.
 * `file` is the RUN-relative name the issues carry.
 */
export async function readTextFile(port: FsPort, path: string, file: string, options: TextReadOptions): Promise<TextRead> {
  const issues: IngestIssue[] = []
  let read: PortRead
  try {
    read = await readStable(port, path, options.maxBytes, file, issues)
  } catch (error) {
    issues.push(readErrorIssue(file, error))
    return {text: null, issues}
  }
  if (read.bytes.length === 0) {
    issues.push({file, code: 'empty', severity: 'warning', message: 'the file is empty'})
    return {text: null, issues}
  }
  if (looksBinary(read.bytes)) {
    issues.push({file, code: 'binary', severity: 'warning', message: 'binary content (mostly control bytes or bytes that are not UTF-8), not text: skipped'})
    return {text: null, issues}
  }
  if (read.truncated) {
    const limit = formatBytes(options.maxBytes)
    if (options.whenTooLarge === 'skip') {
      issues.push({file, code: 'too-large', severity: 'error', message: `the file is larger than ${limit}: skipped`})
      return {text: null, issues}
    }
    issues.push({file, code: 'too-large', severity: 'warning', message: `the file is larger than ${limit}: only its first ${limit} were read`})
  }
  const encoding = detectEncoding(read.bytes)
  if (encoding !== 'utf-8') {
    issues.push({file, code: 'utf-16', severity: 'info', message: `the file is ${encoding === 'utf-16le' ? 'UTF-16 (little-endian)' : 'UTF-16 (big-endian)'}: decoded`})
    let text = new TextDecoder(encoding).decode(read.bytes)
    if (options.maxLineChars !== null) text = cutLongLines(text, options.maxLineChars, file, issues)
    return {text, issues}
  }
  let bytes = read.bytes
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3)
  const nul = nulLines(bytes)
  if (nul !== null) {
    issues.push({file, line: nul.first, code: 'binary', severity: 'warning',
      message: `${nul.count} line${nul.count === 1 ? '' : 's'} hold${nul.count === 1 ? 's' : ''} NUL bytes (the first: line ${nul.first})`})
  }
  const bad = firstInvalidUtf8(bytes)
  if (bad !== null && !(read.truncated && bad >= bytes.length - 3)) {
    issues.push({file, line: lineOfOffset(bytes, bad), code: 'invalid-utf8', severity: 'warning',
      message: `not valid UTF-8 at byte ${bad}; undecodable bytes were replaced with U+FFFD`})
  }
  let text = new TextDecoder('utf-8', {fatal: false}).decode(bytes)
  if (options.maxLineChars !== null) text = cutLongLines(text, options.maxLineChars, file, issues)
  return {text, issues}
}

async function readStable(port: FsPort, path: string, maxBytes: number, file: string, issues: IngestIssue[]): Promise<PortRead> {
  let read = await port.readFile(path, maxBytes)
  for (let attempt = 0; changed(read) && attempt < RETRIES_WHEN_CHANGING; attempt++) read = await port.readFile(path, maxBytes)
  if (changed(read)) {
    issues.push({file, code: 'changed-during-read', severity: 'warning',
      message: `the file changed while it was read (size ${read.before.size} → ${read.after.size} bytes; still being written?): what was there is used, its end may be cut`})
  }
  return read
}

function changed(read: PortRead): boolean {
  return read.before.size !== read.after.size || read.before.mtimeMs !== read.after.mtimeMs
}

function cutLongLines(text: string, maxLineChars: number, file: string, issues: IngestIssue[]): string {
  let out: string[] | null = null
  let reported = 0
  let long = 0
  let start = 0
  let line = 1
  while (start <= text.length) {
    let end = text.indexOf('\n', start)
    if (end < 0) end = text.length
    if (end - start > maxLineChars) {
      long++
      if (reported < MAX_LINE_ISSUES) {
        reported++
        issues.push({file, line, code: 'too-long-line', severity: 'warning',
          message: `line ${line} is ${end - start} characters long (limit ${maxLineChars}): cut to its first ${maxLineChars}`})
      }
      out ??= [text.slice(0, start)]
      out.push(text.slice(start, start + maxLineChars))
    } else if (out) {
      out.push(text.slice(start, end))
    }
    if (end === text.length) break
    if (out) out.push('\n')
    start = end + 1
    line++
  }
  if (long > reported) {
    issues.push({file, code: 'too-long-line', severity: 'warning', message: `${long - reported} more lines longer than ${maxLineChars} characters were cut`})
  }
  return out ? out.join('') : text
}

export function formatBytes(n: number): string {
  if (n >= 1 << 20 && n % (1 << 20) === 0) return `${n / (1 << 20)} MiB`
  if (n >= 1 << 10 && n % (1 << 10) === 0) return `${n / (1 << 10)} KiB`
  return `${n} bytes`
}
