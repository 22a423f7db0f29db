import {stripVTControlCharacters} from 'node:util'

/**
 * One physical line of a terminal capture, cut into what it holds: console text (spinners,
 * progress bars, Rich boxes) and Python logging records (`LEVEL:logger:message`). A record can
 * start anywhere on the line — after another task's spinner, after a progress bar — and two can
 * share a line, so the line is split at every `LEVEL:logger:` (docs/record-formats.md §5.1.3). Carriage
 * returns (progress redraws, CRLF) split the line into segments; ANSI escapes are removed.
 */
export type LinePart =
  | {readonly kind: 'console'; readonly text: string}
  | {readonly kind: 'record'; readonly level: string; readonly logger: string; readonly message: string}

interface RecordStart {
  index: number
  level: string
  logger: string
  bodyStart: number
}

/**
 * The next `LEVEL:logger:` at or after `from`, found by its colons (one scan of the line, no
 * regex: this runs on every line of logs of any size). Not after a letter: "0%INFO:…" and
 * "…5INFO:…" split, "XINFO:" does not. Logger names may hold hyphens and ids
 * (guardkit.tasks.state_bridge.TASK-DB-003).
 */
function findRecordStart(s: string, from: number, out: RecordStart): boolean {
  let c = s.indexOf(':', from)
  while (c !== -1) {
    const level = levelEndingAt(s, c, from)
    if (level !== null) {
      const start = c - level.length
      if (start === 0 || !isLetter(s.charCodeAt(start - 1))) {
        // the logger name and its colon, matched in place (a sticky regex: native code, no substring)
        LOGGER.lastIndex = c + 1
        if (LOGGER.test(s)) {
          const j = LOGGER.lastIndex
          out.index = start
          out.level = level
          out.logger = s.slice(c + 1, j - 1)
          out.bodyStart = j
          return true
        }
      }
    }
    c = s.indexOf(':', c + 1)
  }
  return false
}

/** The level name ending just before the colon at `c`, if any (its last letter decides which to try). */
function levelEndingAt(s: string, c: number, from: number): string | null {
  let level: string
  switch (s.charCodeAt(c - 1)) {
    case 0x4f: // O
      level = 'INFO'
      break
    case 0x52: // R
      level = 'ERROR'
      break
    case 0x47: // G
      level = s.charCodeAt(c - 2) === 0x4e ? 'WARNING' : 'DEBUG'
      break
    case 0x4c: // L
      level = 'CRITICAL'
      break
    default:
      return null
  }
  const start = c - level.length
  return start >= from && s.startsWith(level, start) ? level : null
}

function isLetter(ch: number): boolean {
  return (ch >= 0x41 && ch <= 0x5a) || (ch >= 0x61 && ch <= 0x7a)
}

/** A logger name (a letter or `_`, then letters, digits, `_ . -`) and the colon after it. */
const LOGGER = /[A-Za-z_][A-Za-z0-9_.-]*:/y

export function splitPhysicalLine(text: string): LinePart[] {
  const parts: LinePart[] = []
  scanPhysicalLine(text, {
    record: (level, logger, message) => parts.push({kind: 'record', level, logger, message}),
    console: (t) => parts.push({kind: 'console', text: t}),
  })
  return parts
}

export interface LineSink {
  record(level: string, logger: string, message: string): void
  console(text: string): void
}

/**
 * `splitPhysicalLine` without the allocations, for the ingest's hot loop. `plain`: the caller
 * knows the line holds no CR and no escape (it checked the bytes of the whole chunk at once).
 */
export function scanPhysicalLine(text: string, sink: LineSink, plain = false): void {
  if (plain) return scanSegment(text, sink)
  let t = text
  if (t.indexOf('\x1b') !== -1 || t.indexOf('\x9b') !== -1) t = stripVTControlCharacters(t)
  if (t.indexOf('\r') === -1) return scanSegment(t, sink)
  let any = false
  for (const segment of t.split('\r')) {
    if (segment === '') continue
    any = true
    scanSegment(segment, sink)
  }
  if (!any) sink.console('')
}

const found: RecordStart = {index: 0, level: '', logger: '', bodyStart: 0}
const next: RecordStart = {index: 0, level: '', logger: '', bodyStart: 0}

function scanSegment(segment: string, sink: LineSink): void {
  if (!findRecordStart(segment, 0, found)) return sink.console(segment)
  if (found.index > 0) sink.console(segment.slice(0, found.index))
  for (;;) {
    const {level, logger, bodyStart} = found
    if (!findRecordStart(segment, bodyStart, next)) return sink.record(level, logger, segment.slice(bodyStart))
    sink.record(level, logger, segment.slice(bodyStart, next.index))
    found.index = next.index
    found.level = next.level
    found.logger = next.logger
    found.bodyStart = next.bodyStart
  }
}
