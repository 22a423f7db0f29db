import {pyFloatRepr} from './format.js'

/**
 * Python `repr()` of JSON-like values (docs/guardkit-logic.md §3.9): the 0/N diagnostic dump prints lists and dicts
 * with it. Integers and floats are told apart by an explicit wrapper, because JSON loses the
 * difference (`80.0` parses as 80).
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
  if (value === null || value === undefined) return 'None'
  if (value === true) return 'True'
  if (value === false) return 'False'
  if (value instanceof PyFloat) return pyFloatRepr(value.value)
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : pyFloatRepr(value)
  if (typeof value === 'bigint') return value.toString()
  if (typeof value === 'string') return pyReprStr(value)
  if (Array.isArray(value)) return '[' + value.map(pyRepr).join(', ') + ']'
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
    return '{' + entries.map(([k, v]) => `${pyReprStr(k)}: ${pyRepr(v)}`).join(', ') + '}'
  }
  return String(value)
}

/**
 * `str(value)` / `f"{value}"` of a JSON-like value: strings as they are, everything else as
 * `repr` prints it (`None`, `True`, `[1, 'a']`).
 */
export function pyStr(value: unknown): string {
  return typeof value === 'string' ? value : pyRepr(value)
}
