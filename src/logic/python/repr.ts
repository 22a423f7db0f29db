import {pyFloatRepr} from './format.js'
import {pyNumberRepr} from './json-numbers.js'

/**
 * Python `repr()` of JSON-like values (docs/guardkit-logic.md §3.9): the 0/N diagnostic dump prints lists and dicts
 * with it. Integers and floats are told apart by the number's JSON lexeme when it was parsed by
 * `pyJsonLoads` (json-numbers.ts: `80.0` stays a float inside its dict or list), or by an explicit
 * wrapper for values the model computes.
 */
export class PyFloat {
  constructor(readonly value: number) {}
}

const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u

export function pyReprStr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'"
  let out = quote
  for (const ch of s) {
    const cp = ch.codePointAt(0)!
    if (ch === '\\') out += '\\\\'
    else if (ch === quote) out += '\\' + quote
    else if (ch === '\n') out += '\\n'
    else if (ch === '\r') out += '\\r'
    else if (ch === '\t') out += '\\t'
    else if (ch !== ' ' && NON_PRINTABLE.test(ch)) {
      if (cp < 0x100) out += '\\x' + cp.toString(16).padStart(2, '0')
      else if (cp < 0x10000) out += '\\u' + cp.toString(16).padStart(4, '0')
      else out += '\\U' + cp.toString(16).padStart(8, '0')
    } else out += ch
  }
  return out + quote
}

export function pyRepr(value: unknown): string {
  return reprIn(value, undefined, undefined)
}

/** `repr(container[key])`: a number keeps the Python type its JSON text gave it (`1.0`, not `1`). */
export function pyReprAt(container: unknown, key: string | number): string {
  return reprIn(itemOf(container, key), container, key)
}

function reprIn(value: unknown, container: unknown, key: string | number | undefined): string {
  if (value === null || value === undefined) return 'None'
  if (value === true) return 'True'
  if (value === false) return 'False'
  if (value instanceof PyFloat) return pyFloatRepr(value.value)
  if (typeof value === 'number') return pyNumberRepr(value, container, key)
  if (typeof value === 'bigint') return value.toString()
  if (typeof value === 'string') return pyReprStr(value)
  if (Array.isArray(value)) return '[' + value.map((v, i) => reprIn(v, value, i)).join(', ') + ']'
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
    return '{' + entries.map(([k, v]) => `${pyReprStr(k)}: ${reprIn(v, value, k)}`).join(', ') + '}'
  }
  return String(value)
}

function itemOf(container: unknown, key: string | number): unknown {
  return container !== null && typeof container === 'object' ? (container as Record<string, unknown>)[key] : undefined
}

/**
 * `str(value)` / `f"{value}"` / `'%s' % value` of a JSON-like value: strings as they are, everything
 * else as `repr` prints it (`None`, `True`, `1.0`, `[1, 'a']`, `{'a': None}`).
 */
export function pyStr(value: unknown): string {
  return typeof value === 'string' ? value : pyRepr(value)
}

/** `str(container[key])`, with the number's Python type (`f"{d['x']}"` of a JSON `1.0` is `1.0`). */
export function pyStrAt(container: unknown, key: string | number): string {
  const value = itemOf(container, key)
  return typeof value === 'string' ? value : reprIn(value, container, key)
}

/** `str(d.get(key, fallback))` on a parsed dict: the item with its Python type when present, else the fallback. */
export function pyStrGet(d: Readonly<Record<string, unknown>>, key: string, fallback: unknown): string {
  return Object.prototype.hasOwnProperty.call(d, key) ? pyStrAt(d, key) : pyStr(fallback)
}
