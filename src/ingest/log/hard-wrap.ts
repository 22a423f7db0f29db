/**
 * Hard-wrapped records in transcripts (docs/ingest.md "Transcripts"). A Claude Code transcript
 * shows a command's output indented under its tool call (`  ⎿  INFO:…`, then four or five spaces)
 * and wrapped at the width of its pane: a record longer than the pane goes on over the next lines,
 * at the same indentation, with no prefix of their own. Those lines are joined back into the
 * record, so that `Orchestration complete: TASK-X, decision=max_turns_exceeded,` + `turns=5` is
 * read as the one record GuardKit wrote. Continuation lines indented deeper (feedback bullets) are
 * real line breaks of the message and stay as they are.
 */

/**
 * The indentation of a record's continuation lines when they are wraps, or 0. The record must be
 * the first thing on its line after the transcript's margin: spaces, the `⎿` of a tool's first
 * output line, and Claude Code's `[stderr] ` tag. Only lines that start with a space can qualify
 * (the caller checks the first character, so plain logs pay nothing).
 */
export function wrapIndent(line: string, level: string, logger: string): number {
  const at = line.indexOf(`${level}:${logger}:`)
  if (at <= 0) return 0
  const margin = MARGIN.exec(line)![0].length
  if (margin === 0) return 0
  const rest = line.slice(margin, at)
  return rest === '' || rest === '[stderr] ' ? margin : 0
}

/** Spaces, optionally the `⎿` that opens a tool's output and the spaces after it. */
const MARGIN = /^ *(?:⎿ +)?/

/** A line that goes on with the record: exactly `indent` spaces, then text. */
export function isWrapContinuation(text: string, indent: number): boolean {
  if (text.length <= indent || text.charCodeAt(indent) === 0x20 || text.charCodeAt(indent) === 0x09) return false
  for (let i = 0; i < indent; i++) if (text.charCodeAt(i) !== 0x20) return false
  return true
}

/** Text that starts left of a transcript record's margin: the transcript's own (its prose, `∴ Thinking…`), not the record's. */
export function isOutsideMargin(text: string, indent: number): boolean {
  for (let i = 0; i < indent; i++) {
    const c = text.charCodeAt(i)
    if (c !== 0x20 && c !== 0x09) return i < text.length
  }
  return false
}

/**
 * A plain capture copied from a terminal N columns wide (docs/record-formats.md §5.1 item 5): a record longer than
 * N goes on over the next lines, cut at exactly N characters, words or not. The record's message as the one line it
 * was — its first line as long as the longest line of the file (the width; the caller checks that several lines
 * are), every continuation but the last as long too, the last no longer, none indented — or null when its lines are
 * its own (feedback bullets, a query dump).
 */
export function unwrapTerminal(first: string, more: readonly string[] | null, width: number, longest: number): string | null {
  if (more === null || more.length === 0 || width < 60 || width !== longest) return null
  for (let i = 0; i < more.length; i++) {
    const line = more[i]!
    if (line === '' || line.charCodeAt(0) === 0x20 || line.charCodeAt(0) === 0x09) return null
    if (i < more.length - 1 ? line.length !== width : line.length > width) return null
  }
  return first + more.join('')
}

/**
 * `prev` and `next` joined as the one line they were before wrapping. A word wrap ate the space
 * between two words; a character wrap cut a word that did not fit, mostly a path
 * (`…/guardkit_te` + `sting/test-feature/…`). A pane's width differs from one tool output to the
 * next, so the cut is judged by its text: inside a path (the word before the cut has a `/`, the one
 * after a `/`, `.` or `_`) it is a character wrap; otherwise a word wrap.
 */
export function joinWrapped(prev: string, next: string): string {
  return isPathCut(prev, next) ? prev + next : `${prev} ${next}`
}

function isPathCut(prev: string, next: string): boolean {
  if (prev === '' || prev.endsWith(' ')) return false
  const lastWord = prev.slice(prev.lastIndexOf(' ') + 1)
  if (!lastWord.includes('/')) return false
  const space = next.indexOf(' ')
  const firstWord = space === -1 ? next : next.slice(0, space)
  return /[/._]/.test(firstWord) && !/^[([{'"]/.test(firstWord)
}
