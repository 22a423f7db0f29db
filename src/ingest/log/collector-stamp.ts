/**
 * The timestamp a log collector writes before every line it keeps (docs/ingest.md "Collector
 * timestamps"): GitHub Actions' downloaded logs (`2026-02-10T12:00:01.1234567Z `), `docker logs
 * --timestamps` and `kubectl logs --timestamps` (nine decimals): RFC 3339 in UTC, then one space (or
 * the end of an empty line, or its CR). GuardKit's own console timestamps sit in brackets after a spinner or a
 * glyph, never bare at the start of a line, so they are never taken for one.
 *
 * Left in place it hides what starts a line (a Rich box, a shell prompt, a Player or Coach status
 * line) and ends up inside every continuation line of a multi-line record (the feedback's bullets),
 * so a file whose first line carries one is read without it on every line that does.
 */

/** Where the line's text starts after a collector timestamp at `start`, or `start` when there is none. `at(i)`: the code of position i (a byte or a UTF-16 unit: the stamp is ASCII). */
export function afterCollectorStamp(at: (i: number) => number, start: number, end: number): number {
  // YYYY-MM-DDTHH:MM:SS
  if (end - start < 20) return start
  for (let k = 0; k < SHAPE.length; k++) {
    const c = at(start + k)
    const want = SHAPE.charCodeAt(k)
    if (want === DIGIT ? c < 0x30 || c > 0x39 : c !== want) return start
  }
  let i = start + SHAPE.length
  if (at(i) === 0x2e) {
    // a fraction of one to nine digits
    let digits = 0
    for (i++; i < end && digits < 10 && at(i) >= 0x30 && at(i) <= 0x39; i++) digits++
    if (digits === 0 || digits > 9) return start
  }
  if (i >= end || at(i) !== 0x5a) return start
  i++
  // an empty line: the stamp alone, or before the CR of a CRLF line (left for the line's own CR handling)
  if (i === end || (at(i) === 0x0d && i + 1 === end)) return i
  return at(i) === 0x20 ? i + 1 : start
}

const DIGIT = 0x23
/** `#` stands for a digit. */
const SHAPE = '####-##-##T##:##:##'

/** The same for a line's bytes. */
export function afterCollectorStampInBytes(buf: Uint8Array, start: number, end: number): number {
  return afterCollectorStamp((i) => buf[i]!, start, end)
}

/** The same for a line's text. */
export function afterCollectorStampInText(text: string): number {
  return afterCollectorStamp((i) => text.charCodeAt(i), 0, text.length)
}
