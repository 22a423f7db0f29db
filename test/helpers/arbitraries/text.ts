import fc from 'fast-check'

/**
 * Text building blocks with the characters where Python and JavaScript disagree (docs/guardkit-logic.md §3.1-3.3):
 * astral code points (two UTF-16 units, one Python character), combining marks, Python-only whitespace,
 * and U+FEFF, which JS `trim()` strips but Python does not.
 */

/**
 * Every code point `str.isspace()` accepts in CPython 3.11 (checked against CPython by
 * test/unit/logic/python/cpython-oracle.test.ts, not taken from the model).
 */
export const PY_WHITESPACE_CODE_POINTS: readonly number[] = [
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006,
  0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]
export const PY_WHITESPACE_CHARS: readonly string[] = PY_WHITESPACE_CODE_POINTS.map((cp) => String.fromCodePoint(cp))
/** Whitespace for Python but not for JS `\s` / `trim()`. */
export const PY_ONLY_WHITESPACE: readonly string[] = ['\x1c', '\x1d', '\x1e', '\x1f', '\x85']
/** Look like blanks, are not Python whitespace (U+FEFF is JS whitespace). */
export const NOT_PY_WHITESPACE: readonly string[] = ['\ufeff', '\u200b', '\u180e', '\u2060']

export const ASTRAL_SAMPLES: readonly string[] = ['\u{1F600}', '\u{1F9EA}', '\u{1D518}', '\u{10400}', '\u{10428}', '\u{20000}', '\u{1F468}\u{200D}\u{1F4BB}']
export const COMBINING_SAMPLES: readonly string[] = ['e\u0301', 'a\u0308', '\u0301', 'n\u0303', '\u0915\u094d\u0937', 'o\u0328\u0301']

export const pyWhitespaceChar = fc.constantFrom(...PY_WHITESPACE_CHARS)
/** One to three Python whitespace characters (Python-only ones included). */
export const pyWhitespace = fc.array(pyWhitespaceChar, {minLength: 1, maxLength: 3}).map((cs) => cs.join(''))
export const notPyWhitespaceChar = fc.constantFrom(...NOT_PY_WHITESPACE)

/** Any code point outside the BMP (a surrogate pair in UTF-16). */
export const astralChar = fc.integer({min: 0x10000, max: 0x10ffff}).map((cp) => String.fromCodePoint(cp))
/** A combining mark (U+0300-U+036F, U+1AB0-U+1AFF, U+20D0-U+20FF), alone or on a base letter. */
export const combiningMark = fc
  .oneof(fc.integer({min: 0x300, max: 0x36f}), fc.integer({min: 0x1ab0, max: 0x1abd}), fc.integer({min: 0x20d0, max: 0x20f0}))
  .map((cp) => String.fromCodePoint(cp))
export const combined = fc.tuple(fc.constantFrom('a', 'e', 'o', 'n', 'Z', '\u0915'), fc.array(combiningMark, {minLength: 1, maxLength: 3})).map(([b, ms]) => b + ms.join(''))

/** One "character" of hard text: ASCII, astral, combining sequences, whitespace of both kinds, CJK, anything. */
export const hardChar = fc.oneof(
  {weight: 4, arbitrary: fc.string({unit: 'grapheme-ascii', minLength: 1, maxLength: 1})},
  {weight: 2, arbitrary: fc.constantFrom(...ASTRAL_SAMPLES)},
  {weight: 1, arbitrary: astralChar},
  {weight: 2, arbitrary: combined},
  {weight: 1, arbitrary: combiningMark},
  {weight: 1, arbitrary: pyWhitespaceChar},
  {weight: 1, arbitrary: notPyWhitespaceChar},
  {weight: 1, arbitrary: fc.integer({min: 0x4e00, max: 0x9fff}).map((cp) => String.fromCodePoint(cp))},
  {weight: 1, arbitrary: fc.string({unit: 'binary', minLength: 1, maxLength: 1})},
)

/** Well-formed text (no lone surrogates) rich in astral characters, combining marks and odd whitespace. */
export function hardText(constraints: {minLength?: number; maxLength?: number} = {}) {
  return fc.array(hardChar, {minLength: constraints.minLength ?? 0, maxLength: constraints.maxLength ?? 30}).map((cs) => cs.join(''))
}

/** Any JS string, lone surrogates included (what a broken decoder or an API could hand over). */
export const anyJsString = fc.string({
  unit: fc.oneof(fc.string({unit: 'binary', minLength: 1, maxLength: 1}), fc.integer({min: 0, max: 0xffff}).map((u) => String.fromCharCode(u))),
  maxLength: 60,
})

/** Well-formed UTF-16: every surrogate is part of a pair (a cut that splits a pair leaves a lone half). */
export function isWellFormedUtf16(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1)
      if (!(d >= 0xdc00 && d <= 0xdfff)) return false
      i++
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      return false
    }
  }
  return true
}

/** Code points of a string (Python's characters), independent of the model's helpers. */
export function codePoints(s: string): string[] {
  return Array.from(s)
}

/** `s[:n]` in Python: the first n code points. */
export function pyPrefix(s: string, n: number): string {
  return codePoints(s).slice(0, Math.max(0, n)).join('')
}

/** Code-point order (Python's `sorted()` on str), written here independently of src/shared/code-point-order. */
export function byCodePoint(a: string, b: string): number {
  const ca = codePoints(a)
  const cb = codePoints(b)
  for (let i = 0; i < Math.min(ca.length, cb.length); i++) {
    const d = ca[i]!.codePointAt(0)! - cb[i]!.codePointAt(0)!
    if (d !== 0) return d
  }
  return ca.length - cb.length
}

/** `str.strip()` with the CPython whitespace set above. */
export function pyStripRef(s: string): string {
  const cps = codePoints(s)
  const ws = new Set(PY_WHITESPACE_CHARS)
  let i = 0
  let j = cps.length
  while (i < j && ws.has(cps[i]!)) i++
  while (j > i && ws.has(cps[j - 1]!)) j--
  return cps.slice(i, j).join('')
}
