/** Byte-level checks on file content, before it is decoded. */

const SNIFF_BYTES = 8192

/** NUL bytes in the first 8 KiB: no AutoBuild text record holds one, every binary format does. */
export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, SNIFF_BYTES)
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true
  return false
}

/** Offset of the first byte that does not start or continue a valid UTF-8 sequence, or null. */
export function firstInvalidUtf8(bytes: Uint8Array): number | null {
  let i = 0
  while (i < bytes.length) {
    const b = bytes[i]!
    if (b < 0x80) {
      i++
      continue
    }
    let need: number
    let min: number
    if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80]
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800]
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000]
    else return i
    let cp = b & (0xff >> (need + 2))
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k]
      if (c === undefined || (c & 0xc0) !== 0x80) return i
      cp = (cp << 6) | (c & 0x3f)
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i
    i += need + 1
  }
  return null
}

/** 1-based line of a byte offset. */
export function lineOfOffset(bytes: Uint8Array, offset: number): number {
  let line = 1
  for (let i = 0; i < offset && i < bytes.length; i++) if (bytes[i] === 0x0a) line++
  return line
}
