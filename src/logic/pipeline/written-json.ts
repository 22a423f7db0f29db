import {pyFloatRepr} from '../python/format.js'

/**
 * The bytes of a JSON file GuardKit writes (docs/guardkit-logic.md §3.12): `json.dump(value, f, indent=2)` with the
 * defaults, i.e. `ensure_ascii=True` (every character outside U+0020..U+007E escaped, astral ones
 * as surrogate pairs), `", "`/`": "` separators turned into `","` + newline and `": "` by the
 * indent, insertion key order, no trailing newline. JSON numbers cannot say whether Python held an
 * int or a float, so integral values print as ints (`80`, where a Python float prints `80.0`).
 */
export function pyJsonDump(value: unknown, indent = 2): string {
  return dump(value, indent, 0)
}

function dump(value: unknown, indent: number, depth: number): string {
  if (value === null || value === undefined) return 'null'
  if (value === true) return 'true'
  if (value === false) return 'false'
  if (typeof value === 'number') return dumpNumber(value)
  if (typeof value === 'string') return dumpString(value)
  const pad = '\n' + ' '.repeat(indent * (depth + 1))
  const close = '\n' + ' '.repeat(indent * depth)
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]'
    return '[' + value.map((v) => pad + dump(v, indent, depth + 1)).join(',') + close + ']'
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined)
  if (entries.length === 0) return '{}'
  return '{' + entries.map(([k, v]) => pad + dumpString(k) + ': ' + dump(v, indent, depth + 1)).join(',') + close + '}'
}

function dumpNumber(x: number): string {
  if (Number.isNaN(x)) return 'NaN'
  if (x === Infinity) return 'Infinity'
  if (x === -Infinity) return '-Infinity'
  return Number.isInteger(x) ? String(x) : pyFloatRepr(x)
}

const SHORT: Readonly<Record<string, string>> = {'"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f'}

/** `json.encoder.py_encode_basestring_ascii`. */
function dumpString(s: string): string {
  let out = '"'
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!
    const code = s.charCodeAt(i)
    const short = SHORT[ch]
    if (short) out += short
    else if (code >= 0x20 && code <= 0x7e) out += ch
    // UTF-16 code units are exactly the surrogate pairs Python writes for astral characters.
    else out += '\\u' + code.toString(16).padStart(4, '0')
  }
  return out + '"'
}
