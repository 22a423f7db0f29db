import {pyFloatRepr} from './format.js'

/**
 * Python keeps the type of a JSON number: `json.loads` makes `1.0`, `1e5` and `-0.0` floats (repr `1.0`,
 * `100000.0`, `-0.0`) and `12345678901234567890` an exact int. A JavaScript number cannot say either
 * (JSON.parse gives `1`, `100000`, `-0` and `12345678901234567000`), and a wrapper object would break
 * every `typeof x === 'number'` test and every schema. So values stay plain numbers and the numbers whose
 * JavaScript value misprints them are remembered beside their container: the JSON text's lexeme, per
 * container and key. `pyRepr`, `pyJsonDumps` and `pyTypeNameAt` read it; `clonePyJson` carries it over.
 *
 * Only two kinds are marked: floats with an integral value (every other float prints the same in both
 * languages) and ints outside ±2^53. The table is weak: it holds no container alive. It is module
 * state, but a pure function of the parsed text: the same text always gives the same marks.
 */
const LEXEMES = new WeakMap<object, Map<string, string>>()

/** Remember the lexeme of a number the parser put at `container[key]` (array indexes as strings). */
export function rememberNumberLexeme(container: object, key: string, lexeme: string): void {
  let keys = LEXEMES.get(container)
  if (keys === undefined) LEXEMES.set(container, (keys = new Map()))
  keys.set(key, lexeme)
}

/** A duplicate key's later value replaces the earlier one, and with it the earlier number's lexeme. */
export function forgetNumberLexeme(container: object, key: string): void {
  LEXEMES.get(container)?.delete(key)
}

/** True when a number parsed from this lexeme prints differently in JavaScript and Python. */
export function lexemeNeedsMark(lexeme: string, value: number): boolean {
  if (!Number.isFinite(value)) return isIntLexeme(lexeme) // 10**400 is an exact int in Python, Infinity in JS
  if (isIntLexeme(lexeme)) return !Number.isSafeInteger(value)
  return Number.isInteger(value)
}

function isIntLexeme(lexeme: string): boolean {
  return !/[.eE]/.test(lexeme)
}

/** The Python type and text of the number at `container[key]`, when the JSON text said more than the JS value. */
export function numberLexemeAt(container: unknown, key: string | number): {readonly type: 'int' | 'float'; readonly lexeme: string} | null {
  if (container === null || typeof container !== 'object') return null
  const lexeme = LEXEMES.get(container)?.get(String(key))
  if (lexeme === undefined) return null
  return {type: isIntLexeme(lexeme) ? 'int' : 'float', lexeme}
}

/**
 * `repr()` / `str()` of the number at `container[key]`: a float keeps its `.0` (`1.0`, `2.5e+16`), a
 * big int all its digits; any other number prints as Python prints the JS value (ints as ints).
 */
export function pyNumberRepr(value: number, container?: unknown, key?: string | number): string {
  const mark = key === undefined ? null : numberLexemeAt(container, key)
  if (mark?.type === 'int') return canonicalInt(mark.lexeme)
  if (mark?.type === 'float') return pyFloatRepr(value)
  return Number.isInteger(value) ? String(value) : pyFloatRepr(value)
}

/** `str(int(lexeme))` for a JSON int lexeme: no leading `+`, `-0` is `0`. */
function canonicalInt(lexeme: string): string {
  return lexeme === '-0' ? '0' : lexeme
}

/** `type(x).__name__` of the number at `container[key]`. */
export function pyNumberTypeName(value: number, container?: unknown, key?: string | number): 'int' | 'float' {
  const mark = key === undefined ? null : numberLexemeAt(container, key)
  if (mark) return mark.type
  return Number.isInteger(value) ? 'int' : 'float'
}

/**
 * A deep copy of a JSON value that keeps the number marks (structuredClone would drop them, and with
 * them every float's `.0`). Dicts keep their key order; `undefined` stays out, as in JSON.
 */
export function clonePyJson<T>(value: T): T {
  return copy(value) as T
}

function copy(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value
  const marks = LEXEMES.get(value)
  if (Array.isArray(value)) {
    const out = value.map(copy)
    if (marks) LEXEMES.set(out, new Map(marks))
    return out
  }
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined) continue
    Object.defineProperty(out, k, {value: copy(v), writable: true, enumerable: true, configurable: true})
  }
  if (marks) LEXEMES.set(out, new Map(marks))
  return out
}

/** Copy the mark of `from[fromKey]` to `to[toKey]` (a value moved from one dict to another). */
export function carryNumberMark(from: unknown, fromKey: string | number, to: object, toKey: string | number): void {
  const mark = numberLexemeAt(from, fromKey)
  if (mark) rememberNumberLexeme(to, String(toKey), mark.lexeme)
}
