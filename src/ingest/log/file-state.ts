import type {IngestIssue} from '../../model/ingest-issue.js'
import {createBoxAssembler, type BoxAssembler} from './box-assembler.js'
import type {LogEncoding} from './byte-encoding.js'
import type {LineSplitter} from './line-splitter.js'
import {newOpenItem, type OpenItem} from './open-item.js'

/** What the ingest tracks about the file being read. */
export interface FileState {
  readonly file: string
  lineNo: number
  recognised: number
  binaryLines: number
  firstBinaryLine: number
  longLines: number
  unrecognised: number
  /** Of them, records of a trouble shape read as signals all the same (docs/ingest.md "Signals"). */
  unrecognisedSignals: number
  firstUnrecognised: {line: number; logger: string} | null
  readonly open: OpenItem
  splitter: LineSplitter | null
  /** Set with the first bytes pushed (lines pushed as text have no encoding to look at). */
  encoding: LogEncoding | null
  /** The first line holding bytes that are not UTF-8 (0: none). */
  invalidUtf8Line: number
  readonly boxes: BoxAssembler
  /** The longest decoded line so far: in a capture hard-wrapped at a terminal's width, that width. */
  longest: number
  /** How many lines were that long: many in a hard-wrapped capture, mostly one in a plain one. */
  atLongest: number
  /** Whether lines start with a log collector's timestamp (collector-stamp.ts): decided on the first line. */
  stamps: 'undecided' | 'none' | 'stripped'
}

/** Over-long lines reported one by one; past this many, one summary issue. */
export const MAX_LINE_ISSUES = 5

export function newFileState(file: string): FileState {
  return {file, lineNo: 0, recognised: 0, binaryLines: 0, firstBinaryLine: 0, longLines: 0, unrecognised: 0, unrecognisedSignals: 0, firstUnrecognised: null,
    open: newOpenItem(), splitter: null, encoding: null, invalidUtf8Line: 0, boxes: createBoxAssembler(), longest: 0, atLongest: 0, stamps: 'undecided'}
}

/** The issues a file leaves once read: empty, binary lines, over-long lines, nothing or part of it recognised. */
export function fileIssues(fs: FileState): IngestIssue[] {
  const issues: IngestIssue[] = []
  if (fs.lineNo === 0) issues.push({file: fs.file, code: 'empty', severity: 'warning', message: 'the log is empty'})
  const encoding = fs.encoding?.encoding ?? 'utf-8'
  if (encoding !== 'utf-8') {
    issues.push({file: fs.file, code: 'utf-16', severity: 'info', message: `the log is ${encoding === 'utf-16le' ? 'UTF-16 (little-endian)' : 'UTF-16 (big-endian)'}: decoded`})
  }
  if (fs.stamps === 'stripped') {
    issues.push({file: fs.file, line: 1, code: 'collector-timestamps', severity: 'info',
      message: 'the lines start with a log collector\'s timestamp (as GitHub Actions, `docker logs --timestamps` and `kubectl logs --timestamps` write them): read without it'})
  }
  if (fs.binaryLines > 0) {
    issues.push({file: fs.file, line: fs.firstBinaryLine, code: 'binary', severity: 'warning',
      message: `${fs.binaryLines} line(s) hold binary data (NUL bytes) and were skipped (the first: line ${fs.firstBinaryLine})`})
  }
  if (fs.invalidUtf8Line > 0) {
    issues.push({file: fs.file, line: fs.invalidUtf8Line, code: 'invalid-utf8', severity: 'warning',
      message: `bytes that are not UTF-8, first on line ${fs.invalidUtf8Line}: they were read as U+FFFD`})
  }
  if (fs.longLines > MAX_LINE_ISSUES) {
    issues.push({file: fs.file, code: 'too-long-line', severity: 'warning', message: `${fs.longLines - MAX_LINE_ISSUES} more over-long lines were cut`})
  }
  if (fs.lineNo > 0 && fs.recognised === 0) {
    issues.push({file: fs.file, code: 'no-records', severity: 'warning',
      message: 'no GuardKit AutoBuild output recognised in this file (expected `INFO:guardkit.…` records from `guardkit autobuild`)'})
  }
  if (fs.firstUnrecognised !== null) {
    issues.push({file: fs.file, line: fs.firstUnrecognised.line, code: 'unrecognised-records', severity: 'info',
      message: `${fs.unrecognised} line(s) or record(s) matched no known format (first: a ${fs.firstUnrecognised.logger} record); they are counted per logger, ${unrecognisedUse(fs)}`})
  }
  return issues
}

/** What became of the unrecognised lines: a record of a trouble shape is still read as a signal, and a finding can quote it. */
function unrecognisedUse(fs: FileState): string {
  if (fs.unrecognisedSignals === 0) return 'not used'
  if (fs.unrecognisedSignals >= fs.unrecognised) return 'and read as signals (docs/ingest.md "Signals")'
  return `and ${fs.unrecognisedSignals} of them read as signals (docs/ingest.md "Signals"); the others are not used`
}
