import {Buffer} from 'node:buffer'

/**
 * Bytes → physical lines, for logs of any size. Lines end at LF and are split on bytes, then each
 * line is decoded on its own (invalid UTF-8 becomes U+FFFD): every line is an independent string,
 * so a value the RunRecord keeps from one line keeps that line alive, never the megabyte chunk it
 * was read in. A line longer than `maxLineChars` bytes is cut there, so one runaway line (a
 * megabyte of base64, a binary blob) cannot hold the log in memory; the rest of it is skipped.
 */
export interface LineSplitterOptions {
  /** Longest line kept, in bytes of UTF-8; longer lines are cut (default 1 MiB). */
  readonly maxLineChars?: number
}

export interface LineSplitter {
  push(chunk: Uint8Array): void
  /** Emits the last line when the input did not end with a newline. */
  end(): void
}

export const DEFAULT_MAX_LINE_CHARS = 1 << 20

const LF = 0x0a

type Utf8Sliceable = Buffer & {utf8Slice?: (start: number, end: number) => string}

/** Buffer#toString('utf8', …) without its argument handling (the hot path: once per line). */
export function decodeLine(buf: Buffer, start: number, end: number): string {
  return decode(buf, start, end)
}

function decode(buf: Utf8Sliceable, start: number, end: number): string {
  return buf.utf8Slice !== undefined ? buf.utf8Slice(start, end) : buf.toString('utf8', start, end)
}

/** `onLine(text, droppedBytes)`: arguments rather than an object, as this runs for every line. */
export function createLineSplitter(onLine: (text: string, dropped: number) => void, options: LineSplitterOptions = {}): LineSplitter {
  return createByteLineSplitter((buf, start, end, dropped) => onLine(decode(buf, start, end), dropped), options)
}

/**
 * The same, handing over each line's bytes (`buf[start, end)`, valid only during the call): a
 * caller can look at a line before paying for its decoding. `decodeLine` decodes it.
 */
export function createByteLineSplitter(onLine: (buf: Buffer, start: number, end: number, dropped: number) => void, options: LineSplitterOptions = {}): LineSplitter {
  const maxLine = options.maxLineChars ?? DEFAULT_MAX_LINE_CHARS
  /** Bytes of a line begun in an earlier chunk. */
  let carry: Buffer[] = []
  let carried = 0
  let dropped = 0
  let first = true

  function emit(buf: Buffer, start: number, end: number): void {
    let s = start
    // A UTF-8 byte-order mark is not part of the first line.
    if (first && end - s >= 3 && buf[s] === 0xef && buf[s + 1] === 0xbb && buf[s + 2] === 0xbf) s += 3
    first = false
    let e = end
    if (e - s > maxLine) {
      dropped += e - s - maxLine
      e = s + maxLine
    }
    onLine(buf, s, e, dropped)
    dropped = 0
  }

  function keepCarry(buf: Buffer, start: number, end: number): void {
    const room = maxLine + 3 - carried
    const take = Math.min(Math.max(room, 0), end - start)
    if (take > 0) {
      carry.push(Buffer.from(buf.subarray(start, start + take)))
      carried += take
    }
    dropped += end - start - take
  }

  function emitCarried(buf: Buffer, end: number): void {
    keepCarry(buf, 0, end)
    const whole = carry.length === 1 ? carry[0]! : Buffer.concat(carry)
    carry = []
    carried = 0
    emit(whole, 0, whole.length)
  }

  return {
    push(chunk) {
      if (chunk.length === 0) return
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length)
      let start = 0
      let nl = buf.indexOf(LF, 0)
      if (nl !== -1 && carried + dropped > 0) {
        emitCarried(buf, nl)
        start = nl + 1
        nl = buf.indexOf(LF, start)
      }
      while (nl !== -1) {
        emit(buf, start, nl)
        start = nl + 1
        nl = buf.indexOf(LF, start)
      }
      if (start < buf.length) keepCarry(buf, start, buf.length)
    },
    end() {
      if (carried + dropped > 0) emitCarried(Buffer.alloc(0), 0)
    },
  }
}
