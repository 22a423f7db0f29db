/** Small readers shared by the record grammars. None of them throws. */
import {keep} from '../build/keep.js'

/** `[2026-04-26T07:37:59.197Z] ` printed by the progress display from 2026-03 on. */
const TS_PREFIX = /^\[(\d{4}-\d\d-\d\dT[\d:.]+Z?)\] /

export function splitTimestamp(text: string): {ts: string | undefined; rest: string} {
  if (text.charCodeAt(0) !== 0x5b) return {ts: undefined, rest: text}
  const m = TS_PREFIX.exec(text)
  // the timestamp is kept (turn start and end): a copy, not a view of its line
  return m ? {ts: keep(m[1]!), rest: text.slice(m[0].length)} : {ts: undefined, rest: text}
}

export const TASK_ID = 'TASK-[A-Za-z0-9][A-Za-z0-9_.-]*?'

/** `…/autobuild/TASK-X/coach_turn_3.json` → {taskId, kind, turn}. */
const ARTIFACT_PATH = /\/autobuild\/(TASK-[^/\s]+)\/(coach|player)_turn_(\d+)\.json/

export function artifactOfPath(text: string): {taskId: string; kind: string; turn: number} | null {
  const m = ARTIFACT_PATH.exec(text)
  return m ? {taskId: m[1]!, kind: m[2]!, turn: Number(m[3])} : null
}

const TASK_DIR = /\/autobuild\/(TASK-[^/\s]+)\//

export function taskOfPath(text: string): string | undefined {
  return TASK_DIR.exec(text)?.[1]
}

export function toInt(s: string | undefined): number | null {
  if (s === undefined || s === '') return null
  const n = Number(s)
  return Number.isFinite(n) ? n : null
}

/**
 * `max_turns=15, stop_on_failure=True, reset_turns=[3, 5]` → a record of raw values. Commas
 * inside brackets and quotes stay in their value; a hard-wrapped record's newline is a space.
 */
export function parseParams(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  const flat = text.indexOf('\n') === -1 ? text : text.replace(/\n/g, ' ')
  let depth = 0
  let start = 0
  let eq = -1 // the next '=' at or after start (flat.length when there is none)
  // Jumps from one comma, quote or bracket to the next (a native search, cheaper than reading
  // every character of a sliced string in JS) and from an opening quote to its closing one.
  const mark = PARAM_MARK
  mark.lastIndex = 0
  while (mark.test(flat)) {
    const i = mark.lastIndex - 1
    const c = flat.charCodeAt(i)
    if (c === 0x27 /* ' */ || c === 0x22 /* " */) {
      const close = flat.indexOf(c === 0x27 ? '\'' : '"', i + 1)
      if (close === -1) break // an unclosed quote runs to the end: no comma after it splits
      mark.lastIndex = close + 1
    } else if (c === 0x5b /* [ */ || c === 0x28 /* ( */ || c === 0x7b /* { */) depth++
    else if (c === 0x5d /* ] */ || c === 0x29 /* ) */ || c === 0x7d /* } */) depth--
    else if (depth <= 0) {
      // a comma
      if (eq < start) eq = nextEq(flat, start)
      takeParam(out, flat, start, i, eq)
      start = i + 1
    }
  }
  if (eq < start) eq = nextEq(flat, start)
  takeParam(out, flat, start, flat.length, eq)
  return out
}

/** What parseParams stops at; global for `lastIndex`, which each call resets before its scan. */
const PARAM_MARK = /[,'"()[\]{}]/g

function nextEq(flat: string, from: number): number {
  const eq = flat.indexOf('=', from)
  return eq === -1 ? flat.length : eq
}

/**
 * The piece [start, end) of parseParams, trimmed as `/^\s+|\s+$/g` would: `key=value` when it
 * has an '=' (eq, the first one at or after start) after its first character.
 */
function takeParam(out: Record<string, string>, flat: string, start: number, end: number, eq: number): void {
  while (start < end && isSpace(flat.charCodeAt(start))) start++
  while (end > start && isSpace(flat.charCodeAt(end - 1))) end--
  if (eq > start && eq < end) out[flat.slice(start, eq)] = flat.slice(eq + 1, end)
}

/** `\s` of a regular expression (and what `trim` strips): WhiteSpace and LineTerminator. */
function isSpace(c: number): boolean {
  if (c < 0x80) return c === 0x20 || (c >= 0x09 && c <= 0x0d)
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f ||
    c === 0x205f || c === 0x3000 || c === 0xfeff
}

/** A Python `repr` of a list of str (`['a', "b's"]`) → the strings, or null when it is not one (e.g. cut). */
export function parsePyStrList(text: string): string[] | null {
  const s = text.trim()
  const n = s.length
  if (s.charCodeAt(0) !== 0x5b /* [ */ || s.charCodeAt(n - 1) !== 0x5d /* ] */) return null
  const out: string[] = []
  let i = 1
  for (;;) {
    while (s.charCodeAt(i) === 0x20) i++
    if (s.charCodeAt(i) === 0x5d /* ] */) return i === n - 1 ? out : null
    const quote = s.charCodeAt(i)
    if (quote !== 0x27 /* ' */ && quote !== 0x22 /* " */) return null
    i++
    // Whole runs between escapes are sliced, not built a character at a time (that would leave a
    // chain of one-character string pieces in memory for every criterion kept); the list of
    // runs is only made when there is an escape.
    let pieces: string[] | null = null
    let from = i
    for (;;) {
      if (i >= n) return null
      const c = s.charCodeAt(i)
      if (c === 0x5c /* \ */) {
        if (i + 1 >= n) return null
        const e = s.charCodeAt(i + 1)
        pieces ??= []
        pieces.push(s.slice(from, i), e === 0x6e ? '\n' : e === 0x74 ? '\t' : e === 0x72 ? '\r' : s.charAt(i + 1))
        i += 2
        from = i
        continue
      }
      if (c === quote) break
      i++
    }
    const last = s.slice(from, i)
    if (pieces === null) out.push(last)
    else {
      pieces.push(last)
      out.push(pieces.join(''))
    }
    i++
    while (s.charCodeAt(i) === 0x20) i++
    const sep = s.charCodeAt(i)
    if (sep === 0x2c /* , */) i++
    else if (sep !== 0x5d /* ] */) return null
  }
}

export function pyBool(s: string | undefined): boolean | null {
  if (s === 'True' || s === 'true') return true
  if (s === 'False' || s === 'false') return false
  return null
}
