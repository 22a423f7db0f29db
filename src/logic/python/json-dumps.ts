import {pyNumberRepr} from './json-numbers.js'

/**
 * `json.dumps(value)` / `json.dump(value, f, indent=N)` with the defaults GuardKit uses (docs/guardkit-logic.md §3.12):
 * `ensure_ascii=True` (every character outside U+0020..U+007E escaped, astral ones as surrogate
 * pairs), `", "`/`": "` separators (`","` + newline with an indent), insertion key order, no trailing
 * newline, NaN and Infinity as bare words. A number prints with its Python type: a float read from JSON
 * as `1.0` is written back as `1.0` (json-numbers.ts); a number the model computed prints as an int when
 * it is integral, so a float the model makes itself must not be integral-valued where that matters.
 */
export function pyJsonDumps(value: unknown, indent: number | null = null): string {
  return dump(value, indent, 0, undefined, undefined)
}

function dump(value: unknown, indent: number | null, depth: number, container: unknown, key: string | number | undefined): string {
  if (value === null || value === undefined) return 'null'
  if (value === true) return 'true'
  if (value === false) return 'false'
  if (typeof value === 'number') return dumpNumber(value, container, key)
  if (typeof value === 'string') return dumpString(value)
  const pad = indent === null ? '' : '\n' + ' '.repeat(indent * (depth + 1))
  const close = indent === null ? '' : '\n' + ' '.repeat(indent * depth)
  const sep = indent === null ? ', ' : ','
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]'
    return '[' + value.map((v, i) => pad + dump(v, indent, depth + 1, value, i)).join(sep) + close + ']'
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined)
  if (entries.length === 0) return '{}'
  return '{' + entries.map(([k, v]) => pad + dumpString(k) + ': ' + dump(v, indent, depth + 1, value, k)).join(sep) + close + '}'
}

function dumpNumber(x: number, container: unknown, key: string | number | undefined): string {
  if (Number.isNaN(x)) return 'NaN'
  if (x === Infinity) return 'Infinity'
  if (x === -Infinity) return '-Infinity'
  return pyNumberRepr(x, container, key)
}

/** `json.encoder.py_encode_basestring_ascii`. */
function dumpString(s: string): string {
  // `JSON.stringify` escapes what Python escapes below U+007F, the same way (`\"`, `\\`, `\n`, `\u001b`, lower-case hex),
  // and a lone surrogate as `\udXXX`; what it leaves as it is from U+007F up Python writes as `\uXXXX`, code unit by
  // code unit (UTF-16 code units are exactly the surrogate pairs Python writes for astral characters)
  const json = JSON.stringify(s)
  return NOT_ASCII.test(json) ? json.replace(NOT_ASCII_ALL, escapeUnit) : json
}

const NOT_ASCII = /[\u007f-\uffff]/
const NOT_ASCII_ALL = /[\u007f-\uffff]/g

function escapeUnit(unit: string): string {
  return '\\u' + unit.charCodeAt(0).toString(16).padStart(4, '0')
}
