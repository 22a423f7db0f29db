import {PY_WHITESPACE} from './strings.js'

/**
 * Python `re` patterns on `str`, translated to JS (docs/guardkit-logic.md §3.6). In Python `\d` is any Unicode
 * decimal digit, `\w` Unicode letters, digits and underscore, `\s` Python whitespace, and `.`
 * excludes only `\n` (JS's `.` also excludes `\r`, U+2028, U+2029). The translation is done once,
 * where the pattern is declared.
 */

const WS_CLASS = escapeForClass(PY_WHITESPACE)
const W_CLASS = '\\p{L}\\p{N}_'
const D_CLASS = '\\p{Nd}'

function escapeForClass(chars: string): string {
  return Array.from(chars)
    .map((c) => '\\u{' + c.codePointAt(0)!.toString(16) + '}')
    .join('')
}

/** Translate a Python regex source to a JS source usable with the `u` flag. */
export function translatePyRegex(source: string): string {
  let out = ''
  let inClass = false
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!
    if (ch === '\\') {
      const next = source[i + 1]
      i++
      if (next === undefined) {
        out += '\\\\'
        continue
      }
      const cls = classFor(next)
      if (cls) {
        if (inClass) {
          if (cls.negated) throw new Error(`negated class \\${next} inside [] is not supported: ${source}`)
          out += cls.body
        } else out += cls.negated ? `[^${cls.body}]` : `[${cls.body}]`
        continue
      }
      if (next === 'Z') {
        out += '$(?![\\s\\S])'
        continue
      }
      if (next === 'A') {
        out += '^'
        continue
      }
      // In `u` mode JS rejects identity escapes of ordinary characters that Python accepts.
      if (/[A-Za-z0-9]/.test(next) || '\\^$.|?*+()[]{}/-'.includes(next)) out += '\\' + next
      else out += next
      continue
    }
    if (inClass) {
      if (ch === ']' && !(out.endsWith('[') || out.endsWith('[^'))) inClass = false
      out += ch
      continue
    }
    if (ch === '[') {
      inClass = true
      out += ch
      if (source[i + 1] === '^') {
        out += '^'
        i++
      }
      if (source[i + 1] === ']') {
        out += '\\]'
        i++
      }
      continue
    }
    if (ch === '.') {
      out += '[^\\n]'
      continue
    }
    if (ch === '(' && source[i + 1] === '?' && source[i + 2] === 'P' && source[i + 3] === '<') {
      out += '(?<'
      i += 3
      continue
    }
    out += ch
  }
  return out
}

function classFor(letter: string): {body: string; negated: boolean} | null {
  switch (letter) {
    case 'd':
      return {body: D_CLASS, negated: false}
    case 'D':
      return {body: D_CLASS, negated: true}
    case 'w':
      return {body: W_CLASS, negated: false}
    case 'W':
      return {body: W_CLASS, negated: true}
    case 's':
      return {body: WS_CLASS, negated: false}
    case 'S':
      return {body: WS_CLASS, negated: true}
    default:
      return null
  }
}

/**
 * A compiled Python pattern. `flags` are JS flags; `u` is always added. Python's re.IGNORECASE
 * maps to `i`, re.MULTILINE to `m`, re.DOTALL to `s`.
 */
export function pyRegex(source: string, flags = ''): RegExp {
  return new RegExp(translatePyRegex(source), flags.includes('u') ? flags : flags + 'u')
}

/** `re.findall(pattern, s)` for patterns with zero or one group. */
export function pyFindall(re: RegExp, s: string): string[] {
  const global = re.global ? re : new RegExp(re.source, re.flags + 'g')
  const out: string[] = []
  for (const m of s.matchAll(global)) out.push(m.length > 1 ? (m[1] ?? '') : m[0])
  return out
}

/** `re.sub(pattern, repl, s)` where repl uses Python's `\1` group references. */
export function pySub(re: RegExp, repl: string, s: string): string {
  const global = re.global ? re : new RegExp(re.source, re.flags + 'g')
  const jsRepl = repl.replace(/\$/g, '$$$$').replace(/\\(\d+)/g, '$$$1').replace(/\\g<(\d+)>/g, '$$$1')
  return s.replace(global, jsRepl)
}
