import {forgetNumberLexeme, lexemeNeedsMark, rememberNumberLexeme} from './json-numbers.js'

/**
 * `json.loads(s)` as CPython 3.11 runs it (the C scanner, `strict=True`), the reader behind every
 * `json.load(f)` GuardKit does: NaN, Infinity and -Infinity are accepted, duplicate keys keep the last
 * value at the first key's place, raw control characters in strings are refused, a leading U+FEFF is an
 * error of its own. A failure is Python's `JSONDecodeError`, whose text GuardKit prints into feedback and
 * logs (`Failed to parse task-work results: Expecting property name enclosed in double quotes: line 1
 * column 2 (char 1)`): the message, and the position counted in code points, as Python counts.
 *
 * Numbers keep their Python type: see json-numbers.ts.
 */
export type PyJsonLoad = {readonly ok: true; readonly value: unknown} | {readonly ok: false; readonly error: PyJsonDecodeError}

export interface PyJsonDecodeError {
  /** `JSONDecodeError.msg`, e.g. `Expecting value`. */
  readonly msg: string
  /** `.pos`, `.lineno`, `.colno`: code points from the start, 1-based line, 1-based column. */
  readonly pos: number
  readonly lineno: number
  readonly colno: number
  /** `str(e)`: `Expecting value: line 1 column 1 (char 0)`. */
  readonly text: string
  /** The error is at (or, for an unterminated string, ran into) the end of the text: a cut file. */
  readonly atEnd: boolean
  /** Not a JSONDecodeError: CPython raises RecursionError first (json.load's callers do not catch it). */
  readonly recursion: boolean
}

export function pyJsonLoads(text: string): PyJsonLoad {
  if (text.charCodeAt(0) === 0xfeff) return failure(text, new Scan('Unexpected UTF-8 BOM (decode using utf-8-sig)', 0))
  const parser = new Parser(text)
  try {
    parser.skipWs()
    const value = parser.scanOnce(parser.pos, 0)
    parser.skipWs()
    if (parser.pos !== text.length) throw new Scan('Extra data', parser.pos)
    return {ok: true, value}
  } catch (error) {
    if (!(error instanceof Scan)) throw error
    return failure(text, error)
  }
}

/** A scanner error at a UTF-16 offset (converted to Python's code-point position at the end). */
class Scan extends Error {
  constructor(
    readonly msg: string,
    readonly offset: number,
    readonly eof = false,
    readonly recursion = false,
  ) {
    super(msg)
  }
}

function failure(text: string, error: Scan): {ok: false; error: PyJsonDecodeError} {
  const pos = codePoints(text, 0, error.offset)
  const lastNl = text.lastIndexOf('\n', error.offset - 1)
  const lineno = countNewlines(text, error.offset) + 1
  const colno = lastNl < 0 || error.offset === 0 ? pos + 1 : codePoints(text, lastNl + 1, error.offset) + 1
  const atEnd = error.eof || text.slice(error.offset).trim() === ''
  return {ok: false, error: {msg: error.msg, pos, lineno, colno, text: `${error.msg}: line ${lineno} column ${colno} (char ${pos})`, atEnd, recursion: error.recursion}}
}

function countNewlines(text: string, end: number): number {
  let n = 0
  for (let i = text.indexOf('\n'); i >= 0 && i < end; i = text.indexOf('\n', i + 1)) n++
  return n
}

/** Code points in `text[from:to]` (UTF-16 offsets): a surrogate pair is one. */
function codePoints(text: string, from: number, to: number): number {
  let n = 0
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < to) {
      const d = text.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) i++
    }
    n++
  }
  return n
}

/** CPython's recursion limit is 1000 frames; the scanner needs one per level and the caller's stack some more. */
const MAX_DEPTH = 990
/** `_match_number_unicode`: ASCII digits only (no `u` flag: `\d` is [0-9]). */
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?/y

class Parser {
  pos = 0
  constructor(private readonly text: string) {}

  /** JSON's whitespace: space, tab, newline, carriage return (not Python's `str.isspace`). */
  skipWs(): void {
    const t = this.text
    while (this.pos < t.length) {
      const c = t.charCodeAt(this.pos)
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.pos++
      else break
    }
  }

  /** `scan_once(s, idx)`: one value starting exactly at `idx`; StopIteration = "Expecting value" there. */
  scanOnce(idx: number, depth: number): unknown {
    const t = this.text
    this.pos = idx
    if (idx >= t.length) throw new Scan('Expecting value', idx, true)
    const c = t[idx]
    switch (c) {
      case '"':
        return this.string()
      case '{':
        return this.object(depth + 1)
      case '[':
        return this.array(depth + 1)
      case 'n':
        if (t.startsWith('null', idx)) return this.take(4, null)
        break
      case 't':
        if (t.startsWith('true', idx)) return this.take(4, true)
        break
      case 'f':
        if (t.startsWith('false', idx)) return this.take(5, false)
        break
      case 'N':
        if (t.startsWith('NaN', idx)) return this.take(3, Number.NaN)
        break
      case 'I':
        if (t.startsWith('Infinity', idx)) return this.take(8, Number.POSITIVE_INFINITY)
        break
      case '-':
        if (t.startsWith('-Infinity', idx)) return this.take(9, Number.NEGATIVE_INFINITY)
        break
    }
    const n = this.number(null, '')
    if (n) return n.value
    throw new Scan('Expecting value', idx)
  }

