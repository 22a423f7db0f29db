import type {IngestIssue} from '../../model/ingest-issue.js'
import {errorCode, type FsPort} from '../fs/file-port.js'
import {compressionOf, detectEncoding, looksBinary, type Compression} from '../fs/text-bytes.js'

export const LOG_EXTENSIONS = ['.log', '.md', '.txt'] as const

export type Sniff = 'autobuild' | 'mentions' | 'other' | 'empty' | 'binary' | {readonly unreadable: string} | {readonly compressed: Compression} | QuotingDocument

/**
 * A Markdown document (a review, a post-mortem) whose GuardKit records all sit in its code blocks or
 * quotations, among headed prose, with no run start anywhere: excerpts its author chose, often of
 * several runs, not a capture. Read as one run, they would splice records of different runs together.
 */
export interface QuotingDocument {
  readonly document: {readonly records: number; readonly firstLine: number; readonly lastLine: number}
}

const RECORD = /(?:INFO|WARNING|ERROR|DEBUG|CRITICAL):guardkit[\w.-]*:/g
// a run start record, or a shell prompt running `guardkit autobuild` (a capture that died before logging)
const RUN_START = /Starting (?:feature orchestration|orchestration for) |(?:^|\n)[^\n]*[%$#] (?:[A-Z_]+=\S* )*guardkit autobuild /
const MIN_RECORDS = 3

/**
 * Whether a text file holds AutoBuild console output: a run start (or a shell prompt running
 * `guardkit autobuild`), or at least three GuardKit log records, in its head. A note that quotes
 * one or two records (a README), or a Markdown document that quotes any number of them in its code
 * blocks (a review: `QuotingDocument`), is not a log.
 */
export async function sniffLog(port: FsPort, abs: string, bytes: number): Promise<Sniff> {
  let head: Uint8Array
  try {
    head = (await port.readFile(abs, bytes)).bytes
  } catch (error) {
    return {unreadable: errorCode(error)}
  }
  if (head.length === 0) return 'empty'
  const compressed = compressionOf(head)
  if (compressed !== null) return {compressed}
  // a stray NUL or a few bad bytes do not make a log binary: the log ingest skips those lines
  if (looksBinary(head)) return 'binary'
  const text = new TextDecoder(detectEncoding(head), {fatal: false}).decode(head)
  if (RUN_START.test(text)) return 'autobuild'
  const records = text.match(RECORD)?.length ?? 0
  if (records === 0) return 'other'
  const quoting = quotingDocument(text)
  if (quoting !== null) return quoting
  return records >= MIN_RECORDS ? 'autobuild' : 'mentions'
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/
const HEADING = /^ {0,3}#{1,6} \S/
const RECORD_LINE = /(?:INFO|WARNING|ERROR|DEBUG|CRITICAL):guardkit[\w.-]*:/

/**
 * The head of a file read as Markdown (docs/ingest.md "What RUN may be"): a quoting document has a
 * heading outside its code blocks, and every line holding a GuardKit record inside a fenced code block
 * (``` or ~~~) or a quotation (`>`). The caller has checked that no run starts in it.
 */
export function quotingDocument(text: string): QuotingDocument | null {
  let fence: string | null = null
  let headings = 0
  let records = 0
  let firstLine = 0
  let lastLine = 0
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    const f = FENCE.exec(line)
    if (f !== null) {
      // a fence closes with the same character, at least as long (CommonMark)
      if (fence === null) fence = f[1]!
      else if (f[1]![0] === fence[0] && f[1]!.length >= fence.length) fence = null
      continue
    }
    if (fence === null && HEADING.test(line)) headings++
    if (!RECORD_LINE.test(line)) continue
    if (fence === null && !/^ {0,3}>/.test(line)) return null
    records++
    if (firstLine === 0) firstLine = i + 1
    lastLine = i + 1
  }
  return headings > 0 && records > 0 ? {document: {records, firstLine, lastLine}} : null
}

export function hasLogExtension(name: string): boolean {
  return LOG_EXTENSIONS.some((ext) => name.endsWith(ext)) || COMPRESSED_LOG.test(name)
}

/** A log kept compressed (`run.log.gz`): looked at, to say how to read it, not read. */
const COMPRESSED_LOG = /\.(?:log|txt)\.(?:gz|zst|xz|bz2)$/

export function hasCompressedLogName(name: string): boolean {
  return COMPRESSED_LOG.test(name)
}

/**
 * The issue of a compressed log: it is not read, and the command that writes it out decompressed as `copy`. `given`:
 * the path the user named RUN by (the command names it so), or null for a file found in RUN (named from RUN).
 */
export function compressedIssue(rel: string, compressed: Compression, given: string | null, copy: string): IngestIssue {
  const command = `${compressed.decompress} ${quoteForShell(given ?? rel)} > ${quoteForShell(copy)}`
  const how = given !== null ? `write it out (\`${command}\`) and pass that file instead` : `write it out beside itself (in RUN: \`${command}\`) and run again`
  return {file: rel, code: 'compressed', severity: 'warning', message: `the file is ${compressed.format}-compressed, not read: ${how}`}
}

/** The issue of a compressed log on stdin: nothing of it is read, and the filter to put in front. */
export function compressedInputIssue(file: string, compressed: Compression): IngestIssue {
  return {file, code: 'compressed', severity: 'warning', message: `the input is ${compressed.format}-compressed, not read: decompress it on the way in (\`… | ${compressed.filter} | guardkit-replay -\`)`}
}

/**
 * The name to write a compressed file's content to: without the format's suffix, or with `.decompressed.log` added
 * when it has none or when `taken` says a file of that name is there already (the command must not overwrite it).
 */
export function decompressedName(name: string, compressed: Compression, taken: (name: string) => boolean = () => false): string {
  const bare = name.endsWith(compressed.suffix) && name.length > compressed.suffix.length ? name.slice(0, -compressed.suffix.length) : null
  return bare !== null && !taken(bare) ? bare : `${name}.decompressed.log`
}

/** A name as a POSIX shell reads it back: bare when it is only safe characters, else in single quotes; never as an option. */
function quoteForShell(name: string): string {
  const path = name.startsWith('-') ? `./${name}` : name
  return /^[\w./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`
}
