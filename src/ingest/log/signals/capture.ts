import {pyHead} from '../../../logic/python/strings.js'
import {CONSOLE_LOGGER} from '../../../model/signal.js'
import {keep} from '../build/keep.js'
import type {ParsedEvent} from '../events.js'

/**
 * Which records and console lines are signals (docs/ingest.md, "Signals"), and the one line each
 * keeps. Pure and cheap: it runs on every record the log holds, so the INFO test looks at the
 * message's first 300 characters with one native regex, and everything else at a character or two.
 */
export interface SignalText {
  readonly source: 'record' | 'console'
  readonly level: string | null
  readonly logger: string
  /** The whole message on one line, cut. */
  readonly text: string
  /** The line to quote (the message's first line, or the console line that holds the error), cut. */
  readonly quote: string
  /** Lines after the item's first line where `quote` was read (0: the first line). */
  readonly lineOffset: number
}

/** A signal keeps this much text: enough for any rule's pattern and a quote, never a whole dump. */
export const SIGNAL_TEXT_MAX = 400
const QUOTE_MAX = 300
/** An INFO record is read this far to see whether it names a failure. */
const INFO_SCAN = 300

/**
 * INFO records that name a failure (GuardKit logs many of them at INFO: `Attempting state recovery
 * … after Player failure: …`, `Coach rejected … zero-test anomaly`, `No task-specific tests found`,
 * an SDK's `HTTP/1.1 502`, `ALL_PASSED=False`, `Timeout budget exhausted`), and a few INFO records
 * that say which path a turn took when it goes wrong (the report rebuilt from task_work_results, the
 * agent's promises recovered into it, the direct-mode report GuardKit wrote, the SDK turn limit a Player session was given, the Coach's test
 * command, an SDK session that completed, the gate profile chosen).
 */
const INFO_FAILURE =
  /(?<!\w)fail(?:ed|ure|s)?\b(?!=)|\berror\b|exception|timed out|exceeded|exhausted|rejected|not found|no task-specific tests|cancell?(?:ed|ation)|aborted|denied|\binvalid\b|unable to|cannot|refused|unavailable|crash|interrupt|did not (?:write|produce)|no work detected|ALL_PASSED=False|\w=(?:False|None) \(required=True\)|HTTP\/\d(?:\.\d)? [45]\d\d|^Created Player report from|^Recovered [1-9]\d* completion_promises|^Wrote direct mode player report|^(?:\[[^\]]+\] )?Max turns: \d+\s*$|^Running independent tests|^(?:\[[^\]]+\] )?SDK completed|^Using quality gate profile|^Criteria Progress \(Turn \d+\): 0\//i
/** INFO shapes that carry a decision already kept on the turn (progress lines, feedback), not trouble of their own. */
const INFO_ROUTINE =
  /^(?:\[[^\]]+\] )?(?:Started turn|Completed turn \d+: (?:feedback|success)|Coach provided feedback|Criteria|Requirements not met|\s*AC-\d|Summary rendered|Final summary|Worktree preserved|Orchestration complete|Feature orchestration complete|Wrote failure results|Phase \d)/

/** `Criteria Progress (Turn N): 0/M verified`: a turn on which the Coach verified nothing is trouble, other progress lines are not. */
const ZERO_VERIFIED = /^Criteria Progress \(Turn \d+\): 0\//

/** A logging record → its signal, or null when it is not one. */
export function recordSignal(level: string, logger: string, message: string): SignalText | null {
  if (level === 'INFO' || level === 'DEBUG') {
    if (level === 'DEBUG') return null
    const head = message.length > INFO_SCAN ? message.slice(0, INFO_SCAN) : message
    if (!INFO_FAILURE.test(head) || (INFO_ROUTINE.test(head) && !ZERO_VERIFIED.test(head))) return null
  } else if (isSpace(message.charCodeAt(0))) {
    // an indented WARNING continues the block its header opened (the 0/N dump's `  AC text:` lines)
    return null
  }
  return {source: 'record', level, logger, text: oneLine(message, SIGNAL_TEXT_MAX), quote: firstLine(message, QUOTE_MAX), lineOffset: 0}
}