  private take<T>(n: number, value: T): T {
    this.pos += n
    return value
  }

  /** A number at `pos`, or null when none starts there; its lexeme is remembered when JS would misprint it. */
  private number(container: object | null, key: string): {value: number} | null {
    NUMBER.lastIndex = this.pos
    const m = NUMBER.exec(this.text)
    if (!m) return null
    this.pos += m[0].length
    const value = Number(m[0])
    // A number that is the whole document has no container to carry its type (json.loads('1.0') is rare in GuardKit's files).
    if (container !== null && lexemeNeedsMark(m[0], value)) rememberNumberLexeme(container, key, m[0])
    return {value}
  }

  /** A value inside a container: numbers are read here, where their container is known. */
  private member(container: object, key: string, depth: number): unknown {
    const c = this.text.charCodeAt(this.pos)
    if ((c >= 0x30 && c <= 0x39) || (c === 0x2d && !this.text.startsWith('-Infinity', this.pos))) {
      const n = this.number(container, key)
      if (n) return n.value
    }
    return this.scanOnce(this.pos, depth)
  }

  private object(depth: number): Record<string, unknown> {
    if (depth > MAX_DEPTH) throw new Scan('maximum recursion depth exceeded while decoding a JSON object from a unicode string', this.pos, false, true)
    const out: Record<string, unknown> = {}
    const t = this.text
    this.pos++
    this.skipWs()
    if (t[this.pos] === '}') {
      this.pos++
      return out
    }
    for (;;) {
      if (t[this.pos] !== '"') throw new Scan('Expecting property name enclosed in double quotes', this.pos, this.pos >= t.length)
      const key = this.string()
      this.skipWs()
      if (t[this.pos] !== ':') throw new Scan("Expecting ':' delimiter", this.pos, this.pos >= t.length)
      this.pos++
      this.skipWs()
      forgetNumberLexeme(out, key)
      const value = this.member(out, key, depth)
      // an own property even for "__proto__"; a duplicate key keeps its first place, as a dict does
      Object.defineProperty(out, key, {value, writable: true, enumerable: true, configurable: true})
      this.skipWs()
      const c = t[this.pos]
      if (c === '}') {
        this.pos++
        return out
      }
      if (c !== ',') throw new Scan("Expecting ',' delimiter", this.pos, this.pos >= t.length)
      this.pos++
      this.skipWs()
    }
  }

  private array(depth: number): unknown[] {
    if (depth > MAX_DEPTH) throw new Scan('maximum recursion depth exceeded while decoding a JSON array from a unicode string', this.pos, false, true)
    const out: unknown[] = []
    const t = this.text
    this.pos++
    this.skipWs()
    if (t[this.pos] === ']') {
      this.pos++
      return out
    }
    for (;;) {
      out.push(this.member(out, String(out.length), depth))
      this.skipWs()
      const c = t[this.pos]
      if (c === ']') {
        this.pos++
        return out
      }
      if (c !== ',') throw new Scan("Expecting ',' delimiter", this.pos, this.pos >= t.length)
      this.pos++
      this.skipWs()
    }
  }

  /** `scanstring(s, end, strict=True)`, `pos` at the opening quote. */
  private string(): string {
    const t = this.text
    const begin = this.pos
    let end = begin + 1
    let out = ''
    for (;;) {
      let next = end
      let c = -1
      for (; next < t.length; next++) {
        c = t.charCodeAt(next)
        if (c === 0x22 || c === 0x5c) break
        if (c <= 0x1f) throw new Scan('Invalid control character at', next)
      }
      if (next >= t.length) throw new Scan('Unterminated string starting at', begin, true)
      out += t.slice(end, next)
      next++
      if (c === 0x22) {
        this.pos = next
        return out
      }
      if (next === t.length) throw new Scan('Unterminated string starting at', begin, true)
      const e = t[next]!
      if (e !== 'u') {
        const mapped = ESCAPES[e]
        if (mapped === undefined) throw new Scan('Invalid \\escape', next - 1)
        out += mapped
        end = next + 1
        continue
      }
      next++
      end = next + 4
      if (end >= t.length) throw new Scan('Invalid \\uXXXX escape', next - 1, true)
      const unit = this.hex4(next, end)
      // A high surrogate followed by `\u` + a low one is one character; otherwise each stands alone.
      if (unit >= 0xd800 && unit <= 0xdbff && end + 6 < t.length && t[end] === '\\' && t[end + 1] === 'u') {
        const low = this.hex4(end + 2, end + 6)
        if (low >= 0xdc00 && low <= 0xdfff) {
          out += String.fromCharCode(unit, low)
          end += 6
          continue
        }
      }
      out += String.fromCharCode(unit)
    }
  }

  /** Four hex digits at `[from, to)`; "Invalid \uXXXX escape" at the `u` (`to - 5`) otherwise. */
  private hex4(from: number, to: number): number {
    let n = 0
    for (let i = from; i < to; i++) {
      const d = HEX.indexOf(this.text[i]!)
      if (d < 0) throw new Scan('Invalid \\uXXXX escape', to - 5)
      n = n * 16 + (d >= 16 ? d - 6 : d)
    }
    return n
  }
}

const HEX = '0123456789abcdefABCDEF'

const ESCAPES: Readonly<Record<string, string>> = {'"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t'}
