/**
 * Redaction of a JSON file as JSON (docs/recording-format.md "Redaction"): each string is decoded
 * (escapes read: `\n`, `\t`, `\"`, `\u00e9`), redacted as the text it is — a value under a name
 * that says it is a secret (`"password"`, `"private_key"`) whole — and written back with only the
 * characters redaction changed re-encoded. Everything else of the file (spacing, key order, the
 * escapes redaction did not touch, bytes that are not UTF-8) stays as it was, and the file parses
 * exactly when it parsed before: a placeholder can never land inside an escape or outside a string.
 *
 * The text is the file read as latin1 (one char per byte), as `record` reads every file. A file that
 * is not valid JSON (cut short, damaged) is scanned all the same: its strings are redacted where
 * they can be told apart, and an unterminated last string runs to the end of the file. Pure.
 */

import type {RedactedText, RedactionHit, Redactor} from './redact.js'

/** A replacement in the JSON text, and where it is: the JSON pointer of the string that held it. */
export interface JsonRedactionHit extends RedactionHit {
  readonly pointer: string
}

export interface RedactedJson {
  readonly text: string
  readonly hits: readonly JsonRedactionHit[]
}

/** Learns the names every string of a JSON text holds (its keys too). */
export function learnJson(redactor: Redactor, text: string): void {
  scanStrings(text, (s) => {
    redactor.learn(s.decoded)
    return null
  })
}

/** The JSON text with every string redacted as a decoded string; hits are in the output's offsets. */
export function redactJson(redactor: Redactor, text: string): RedactedJson {
  const hits: JsonRedactionHit[] = []
  let out = ''
  let from = 0
  scanStrings(text, (s) => {
    const redacted: RedactedText = s.role === 'key' || s.name === null ? redactor.redact(s.decoded) : redactor.field(s.name, s.decoded)
    if (redacted.text === s.decoded) return null
    let raw = ''
    const startOf: number[] = []
    for (let i = 0; i < s.decoded.length; i++) {
      startOf.push(out.length + (s.contentStart - from) + raw.length)
      raw += redacted.text[i] === s.decoded[i] ? text.slice(s.rawStart[i]!, s.rawEnd[i]!) : encodeChar(redacted.text[i]!)
    }
    const base = out.length + (s.contentStart - from)
    for (const h of redacted.hits) {
      const start = startOf[h.start] ?? base + raw.length
      const end = h.end < startOf.length ? startOf[h.end]! : base + raw.length
      hits.push({kind: h.kind, start, end, pointer: s.pointer})
    }
    out += text.slice(from, s.contentStart) + raw
    from = s.contentEnd
    return null
  })
  return {text: out + text.slice(from), hits}
}

interface ScannedString {
  readonly decoded: string
  /** Raw offsets of each decoded UTF-16 unit: [rawStart[i], rawEnd[i]). */
  readonly rawStart: readonly number[]
  readonly rawEnd: readonly number[]
  /** Between the quotes. */
  readonly contentStart: number
  readonly contentEnd: number
  readonly role: 'key' | 'value'
  /** For a member's value: its name (decoded); null in an array or at the top. */
  readonly name: string | null
  readonly pointer: string
}

interface Frame {
  readonly kind: 'object' | 'array'
  index: number
  key: string | null
  expectKey: boolean
}

const ESCAPES: Readonly<Record<string, string>> = {'"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t'}

/** Walks the JSON text's strings in order, with what each is (a key or a value), its name and pointer. */
function scanStrings(text: string, visit: (s: ScannedString) => null): void {
  const stack: Frame[] = []
  let i = 0
  while (i < text.length) {
    const c = text[i]!
    if (c === '"') {
      const top = stack.at(-1)
      const role: 'key' | 'value' = top !== undefined && top.kind === 'object' && top.expectKey ? 'key' : 'value'
      const decoded = decodeString(text, i + 1)
      const pointer = pointerOf(stack, role === 'key' ? decoded.value : null)
      visit({decoded: decoded.value, rawStart: decoded.rawStart, rawEnd: decoded.rawEnd, contentStart: i + 1, contentEnd: decoded.end, role,
        name: role === 'value' && top?.kind === 'object' ? top.key : null, pointer})
      if (role === 'key') {
        top!.key = decoded.value
        top!.expectKey = false
      }
      i = decoded.end + 1
      continue
    }
    if (c === '{' || c === '[') stack.push({kind: c === '{' ? 'object' : 'array', index: 0, key: null, expectKey: c === '{'})
    else if (c === '}' || c === ']') stack.pop()
    else if (c === ',') {
      const top = stack.at(-1)
      if (top?.kind === 'object') {
        top.expectKey = true
        top.key = null
      } else if (top !== undefined) top.index++
    }
    i++
  }
}

/** The string starting at `start` (after its quote): decoded, with each unit's raw span; `end` is the closing quote (or the text's end). */
function decodeString(text: string, start: number): {value: string; rawStart: number[]; rawEnd: number[]; end: number} {
  let value = ''
  const rawStart: number[] = []
  const rawEnd: number[] = []
  let i = start
  while (i < text.length && text[i] !== '"') {
    const c = text[i]!
    let len = 1
    let unit = c
    if (c === '\\' && i + 1 < text.length) {
      const e = text[i + 1]!
      if (e === 'u' && /^[0-9A-Fa-f]{4}$/.test(text.slice(i + 2, i + 6))) {
        unit = String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16))
        len = 6
      } else if (ESCAPES[e] !== undefined) {
        unit = ESCAPES[e]
        len = 2
      } else {
        // not a JSON escape (the file is damaged): both characters as they are
        unit = c
        len = 1
      }
    }
    value += unit
    rawStart.push(i)
    rawEnd.push(i + len)
    i += len
  }
  return {value, rawStart, rawEnd, end: i}
}

function pointerOf(stack: readonly Frame[], key: string | null): string {
  let p = ''
  for (let k = 0; k < stack.length; k++) {
    const f = stack[k]!
    const last = k === stack.length - 1
    if (f.kind === 'array') p += `/${f.index}`
    else if (last && key !== null) p += `/${escapePointer(key)}`
    else if (f.key !== null) p += `/${escapePointer(f.key)}`
  }
  return p
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1')
}

/** A character redaction wrote (placeholders are ASCII letters and digits), as it may stand in a JSON string. */
function encodeChar(ch: string): string {
  if (ch === '"' || ch === '\\') return `\\${ch}`
  const c = ch.charCodeAt(0)
  return c < 0x20 || c > 0x7e ? `\\u${c.toString(16).padStart(4, '0')}` : ch
}
