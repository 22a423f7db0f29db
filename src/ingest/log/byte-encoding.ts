import {Buffer, isUtf8} from 'node:buffer'
import {TextDecoder} from 'node:util'
import {detectEncoding, type TextEncoding} from '../fs/text-bytes.js'

/**
 * The encoding side of one log as it streams in (docs/ingest.md "Text encodings"):
 *
 * - UTF-16 (by its byte-order mark, or the zero bytes of ASCII text in every other position; see
 *   detectEncoding) is decided on the file's first line (its first 4 KiB at most) and transcoded to UTF-8 chunk by chunk,
 *   so the line splitter and the grammars see the text they always see;
 * - invalid UTF-8 is looked for per chunk with the native validator (a chunk's last, unfinished
 *   character is checked with the next chunk), and only a chunk that fails has its lines checked
 *   one by one, until the first bad line is found: that line is the file's one `invalid-utf8`
 *   issue. A log without bad bytes pays one native scan per chunk.
 */
export interface LogEncoding {
  /** The file's encoding once its first bytes were seen (UTF-8 until then). */
  readonly encoding: TextEncoding
  /** The chunk as UTF-8 (the chunk itself unless the file is UTF-16). */
  transcode(chunk: Uint8Array): Uint8Array
  /** What is left of a UTF-16 file (a lone final byte or surrogate). */
  end(): Uint8Array
  /** Whether lines must be checked one by one: a chunk held invalid UTF-8 not yet placed on a line. */
  readonly checkLines: boolean
  /** A line's bytes while `checkLines`: true (and the search ends) when they are not UTF-8. */
  lineIsInvalid(buf: Uint8Array, start: number, end: number): boolean
}

const EMPTY = new Uint8Array(0)
/** Bytes looked at to tell UTF-16 from UTF-8 (detectEncoding needs four pairs)... */
const DECIDE_BYTES = 8
/**
 * ...and a line break with the byte after it, or this many bytes (detectEncoding's window): a Rich panel's
 * box-drawing characters are `00 25` pairs in UTF-16LE, ASCII-like in the other byte order, so without a
 * line break the first bytes of a log that opens with a panel point the wrong way.
 */
const DECIDE_AT_MOST = 4096

/** Whether the first bytes are enough to decide: a line break and the byte after it, or the whole window. */
function canDecide(head: Uint8Array): boolean {
  if (head.length < DECIDE_BYTES) return false
  if (head.length >= DECIDE_AT_MOST) return true
  const nl = head.indexOf(0x0a)
  return nl !== -1 && nl + 1 < head.length
}

export function createLogEncoding(): LogEncoding {
  let encoding: TextEncoding | null = null
  let decoder: TextDecoder | null = null
  /** Bytes of a UTF-8 character begun at the end of the previous chunk. */
  let pending: Uint8Array = EMPTY
  let checkLines = false
  let found = false
  /** The first bytes, held until there are enough to tell UTF-16 from UTF-8. */
  let head: Uint8Array = EMPTY

  function decide(): Uint8Array {
    encoding = detectEncoding(head)
    if (encoding !== 'utf-8') decoder = new TextDecoder(encoding)
    const first = head
    head = EMPTY
    return pass(first)
  }

  function pass(chunk: Uint8Array): Uint8Array {
    if (decoder !== null) return Buffer.from(decoder.decode(chunk, {stream: true}), 'utf8')
    checkUtf8(chunk)
    return chunk
  }

  function checkUtf8(chunk: Uint8Array): void {
    if (found || checkLines) return
    const open = unfinishedTail(chunk)
    let from = 0
    if (pending.length > 0) {
      // the character begun in the last chunk, completed by this one's continuation bytes
      let k = 0
      while (k < chunk.length && k < 3 && (chunk[k]! & 0xc0) === 0x80) k++
      const joined = Buffer.concat([pending, chunk.subarray(0, k)])
      if (k === chunk.length && unfinishedTail(joined) === joined.length) {
        // still unfinished (chunks of a byte or two, from a pipe): wait for more
        pending = joined
        return
      }
      if (!isUtf8(joined)) checkLines = true
      from = k
    }
    const end = Math.max(from, chunk.length - open)
    if (!checkLines && end > from && !isUtf8(chunk.subarray(from, end))) checkLines = true
    // a copy: Buffer#slice is a view, and a reader may read its next chunk into the same buffer
    pending = open > 0 && end >= from ? Uint8Array.prototype.slice.call(chunk, chunk.length - open) : EMPTY
  }

  return {
    get encoding() {
      return encoding ?? 'utf-8'
    },
    get checkLines() {
      return checkLines
    },
    transcode(chunk) {
      if (chunk.length === 0) return chunk
      if (encoding === null) {
        // decided on the first line: at once when the chunk holds it (a file's first read); else held back (a pipe may
        // hand it over a byte or two at a time) as a copy, not a view — a reader may read its next chunk into the same buffer
        if (head.length === 0 && canDecide(chunk)) {
          head = chunk
          return decide()
        }
        head = head.length === 0 ? Uint8Array.prototype.slice.call(chunk) : Buffer.concat([head, chunk])
        if (!canDecide(head)) return EMPTY
        return decide()
      }
      return pass(chunk)
    },
    end() {
      const last = encoding === null && head.length > 0 ? decide() : EMPTY
      if (decoder !== null) return Buffer.concat([last, Buffer.from(decoder.decode(), 'utf8')])
      if (pending.length > 0 && !found) checkLines = true
      pending = EMPTY
      return last
    },
    lineIsInvalid(buf, start, end) {
      const b = Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.length)
      if (isUtf8(b.subarray(start, end))) return false
      found = true
      checkLines = false
      return true
    },
  }
}

/** How many bytes at the end of the chunk begin a UTF-8 character the chunk does not finish (0–3). */
function unfinishedTail(chunk: Uint8Array): number {
  const n = chunk.length
  for (let back = 1; back <= 3 && back <= n; back++) {
    const b = chunk[n - back]!
    if ((b & 0xc0) === 0x80) continue
    if (b < 0x80) return 0
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1
    return need > back ? back : 0
  }
  return 0
}
