/** Byte-level checks on file content, before it is decoded. Pure (shared by discovery, the file reader and the log ingest). */

/** How much of a file is looked at to call it binary. */
export const BINARY_SAMPLE = 64 * 1024
/**
 * Share of the sample that must be control bytes or bytes that are not UTF-8 for the file to be
 * binary. Random and compressed data (zip, gzip, PNG) is about 55% such bytes, executables more;
 * a text log with a stray NUL or a few Latin-1 bytes well under 1%, so a few bad bytes never
 * cost the whole file: the lines holding them are skipped, with an issue, instead.
 */
export const BINARY_SHARE = 0.3

export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be'

/**
 * UTF-16 text (PowerShell's `>` and `Tee-Object` write it): by its byte-order mark, or without one
 * by the first 4 KiB. At least a quarter of its pairs must hold one zero byte beside a non-zero one
 * (ASCII text in UTF-16; a UTF-8 log with a stray NUL has almost none). The byte order is the one its
 * line breaks have (`0a 00` little-endian, `00 0a` big-endian) — not where most zeros are: a Rich
 * panel's `─` (U+2500) is `00 25` in UTF-16LE, ASCII's position in UTF-16BE — or, in a sample
 * without a line break, the position most zeros are in. Almost none of the pairs may then decode to a
 * control character. Anything else is read as UTF-8.
 */
export function detectEncoding(bytes: Uint8Array): TextEncoding {
  if (bytes.length >= 2) {
    if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le'
    if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be'
  }
  const pairs = Math.min(bytes.length, 4096) >> 1
  if (pairs < 4) return 'utf-8'
  // *Le: pairs `c 00` (c ≠ 0), ASCII in UTF-16LE; *Be: pairs `00 c`
  let asciiLe = 0
  let asciiBe = 0
  let breakLe = 0
  let breakBe = 0
  let controlLe = 0
  let controlBe = 0
  for (let i = 0; i < pairs * 2; i += 2) {
    const a = bytes[i]!
    const b = bytes[i + 1]!
    if (b === 0 && a !== 0) {
      asciiLe++
      if (a === 0x0a) breakLe++
      else if (isControl(a)) controlLe++
    } else if (a === 0 && b !== 0) {
      asciiBe++
      if (b === 0x0a) breakBe++
      else if (isControl(b)) controlBe++
    }
  }
  if (asciiLe + asciiBe < pairs / 4) return 'utf-8'
  const little = breakLe !== breakBe ? breakLe > breakBe : asciiLe > asciiBe
  if (little) return controlLe <= pairs / 20 ? 'utf-16le' : 'utf-8'
  return controlBe <= pairs / 20 ? 'utf-16be' : 'utf-8'
}

/** A compressed file, by its first bytes, with the commands that write it out decompressed. */
export interface Compression {
  readonly format: 'gzip' | 'zstd' | 'xz' | 'bzip2' | 'zip'
  /** Writes a file's content to stdout; the file's name follows it. */
  readonly decompress: string
  /** Decompresses stdin to stdout. */
  readonly filter: string
  /** The file name suffix of the format. */
  readonly suffix: string
}

const COMPRESSIONS: readonly (Compression & {readonly magic: readonly number[]})[] = [
  {format: 'gzip', magic: [0x1f, 0x8b], decompress: 'gzip -dc', filter: 'gzip -dc', suffix: '.gz'},
  {format: 'zstd', magic: [0x28, 0xb5, 0x2f, 0xfd], decompress: 'zstd -dc', filter: 'zstd -dc', suffix: '.zst'},
  {format: 'xz', magic: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], decompress: 'xz -dc', filter: 'xz -dc', suffix: '.xz'},
  {format: 'bzip2', magic: [0x42, 0x5a, 0x68], decompress: 'bzip2 -dc', filter: 'bzip2 -dc', suffix: '.bz2'},
  // unzip cannot read a pipe; funzip (shipped with it) writes a piped archive's first file
  {format: 'zip', magic: [0x50, 0x4b, 0x03, 0x04], decompress: 'unzip -p', filter: 'funzip', suffix: '.zip'},
]

