/**
 * Untrusted text made harmless at the output edge (docs/security.md). Everything guardkit-replay
 * prints that it did not write itself — task ids, file and run names, log lines, feedback, option
 * values echoed in messages — may come from a compromised machine. Printed raw, such text could
 * drive the terminal (ESC, OSC, clear-screen sequences, BEL), forge lines (a newline in a file
 * name), reorder what is shown (bidirectional overrides), or inject a CI workflow command into
 * the log (`::add-mask::`, `::warning …`, `##[…]`, `##vso[…]`).
 *
 * Four functions, by where the text goes:
 *
 * - `neutraliseInline(text)`: a value inside a line — an id, a name, a path, an option value. Every
 *   control character is shown escaped: `\e` (ESC), `\a` (BEL), `\b`, `\t`, `\n`, `\v`, `\f`,
 *   `\r`, `\0`, other C0 and C1 controls and DEL as `\xHH`; bidirectional controls, U+2028/U+2029
 *   and lone surrogates as `\uHHHH`. So a value never spans lines or moves the cursor.
 * - `neutraliseLine(text)`: one line of a block quoted from a record (a log line, a feedback line):
 *   the same, but a tab stays a tab.
 * - `neutraliseBlock(text)`: quoted multi-line text: each line as `neutraliseLine`, line breaks
 *   kept (CRLF read as LF).
 * - `neutraliseOutput(text, {keepSgr})`: a finished text or Markdown document, the last pass before
 *   it is printed: every control character but newline and tab escaped (with `keepSgr`, the
 *   colour codes the renderer wrote itself are kept), CRLF read as LF.
 *
 * And in all four, no line can start a CI workflow command: a line whose first non-blank
 * characters are `::` (GitHub Actions reads those, leading blanks trimmed) gets a backslash before
 * them (`\::warning …`, which Markdown renders as `::`), and `##[` / `##vso[` anywhere in a line
 * (GitHub's older form, Azure Pipelines') become `#\#[` / `#\#vso[`.
 *
 * `neutraliseNames(report)` applies `neutraliseInline` to the names a report carries (`taskId`,
 * `file`, `path`, `runPath`, `featureId`, `logs`, `inputs`, `files`, `expectations`, at any depth),
 * so that a renderer can lay them out as the plain one-line values they are meant to be; the text,
 * Markdown, HTML, JUnit, annotation and dashboard renderers call it on what they are given.
 *
 * `neutraliseJson(json)` does the last part for a JSON document: `#` of `##[` is written `\u0023`
 * (the same JSON value). JSON.stringify already escapes every control character.
 * `neutraliseJsonChunks(chunks)` does it for a document drawn in pieces (a streamed report).
 *
 * Pure, and idempotent only in the sense that matters: its output holds nothing it would change
 * again except backslashes it wrote (shown text, not data: JSON output carries the exact values).
 */

// eslint-disable-next-line no-control-regex
const UNSAFE = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]/
// eslint-disable-next-line no-control-regex
const UNSAFE_ALL = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g
/**
 * A line that a CI runner would read as a workflow command: GitHub trims leading blanks; colour
 * codes before it are treated as blanks too (a runner that strips them must not find a command).
 */
