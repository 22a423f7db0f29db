/**
 * Python `str` semantics the replay must reproduce byte for byte (docs/guardkit-logic.md §3.1-3.3, §3.5).
 * Python strings are sequences of code points; JS strings are UTF-16. Every length, index and
 * slice here counts code points, and never splits a surrogate pair.
 */

/**
 * Python's whitespace (`str.isspace`, `str.strip()`, `str.split()`, `re` `\s`): bidi classes WS, B, S
 * and category Zs. Unlike JS `\s` it includes U+001C..U+001F and U+0085, and excludes U+FEFF.
 */
export const PY_WHITESPACE =
  '\t\n\v\f\r\u001c\u001d\u001e\u001f \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000'

const WHITESPACE_SET = new Set(Array.from(PY_WHITESPACE))

export function isPySpace(ch: string): boolean {
  return WHITESPACE_SET.has(ch)
}

/** `len(s)` */
export function pyLen(s: string): number {
  let n = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) i++
    }
    n++
  }
  return n
}

/** `s[start:end]` with Python's clamping and negative indices, counted in code points. */
export function pySlice(s: string, start?: number, end?: number): string {
  // Fast path: pure BMP-free-of-surrogates strings index like Python.
  if (!/[\ud800-\udfff]/.test(s)) {
    return s.slice(...normaliseBounds(s.length, start, end))
  }
  const cps = Array.from(s)
  const [a, b] = normaliseBounds(cps.length, start, end)
  return cps.slice(a, b).join('')
}

function normaliseBounds(len: number, start?: number, end?: number): [number, number] {
  let a = start ?? 0
  let b = end ?? len
  if (a < 0) a = Math.max(0, len + a)
  if (b < 0) b = Math.max(0, len + b)
  a = Math.min(a, len)
  b = Math.min(b, len)
  return [a, Math.max(a, b)]
}

/** `s[:n]` */
export function pyHead(s: string, n: number): string {
  // a string has no more code points than UTF-16 units: nothing to cut (the hot case, on every line)
  if (n >= s.length) return s
  if (n < 0) return pySlice(s, 0, n)
  let i = 0
  for (let count = 0; count < n; count++) i += unitsAt(s, i)
  return s.slice(0, i)
}

/** UTF-16 units of the code point starting at `i` (a lone surrogate is one code point, as in Array.from). */
function unitsAt(s: string, i: number): number {
  const c = s.charCodeAt(i)
  return c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1
}

/** UTF-16 units of the code point ending at `j`. */
function unitsBefore(s: string, j: number): number {
  const c = s.charCodeAt(j - 1)
  return (c & 0xfc00) === 0xdc00 && j >= 2 && (s.charCodeAt(j - 2) & 0xfc00) === 0xd800 ? 2 : 1
}

function charsSet(chars: string | undefined): (ch: string) => boolean {
  if (chars === undefined) return isPySpace
  const set = new Set(Array.from(chars))
  return (ch) => set.has(ch)
}

/** `s.lstrip(chars)`: chars is a set of characters, not a prefix. */
export function pyLstrip(s: string, chars?: string): string {
  const strip = charsSet(chars)
  let i = 0
  while (i < s.length) {
    const n = unitsAt(s, i)
    if (!strip(s.slice(i, i + n))) break
    i += n
  }
  return i === 0 ? s : s.slice(i)
}

/** `s.rstrip(chars)` */
export function pyRstrip(s: string, chars?: string): string {
  const strip = charsSet(chars)
  let j = s.length
  while (j > 0) {
    const n = unitsBefore(s, j)
    if (!strip(s.slice(j - n, j))) break
    j -= n
  }
  return j === s.length ? s : s.slice(0, j)
}

/** `s.strip(chars)` */
export function pyStrip(s: string, chars?: string): string {
  return pyRstrip(pyLstrip(s, chars), chars)
}

/** `s.split()` with no argument: runs of Python whitespace separate, empty strings dropped. */
export function pySplitWhitespace(s: string): string[] {
  const out: string[] = []
  let cur = ''
  for (const ch of s) {
    if (isPySpace(ch)) {
      if (cur) out.push(cur)
      cur = ''
    } else {
      cur += ch
    }
  }
  if (cur) out.push(cur)
  return out
}

/**
 * `s.splitlines()`: Python also breaks on \v, \f, \x1c-\x1e, \x85, \u2028, \u2029, and treats
 * \r\n as one break.
 */
export function pySplitlines(s: string): string[] {
  const out: string[] = []
  // eslint-disable-next-line no-control-regex -- Python breaks lines on these control characters
  const re = /\r\n|[\n\r\v\f\u001c\u001d\u001e\u0085\u2028\u2029]/g
  let last = 0
  for (const m of s.matchAll(re)) {
    out.push(s.slice(last, m.index))
    last = m.index + m[0].length
  }
  if (last < s.length) out.push(s.slice(last))
  return out
}

/** `s.lower()`: full Unicode lower-casing; JS's locale-independent toLowerCase agrees (docs/guardkit-logic.md §3.3). */
export function pyLower(s: string): string {
  return s.toLowerCase()
}

/** Python truthiness of a JSON value (docs/guardkit-logic.md §3.13). */
export function pyTruthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '') return false
  if (Array.isArray(value)) return value.length > 0
  if (typeof value === 'object') return Object.keys(value as object).length > 0
  return true
}