/**
 * The compression a file's head shows, or null. `BZh` and `PK\x03\x04` are text too, so bzip2 needs its
 * block size digit and a zip the rest of its header to be binary; gzip, zstd and xz start with bytes no
 * text log does.
 */
export function compressionOf(head: Uint8Array): Compression | null {
  for (const c of COMPRESSIONS) {
    if (head.length < c.magic.length + 2 || !c.magic.every((b, i) => head[i] === b)) continue
    if (c.format === 'bzip2' && !(head[3]! >= 0x31 && head[3]! <= 0x39 && head[4] === 0x31 && head[5] === 0x41)) continue
    if (c.format === 'zip' && !looksBinary(head)) continue
    return {format: c.format, decompress: c.decompress, filter: c.filter, suffix: c.suffix}
  }
  return null
}

/** A control character a text log does not hold (tab, line breaks, form feed and ESC it may). */
function isControl(c: number): boolean {
  return (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0b && c !== 0x0c && c !== 0x0d && c !== 0x1b) || c === 0x7f
}

/**
 * Binary, not text: more than BINARY_SHARE of the first BINARY_SAMPLE bytes are control bytes
 * (not tab, line breaks, form feed or ESC) or not UTF-8. UTF-16 text is text (see detectEncoding).
 */
export function looksBinary(bytes: Uint8Array): boolean {
  if (bytes.length === 0 || detectEncoding(bytes) !== 'utf-8') return false
  const end = Math.min(bytes.length, BINARY_SAMPLE)
  // a sample cut inside a character: its last bytes are not counted
  const counted = end < bytes.length ? Math.max(end - 3, 1) : end
  let bad = 0
  let i = 0
  while (i < counted) {
    const b = bytes[i]!
    if (b < 0x80) {
      if (isControl(b)) bad++
      i++
      continue
    }
    const need = utf8SequenceAt(bytes, i)
    if (need === 0) {
      bad++
      i++
    } else {
      i += need
    }
  }
  return bad > counted * BINARY_SHARE
}

/** Lines (1-based) holding a NUL byte: how many, and the first. */
export function nulLines(bytes: Uint8Array): {readonly count: number; readonly first: number} | null {
  const at = bytes.indexOf(0)
  if (at === -1) return null
  let line = 1
  for (let i = 0; i < at; i++) if (bytes[i] === 0x0a) line++
  let count = 0
  let first = 0
  let marked = false
  for (let i = at; i < bytes.length; i++) {
    const b = bytes[i]
    if (b === 0x0a) {
      line++
      marked = false
    } else if (b === 0 && !marked) {
      marked = true
      if (count++ === 0) first = line
    }
  }
  return {count, first}
}

/** Length of the valid UTF-8 sequence starting at `i` (2–4), or 0. */
function utf8SequenceAt(bytes: Uint8Array, i: number): number {
  const b = bytes[i]!
  let need: number
  let min: number
  if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80]
  else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800]
  else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000]
  else return 0
  let cp = b & (0xff >> (need + 2))
  for (let k = 1; k <= need; k++) {
    const c = bytes[i + k]
    if (c === undefined || (c & 0xc0) !== 0x80) return 0
    cp = (cp << 6) | (c & 0x3f)
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0
  return need + 1
}

/** Offset of the first byte that does not start or continue a valid UTF-8 sequence, or null. */
export function firstInvalidUtf8(bytes: Uint8Array): number | null {
  let i = 0
  while (i < bytes.length) {
    if (bytes[i]! < 0x80) {
      i++
      continue
    }
    const need = utf8SequenceAt(bytes, i)
    if (need === 0) return i
    i += need
  }
  return null
}

/** 1-based line of a byte offset. */
export function lineOfOffset(bytes: Uint8Array, offset: number): number {
  let line = 1
  for (let i = 0; i < offset && i < bytes.length; i++) if (bytes[i] === 0x0a) line++
  return line
}