// eslint-disable-next-line no-control-regex
const COMMAND_START = /^((?:[ \t\u00a0\ufeff]|\x1b\[[0-9;]*m)*)::/
// eslint-disable-next-line no-control-regex
const COMMAND_START_M = /^((?:[ \t\u00a0\ufeff]|\x1b\[[0-9;]*m)*)::/gm
/** GitHub's older `##[command]` and Azure Pipelines' `##vso[…]`, read anywhere in a line. */
const HASH_COMMAND = /##(?=\[|vso\[)/gi

const NAMED: Readonly<Record<number, string>> = {0x00: '\\0', 0x07: '\\a', 0x08: '\\b', 0x09: '\\t', 0x0a: '\\n', 0x0b: '\\v', 0x0c: '\\f', 0x0d: '\\r', 0x1b: '\\e'}

function escapeChar(ch: string): string {
  const c = ch.charCodeAt(0)
  const named = NAMED[c]
  if (named !== undefined) return named
  if (c < 0x100) return `\\x${c.toString(16).padStart(2, '0')}`
  return `\\u${c.toString(16).padStart(4, '0')}`
}

function defuseCommands(text: string, multiline: boolean): string {
  let out = text.indexOf('##') === -1 ? text : text.replace(HASH_COMMAND, '#\\#')
  if (out.indexOf('::') !== -1) out = multiline ? out.replace(COMMAND_START_M, '$1\\::') : out.replace(COMMAND_START, '$1\\::')
  return out
}

/** An id, a name, a path or an option value inside a line of output. */
export function neutraliseInline(text: string): string {
  const escaped = UNSAFE.test(text) ? text.replace(UNSAFE_ALL, escapeChar) : text
  return defuseCommands(escaped, false)
}

/** One line of a quoted block (a log line, a line of feedback): as neutraliseInline, tabs kept. */
export function neutraliseLine(text: string): string {
  const escaped = UNSAFE.test(text) ? text.replace(UNSAFE_ALL, (ch) => (ch === '\t' ? ch : escapeChar(ch))) : text
  return defuseCommands(escaped, false)
}

/** Quoted multi-line text: each line as neutraliseLine, line breaks kept (CRLF as LF). */
export function neutraliseBlock(text: string): string {
  if (!UNSAFE.test(text) && text.indexOf('::') === -1 && text.indexOf('##') === -1) return text
  return text.replace(/\r\n/g, '\n').split('\n').map(neutraliseLine).join('\n')
}

// the colour codes the palettes write (SGR), and nothing else, when colour is on
// eslint-disable-next-line no-control-regex
const SGR = /\x1b\[[0-9;]*m/y

/**
 * A finished text or Markdown document, before it is printed: every control character but newline
 * and tab escaped (with `keepSgr`, the SGR colour codes the renderer wrote are kept, any other
 * escape sequence is not), CRLF read as LF, no line able to start a CI workflow command.
 */
export function neutraliseOutput(text: string, options: {readonly keepSgr?: boolean} = {}): string {
  let out = text
  if (UNSAFE.test(out)) {
    const source = out.replace(/\r\n/g, '\n')
    let built = ''
    let from = 0
    UNSAFE_ALL.lastIndex = 0
    for (let m = UNSAFE_ALL.exec(source); m !== null; m = UNSAFE_ALL.exec(source)) {
      const ch = m[0]
      const at = m.index
      if (ch === '\n' || ch === '\t') continue
      if (ch === '\x1b' && options.keepSgr === true) {
        SGR.lastIndex = at
        const sgr = SGR.exec(source)
        if (sgr !== null) {
          UNSAFE_ALL.lastIndex = at + sgr[0].length
          continue
        }
      }
      built += source.slice(from, at) + escapeChar(ch)
      from = at + ch.length
    }
    out = built + source.slice(from)
  }
  return defuseCommands(out, true)
}

/** A JSON document (pretty or one line): `##[`/`##vso[` written with `\u0023`, the same value once parsed. */
export function neutraliseJson(json: string): string {
  return json.indexOf('##') === -1 ? json : json.replace(HASH_COMMAND, '#\\u0023')
}

/** A tail that may be the start of `##[` / `##vso[`, held back until the next chunk shows what follows. */
const HASH_TAIL = /#(?:#(?:v(?:so?)?)?)?$/i

/**
 * A JSON document drawn in pieces (a streamed report): each piece as neutraliseJson, a `##` split
 * between two pieces included — so the pieces joined are neutraliseJson of the whole document. A
 * piece may be UTF-8 bytes (task runs drawn ahead, read back from a file): one without `#` goes out
 * as it is, without being decoded and encoded again.
 */
export function* neutraliseJsonChunks(chunks: Iterable<string | Uint8Array>): Generator<string | Uint8Array> {
  let held = ''
  for (const piece of chunks) {
    if (typeof piece !== 'string' && held === '' && piece.indexOf(HASH) === -1) {
      if (piece.length > 0) yield piece
      continue
    }
    const chunk = typeof piece === 'string' ? piece : utf8.decode(piece)
    const text = held + chunk
    // the tail is at most `##vso` long: looked for in the last five characters, not by a search of the whole piece
    const last = text.length > 5 ? text.slice(-5) : text
    const tail = HASH_TAIL.exec(last)
    const cut = tail === null ? text.length : text.length - last.length + tail.index
    held = text.slice(cut)
    if (cut > 0) yield neutraliseJson(text.slice(0, cut))
  }
  if (held !== '') yield neutraliseJson(held)
}

const HASH = 0x23
const utf8 = new TextDecoder()

/** The fields of a report that hold names: ids, file and run paths (docs/security.md). */
export const NAME_FIELDS: ReadonlySet<string> = new Set(['taskId', 'file', 'path', 'runPath', 'featureId', 'logs', 'inputs', 'files', 'expectations'])

/**
 * A copy of `value` with every string (or string in an array) under a NAME_FIELDS property passed
 * through neutraliseInline; the rest is shared, not copied, where nothing below it changed. Plain
 * objects, arrays and Maps are walked; other objects are kept as they are.
 */
export function neutraliseNames<T>(value: T): T {
  return mapNames(value, false, new Map()) as T
}

function mapNames(value: unknown, named: boolean, seen: Map<object, unknown>): unknown {
  if (typeof value === 'string') return named ? neutraliseInline(value) : value
  if (value === null || typeof value !== 'object') return value
  const done = seen.get(value)
  if (done !== undefined) return done
  if (Array.isArray(value)) {
    seen.set(value, value)
    let out: unknown[] | null = null
    for (let i = 0; i < value.length; i++) {
      const v = mapNames(value[i], named, seen)
      if (v !== value[i]) (out ??= value.slice())[i] = v
    }
    seen.set(value, out ?? value)
    return out ?? value
  }
  if (value instanceof Map) {
    seen.set(value, value)
    let out: Map<unknown, unknown> | null = null
    for (const [k, v] of value) {
      const m = mapNames(v, false, seen)
      if (m !== v) (out ??= new Map(value)).set(k, m)
    }
    seen.set(value, out ?? value)
    return out ?? value
  }
  const proto = Object.getPrototypeOf(value) as unknown
  if (proto !== Object.prototype && proto !== null) return value
  seen.set(value, value)
  let out: Record<string, unknown> | null = null
  for (const [k, v] of Object.entries(value)) {
    const m = mapNames(v, NAME_FIELDS.has(k), seen)
    if (m !== v) (out ??= {...(value as Record<string, unknown>)})[k] = m
  }
  seen.set(value, out ?? value)
  return out ?? value
}

/**
 * A message with every interpolated value passed through neutraliseInline, for messages that echo
 * a path, an id or an option value: ``neutralised`No task ${id} in ${runPath}.` ``. A list is
 * joined with `, ` after each item is neutralised.
 */
export function neutralised(strings: TemplateStringsArray, ...values: readonly unknown[]): string {
  let out = strings[0]!
  for (let i = 0; i < values.length; i++) {
    const v = values[i]
    out += (Array.isArray(v) ? v.map((x) => neutraliseInline(String(x))).join(', ') : neutraliseInline(String(v))) + strings[i + 1]!
  }
  return out
}
