import {pyNumberTypeName} from './json-numbers.js'
import {pyReprStr} from './repr.js'
import {isPySpace, pyLen} from './strings.js'

/**
 * Python built-ins the requirements and mode logic depends on (docs/guardkit-logic.md §3.7, §3.13, §7.5): `str()`,
 * `int()`, `str.isdigit()`, `len()`, iteration, and the exceptions they raise. JSON values stand in
 * for Python objects (object = dict, array = list, null = None).
 */

/** A Python exception GuardKit would raise, as `Type: message` (the oracle's `{"exception": …}`). */
export class PyException extends Error {
  constructor(
    readonly pyType: string,
    readonly pyMessage: string,
  ) {
    super(`${pyType}: ${pyMessage}`)
    this.name = 'PyException'
  }

  /** The oracle's rendering: `ValueError: invalid literal …`. */
  get text(): string {
    return `${this.pyType}: ${this.pyMessage}`
  }
}

/**
 * `type(x).__name__` of a JSON value. A float with an integral value reads as `int` here; where the
 * value was read out of a parsed dict or list, `pyTypeNameAt` knows better.
 */
export function pyTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType'
  if (typeof value === 'boolean') return 'bool'
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float'
  if (typeof value === 'string') return 'str'
  if (Array.isArray(value)) return 'list'
  if (value instanceof Date) return 'datetime'
  return 'dict'
}

/** `type(container[key]).__name__`: a JSON `1.0` is a float (json-numbers.ts). */
export function pyTypeNameAt(container: unknown, key: string | number): string {
  const value = container !== null && typeof container === 'object' ? (container as Record<string, unknown>)[key] : undefined
  return typeof value === 'number' ? pyNumberTypeName(value, container, key) : pyTypeName(value)
}

/** `str(x)` (defined with repr; re-exported here for callers of the other built-ins). */
export {pyStr} from './repr.js'

// Numeric_Type=Digit code points (str.isdigit() true, str.isdecimal() false), from CPython 3.11.
const DIGIT_NOT_DECIMAL: readonly (readonly [number, number])[] = [
  [0xb2, 0xb3], [0xb9, 0xb9], [0x1369, 0x1371], [0x19da, 0x19da], [0x2070, 0x2070], [0x2074, 0x2079],
  [0x2080, 0x2089], [0x2460, 0x2468], [0x2474, 0x247c], [0x2488, 0x2490], [0x24ea, 0x24ea], [0x24f5, 0x24fd],
  [0x24ff, 0x24ff], [0x2776, 0x277e], [0x2780, 0x2788], [0x278a, 0x2792], [0x10a40, 0x10a43], [0x10e60, 0x10e68],
  [0x11052, 0x1105a], [0x1f100, 0x1f10a],
]

const DECIMAL = /^\p{Nd}$/u

/** `ch.isdigit()` for one code point: Numeric_Type Decimal or Digit (`²`, `①`, `１`; not `½`). */
export function pyIsDigit(ch: string): boolean {
  if (DECIMAL.test(ch)) return true
  const cp = ch.codePointAt(0)
  if (cp === undefined) return false
  return DIGIT_NOT_DECIMAL.some(([lo, hi]) => cp >= lo && cp <= hi)
}

/** The value of a decimal digit: Unicode lays every Nd set out as a contiguous 0..9 run. */
function decimalValue(ch: string): number {
  let cp = ch.codePointAt(0)!
  let offset = 0
  while (DECIMAL.test(String.fromCodePoint(cp - 1))) {
    cp--
    offset++
  }
  return offset % 10
}

/**
 * `int(x)`: strings accept surrounding Python whitespace, a sign, Unicode decimal digits and single
 * underscores between digits; floats truncate; bools are 0/1. Raises like CPython otherwise.
 */
export function pyInt(value: unknown): number {
  if (typeof value === 'boolean') return value ? 1 : 0
  if (typeof value === 'number') {
    if (Number.isNaN(value)) throw new PyException('ValueError', 'cannot convert float NaN to integer')
    if (!Number.isFinite(value)) throw new PyException('OverflowError', 'cannot convert float infinity to integer')
    return Math.trunc(value)
  }
  if (typeof value === 'string') return parseIntLiteral(value)
  const name = value === null || value === undefined ? 'NoneType' : pyTypeName(value)
  throw new PyException('TypeError', `int() argument must be a string, a bytes-like object or a real number, not '${name}'`)
}

function parseIntLiteral(s: string): number {
  const invalid = () => new PyException('ValueError', `invalid literal for int() with base 10: ${pyReprStr(s)}`)
  const cps = Array.from(s)
  let i = 0
  let j = cps.length
  while (i < j && isPySpace(cps[i]!)) i++
  while (j > i && isPySpace(cps[j - 1]!)) j--
  let sign = 1
  if (i < j && (cps[i] === '+' || cps[i] === '-')) {
    if (cps[i] === '-') sign = -1
    i++
  }
  if (i >= j) throw invalid()
  let n = 0
  let lastWasDigit = false
  for (let k = i; k < j; k++) {
    const ch = cps[k]!
    if (ch === '_') {
      if (!lastWasDigit || k === j - 1) throw invalid()
      lastWasDigit = false
      continue
    }
    if (!DECIMAL.test(ch)) throw invalid()
    n = n * 10 + decimalValue(ch)
    lastWasDigit = true
  }
  return sign * n + 0
}

/** `list(x)` as a `for` loop sees it: lists, strings by code point, dicts by key; else TypeError. */
export function pyIterate(value: unknown): unknown[] {
  if (Array.isArray(value)) return value
  if (typeof value === 'string') return Array.from(value)
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) return Object.keys(value)
  throw new PyException('TypeError', `'${pyTypeName(value)}' object is not iterable`)
}

/** `len(x)`: code points for strings, items for lists, keys for dicts; else TypeError. */
export function pyLenOf(value: unknown): number {
  if (typeof value === 'string') return pyLen(value)
  if (Array.isArray(value)) return value.length
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) return Object.keys(value).length
  throw new PyException('TypeError', `object of type '${pyTypeName(value)}' has no len()`)
}

/** `x.get(key, default)` on a value that must be a dict: AttributeError otherwise. */
export function pyDictGet(value: unknown, key: string, fallback: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof Date) {
    throw new PyException('AttributeError', `'${pyTypeName(value)}' object has no attribute 'get'`)
  }
  return Object.prototype.hasOwnProperty.call(value, key) ? (value as Record<string, unknown>)[key] : fallback
}

/** True when a value is a JSON object (a Python dict). */
export function isPyDict(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date)
}

/** A method call on a value that must be a str, e.g. `x.strip()`: AttributeError otherwise. */
export function requirePyStr(value: unknown, method: string): string {
  if (typeof value === 'string') return value
  throw new PyException('AttributeError', `'${pyTypeName(value)}' object has no attribute '${method}'`)
}
