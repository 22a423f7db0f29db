import type {LogicFlags} from '../changes.js'
import {pyLen, pyLower, pySlice, pyStrip} from '../python/strings.js'

const RESULT_KEYWORDS = ['passed', 'failed', 'error', 'skipped', 'success', 'failure', 'ok', 'tests']

/** Case-sensitive substrings that mark the first error line (fixed, D22, docs/guardkit-logic.md §6.6). */
const ERROR_PATTERNS = [
  'Error:', 'ERRORS', 'ImportError', 'ModuleNotFoundError', 'ConnectionRefusedError', 'OperationalError',
  'E   ', 'FileNotFoundError', 'ConnectionError', 'TypeError', 'ValueError', 'AttributeError', 'KeyError',
]

/** The default `max_length` of the version. */
export function defaultSummaryLength(flags: LogicFlags): number {
  // summaryErrorContext (D22): the default grew from 500 to 1000.
  return flags.summaryErrorContext ? 1000 : 500
}

/**
 * `CoachValidator._summarize_test_output(output, max_length)` (docs/guardkit-logic.md §6.6). Legacy keeps the last
 * ≤3 keyword lines of the last 20; fixed prefixes an `Error detail:` block (the raw lines around the
 * first error line) and keeps up to 5 keyword lines under `Result:`. Keywords are substrings of the
 * lower-cased line, so `token` and `book` match `ok`. Only `\n` splits lines.
 */
export function summarizeTestOutput(output: string, flags: LogicFlags, maxLength = defaultSummaryLength(flags)): string {
  const lines = pyStrip(output).split('\n')
  // summaryErrorContext (D22): error context and five result lines instead of three.
  const keep = flags.summaryErrorContext ? 5 : 3
  const summaryLines = keywordLines(lines, keep)
  let summary: string
  if (!flags.summaryErrorContext) {
    summary = summaryLines.length > 0 ? summaryLines.join('\n') : lines.slice(-3).join('\n')
  } else {
    const parts: string[] = []
    const context = errorContext(lines)
    if (context) parts.push('Error detail:\n' + context.join('\n'))
    if (summaryLines.length > 0) parts.push('Result:\n' + summaryLines.join('\n'))
    if (parts.length === 0) parts.push(lines.slice(-3).join('\n'))
    summary = parts.join('\n')
  }
  if (pyLen(summary) > maxLength) summary = pySlice(summary, 0, maxLength - 3) + '...'
  return summary
}

/** Scanning the last 20 lines backwards, the keyword lines (stripped), in their original order. */
function keywordLines(lines: readonly string[], keep: number): string[] {
  const out: string[] = []
  const tail = lines.slice(-20)
  for (let i = tail.length - 1; i >= 0; i--) {
    const line = tail[i]!
    const lower = pyLower(line)
    if (RESULT_KEYWORDS.some((k) => lower.includes(k))) {
      out.unshift(pyStrip(line))
      if (out.length >= keep) break
    }
  }
  return out
}

/** Lines `[i-1, i+4)` around the first error line, raw (not stripped, blanks kept). */
function errorContext(lines: readonly string[]): string[] | null {
  const i = lines.findIndex((line) => ERROR_PATTERNS.some((p) => line.includes(p)))
  if (i < 0) return null
  return lines.slice(Math.max(0, i - 1), Math.min(lines.length, i + 4))
}