/**
 * A finished console item → its signal: a Player or Coach failure (with its `Error:` line), a
 * traceback's exception line, a task timed out by the feature, `^C`.
 */
export function consoleSignal(event: ParsedEvent, first: string, more: readonly string[] | null): SignalText | null {
  switch (event.kind) {
    case 'c-player':
    case 'c-coach': {
      if (event.kind === 'c-player' ? event.status !== 'error' : event.decision !== 'error') return null
      const lines = [first, ...(more ?? [])]
      // `✗ Coach failed` alone, then `   Error: …` on the next line: quote the line that says what failed
      const at = lines.findIndex((l, i) => i === 0 ? /failed:\s*\S/.test(l) : /^\s*(?:Error|Reason):\s*\S/.test(l))
      const offset = at === -1 ? 0 : at
      return console(event.text, lines[offset]!, offset)
    }
    case 'c-traceback': {
      const lines = event.lines
      for (let i = lines.length - 1; i > 0; i--) {
        const l = lines[i]!.trim()
        if (/^[A-Za-z_][\w.]*(?:Error|Exception|Interrupt|Exit|Warning|Timeout)\b/.test(l)) return console(l, l, i)
      }
      return null
    }
    case 'c-task-timeout':
      return console(`${event.taskId}: ${event.text}`, first, 0)
    case 'c-other':
      if (/^\s*\^C/.test(first)) return console('^C', first, 0)
      // a Rich status line that is not a Feedback or a task result: `⚠ Player report missing …`, `✗ …`
      return event.name === 'status' && /^\s*[✗⚠] /.test(first) ? console(first.trim().replace(/^[✗⚠] (?:\[[^\]]+\] )?/, ''), first, 0) : null
    default:
      return null
  }
}

/** Console text that starts nothing and still says the run was stopped (click's `Aborted!`, a bare `KeyboardInterrupt`). */
export function interruptLine(text: string): SignalText | null {
  const c = text.charCodeAt(0)
  if (c !== 0x41 /* A */ && c !== 0x4b /* K */) return null
  return /^(?:Aborted!|KeyboardInterrupt)\s*$/.test(text) ? console(text.trim(), text, 0) : null
}

function console(text: string, quote: string, lineOffset: number): SignalText {
  return {source: 'console', level: null, logger: CONSOLE_LOGGER, text: oneLine(text, SIGNAL_TEXT_MAX), quote: firstLine(withoutChrome(quote), QUOTE_MAX), lineOffset}
}

/** A status line's glyph and timestamp are the display's, not what was said: `✗ [ts] Player failed: …` → `Player failed: …`. */
function withoutChrome(line: string): string {
  return line.trim().replace(/^[✗⚠✓⏱] /, '').replace(/^\[\d{4}-\d\d-\d\dT[\d:.]+Z?\] /, '')
}

/** The text on one line (line breaks and runs of blanks become one space), cut at `max` code points. */
export function oneLine(text: string, max: number): string {
  const head = text.length > max * 2 ? text.slice(0, max * 2) : text
  // most messages are one line: the replacement has nothing to do there, and was half this function's time
  return keep(pyHead((head.indexOf('\n') === -1 ? head : head.replace(/\s*\n\s*/g, ' ')).trim(), max))
}

/** The first line, cut at `max` code points; a cut line ends in ` …` so that a quote of it is not read as the whole line. */
function firstLine(text: string, max: number): string {
  const nl = text.indexOf('\n')
  const line = (nl === -1 ? text : text.slice(0, nl)).trim()
  const head = pyHead(line.length > max * 2 ? line.slice(0, max * 2) : line, max)
  return keep(head.length < line.length ? `${head.trimEnd()} …` : head)
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09
}
