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
  let depth = 0
  let quote = ''
  let start = 0
  const flat = text.replace(/\n/g, ' ')
  const take = (end: number) => {
    const piece = flat.slice(start, end).replace(/^\s+|\s+$/g, '')
    const eq = piece.indexOf('=')
    if (eq > 0) out[piece.slice(0, eq)] = piece.slice(eq + 1)
  }
  for (let i = 0; i < flat.length; i++) {
    const c = flat[i]!
    if (quote !== '') {
      if (c === quote) quote = ''
    } else if (c === '\'' || c === '"') quote = c
    else if (c === '[' || c === '(' || c === '{') depth++
    else if (c === ']' || c === ')' || c === '}') depth--
    else if (c === ',' && depth <= 0) {
      take(i)
      start = i + 1
    }
  }
  take(flat.length)
  return out
}

/** A Python `repr` of a list of str (`['a', "b's"]`) → the strings, or null when it is not one (e.g. cut). */
export function parsePyStrList(text: string): string[] | null {
  const s = text.replace(/^\s+|\s+$/g, '')
  if (!s.startsWith('[') || !s.endsWith(']')) return null
  const out: string[] = []
  let i = 1
  for (;;) {
    while (s[i] === ' ') i++
    if (s[i] === ']') return i === s.length - 1 ? out : null
    const quote = s[i]
    if (quote !== '\'' && quote !== '"') return null
    i++
    // Whole runs between escapes are sliced, not built a character at a time (that would leave a
    // chain of one-character string pieces in memory for every criterion kept).
    const pieces: string[] = []
    let from = i
    for (;;) {
      if (i >= s.length) return null
      const c = s[i]!
      if (c === '\\') {
        const n = s[i + 1]
        if (n === undefined) return null
        pieces.push(s.slice(from, i), n === 'n' ? '\n' : n === 't' ? '\t' : n === 'r' ? '\r' : n)
        i += 2
        from = i
        continue
      }
      if (c === quote) break
      i++
    }
    pieces.push(s.slice(from, i))
    out.push(pieces.length === 1 ? pieces[0]! : pieces.join(''))
    i++
    while (s[i] === ' ') i++
    if (s[i] === ',') i++
    else if (s[i] !== ']') return null
  }
}

export function pyBool(s: string | undefined): boolean | null {
  if (s === 'True' || s === 'true') return true
  if (s === 'False' || s === 'false') return false
  return null
}
