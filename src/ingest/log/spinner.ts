import {Buffer} from 'node:buffer'

/**
 * Spinner redraws (`⠋ Turn 1/5: Player Implementation ━━━…   0%`) are a third of a capture's
 * bytes: the ingest recognises them on the raw bytes and decodes only what follows the
 * percentage on the line (another task's record, mostly).
 */

/**
 * Where the spinner at the start of a line ends: the index of its `%`, judged on the UTF-8 bytes
 * before any decoding. A braille spinner (U+2800–U+28FF is E2 A0–A3 xx), then its progress text
 * and percentage, with no CR, ESC or NUL before it; -1 otherwise. `plain`: the caller knows the line
 * holds none of those three.
 */
export function spinnerEnd(buf: Uint8Array, start: number, end: number, plain = false): number {
  if (end - start < 3 || buf[start] !== 0xe2 || (buf[start + 1]! & 0xfc) !== 0xa0) return -1
  if (plain) {
    // the caller knows the line holds no CR, ESC or NUL (isPlainChunk): the percentage is the first `%`, found natively
    const pct = buf.indexOf(0x25, start + 3)
    return pct !== -1 && pct < end ? pct : -1
  }
  for (let j = start + 3; j < end; j++) {
    const b = buf[j]!
    if (b === 0x25) return j
    if (b === 0x0d || b === 0x1b || b === 0x00) return -1
  }
  return -1
}

/** spinnerEnd on a decoded line (lines pushed as text get the same reading). */
export function spinnerEndText(text: string): number {
  const c0 = text.charCodeAt(0)
  if (c0 < 0x2800 || c0 > 0x28ff) return -1
  for (let j = 1; j < text.length; j++) {
    const c = text.charCodeAt(j)
    if (c === 0x25) return j
    if (c === 0x0d || c === 0x1b || c === 0x00) return -1
  }
  return -1
}

const C1_CSI = new Uint8Array([0xc2, 0x9b])

/** No CR, ESC, C1 CSI or NUL anywhere in the chunk: its lines need none of those checks. */
export function isPlainChunk(chunk: Uint8Array): boolean {
  const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length)
  return buf.indexOf(0x0d) === -1 && buf.indexOf(0x1b) === -1 && buf.indexOf(0x00) === -1 && buf.indexOf(C1_CSI) === -1
}
