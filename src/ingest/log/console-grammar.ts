import type {ParsedEvent} from './events.js'
import {splitTimestamp} from './grammar/text.js'

/**
 * Console text (no `LEVEL:logger:` prefix): Rich output of `guardkit autobuild` and the shell
 * around it (docs/record-formats.md §5.5). `classifyConsole` says whether a line starts a console item —
 * which also ends a multi-line logging record — and what it is. Lines that start nothing continue
 * the open item (a record's feedback bullets, a traceback, a wrapped shell command).
 */
export interface ConsoleLine {
  readonly event: ParsedEvent | null
  /** Starts a console item (ends an open record). */
  readonly start: boolean
  /** Opens a block that later lines feed: a Rich box or table, a traceback. */
  readonly block?: 'summary-table' | 'box' | 'traceback' | 'prompt'
}

// The results without an event are shared: this runs on every line that is not a record.
const NOT_CONSOLE: ConsoleLine = {event: null, start: false}
const BLANK_OR_BARE: ConsoleLine = {event: null, start: true}
const BOX: ConsoleLine = {event: null, start: true, block: 'box'}
const SUMMARY_TABLE: ConsoleLine = {event: null, start: true, block: 'summary-table'}
const TRACEBACK: ConsoleLine = {event: null, start: true, block: 'traceback'}
const NO_TS: {ts?: string} = {}
/**
 * The mark a tool leaves where it cut a long output before it was saved (Claude Code shows a
 * command's output with its middle left out: `... [28226 characters truncated] ...`): the records of
 * that stretch are not in the capture.
 */
const CAPTURE_CUT = /^\.\.\. \[(\d{1,12}) (characters|lines) truncated\] \.\.\.\s*$/
const SPINNER = /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] (?:\[[^\]]+\] )?Turn (\d+)\/(\d+): (Player Implementation|Coach Validation)/
const PROMPT_ZSH = /^\S+@\S+ \S+ % ?(.*)$/
const PROMPT_BASH = /^\S+@[^\s:]+:\S*\$ ?(.*)$/
const OTHER_STARTS =
  /^(?:Wave \d+ [✓✗]|Starting Wave Execution|FEATURE RESULT|Feature: |Status: |Tasks: |Total Turns: |Duration: |Worktree:|Branch:|Next Steps:|SDK Turn Ceiling:|Execution Quality:|Clean executions|State recoveries|Wave Summary|Task Details|Task\s+Status\s+Turns|Context: |Session Restarted|Last login:|\^C|Bootstrapping|Stopping execution|zsh: |bash: |Resuming|Skipping|Options:|\[R\]esume|\[F\]resh|Exception ignored)/
const GLYPH = /^[✓✗⚠⏱▶⚙ℹ✔✘]/
/** A Claude Code transcript's tool call (`⏺ Bash(guardkit autobuild …)`, `⏺ Task Output b937e25`) or its prose (`⏺ The build …`). */
const TOOL_CALL = /^⏺ ([A-Z][A-Za-z]*(?: [A-Z]?[a-z]+(?=[ (]|$))*)(?:(?:\(non-blocking\))? ([0-9a-z]{5,})$|\((.*?)(?:\)(?:\s+timeout: .*)?)?$)?/

/**
 * The first characters the rules of classifyConsole after the timestamp can start with (the
 * Python warning, which can start with anything, is tested apart). A rule added below adds its
 * first character here.
 */
const RULE_HEADS = 'ATWFYSDBNECL^zbRO[=✓✗⚠⏱▶⚙ℹ✔✘━═─.│┃║╭┏╔╰┗╚├'
const HEAD = new Uint8Array(0x2800)
for (const c of RULE_HEADS) HEAD[c.charCodeAt(0)] = 1

/** A box's left edge, top or bottom corner, or a table's row rule: `│ ┃ ║ ╭ ┏ ╔ ╰ ┗ ╚ ├`. */
function isBoxEdge(code: number): boolean {
  return code === 0x2502 || code === 0x2503 || code === 0x2551 || code === 0x256d || code === 0x250f || code === 0x2554 ||
    code === 0x2570 || code === 0x2517 || code === 0x255a || code === 0x251c
}

function mayStartRule(code: number): boolean {
  return code < 0x2800 && HEAD[code] === 1
}

/** Python's warnings module on stderr: `/…/asyncio/events.py:94: RuntimeWarning: …` (+ the source line). */
function isPythonWarning(rest: string): boolean {
  return inFirstWord(rest, '.py:') && /^\S+\.py:\d+: \w*(?:Warning|Error)\b/.test(rest)
}

/**
 * Whether `needle` starts in the first word of `text` (before its first space or tab): a rule
 * `^\S+<needle>` can match only then. Looks at that word only, not at the whole line (query
 * dumps are lines of tens of KB).
 */
function inFirstWord(text: string, needle: string): boolean {
  let end = 0
  while (end < text.length && text.charCodeAt(end) !== 0x20 && text.charCodeAt(end) !== 0x09) end++
  return end > 0 && text.lastIndexOf(needle, end - 1) !== -1
}

// shared: it carries no per-line data
const PYTHON_WARNING: ConsoleLine = Object.freeze({event: Object.freeze({kind: 'c-other', name: 'python-warning'}), start: true})

export function classifyConsole(text: string): ConsoleLine {
  const c0 = text.charCodeAt(0)
  if (text.length === 0) return BLANK_OR_BARE
  // Box drawing: Rich panels and tables (╭ │ ├ ╰ ┏ ┃ ┗ ━ ═ ─).
  if (c0 >= 0x2500 && c0 <= 0x257f) return BOX
  if (c0 >= 0x2800 && c0 <= 0x28ff) {
    const m = SPINNER.exec(text)
    if (m) return {event: {kind: 'c-spinner', turn: Number(m[1]), maxTurns: Number(m[2]), phase: m[3] === 'Coach Validation' ? 'coach' : 'player', ...tsOf(text)}, start: true}
    return {event: {kind: 'c-other', name: 'spinner'}, start: true}
  }
  // A transcript's tool call ends the output shown before it (src/ingest/log/transcript.ts reads it).
  if (c0 === 0x23fa) return {event: transcriptLine(text), start: true}
  // Both prompts start with a `user@host` word: most lines need not try them.
  let m = inFirstWord(text, '@') ? PROMPT_ZSH.exec(text) ?? PROMPT_BASH.exec(text) : null
  if (m && !text.startsWith(' ')) return {event: {kind: 'c-prompt', command: m[1]!}, start: true, block: 'prompt'}
  let lead = 0
  while (lead < text.length && (text.charCodeAt(lead) === 0x20 || text.charCodeAt(lead) === 0x09)) lead++
  const {ts, rest} = splitTimestamp(lead === 0 ? text : text.slice(lead))
  const at = ts === undefined ? NO_TS : {ts}
  if (rest === '') return BLANK_OR_BARE
  // Most lines here continue a record (feedback bullets, dumps): none of the rules below can match them.
  if (!mayStartRule(rest.charCodeAt(0))) return isPythonWarning(rest) ? PYTHON_WARNING : NOT_CONSOLE
  // Claude Code tags the stderr part of a background command's output: the tag, then a record on the same line.
  if (rest === '[stderr] ' || rest === '[stderr]') return BLANK_OR_BARE
  // A Rich box or table printed under a transcript's margin (or cut mid-row): the box assembler skips the blanks.
  if (isBoxEdge(rest.charCodeAt(0))) return BOX
  if ((m = CAPTURE_CUT.exec(rest))) return {event: {kind: 'c-capture-cut', omitted: Number(m[1]), unit: m[2] as 'characters' | 'lines'}, start: true}
  if (/^AutoBuild Summary \([A-Z_]+\)/.test(rest)) return SUMMARY_TABLE
  if (rest.startsWith('Traceback (most recent call last):')) return TRACEBACK
  if (/^Turn \d+\/\d+: (Player Implementation|Coach Validation)/.test(rest)) return {event: {kind: 'c-other', name: 'progress-bar', ...at}, start: true}
  if (GLYPH.test(rest)) return {event: parseGlyphLine(rest, at), start: true}
  if ((m = /^Wave (\d+)\/(\d+): (.*)$/.exec(rest)))
    return {event: {kind: 'c-wave', wave: Number(m[1]), total: Number(m[2]), taskIds: m[3]!.match(/TASK-[\w-]*\w/g) ?? [], ...at}, start: true}
  if ((m = /^(TASK-[\w-]*\w)\s+(SUCCESS|FAILED|TIMEOUT|SKIPPED|CANCELLED|ERROR)\s+\S+\s+(\S+)/.exec(rest)))
    return {event: {kind: 'c-task-status', taskId: m[1]!, status: m[2]!, decision: m[3]!, ...at}, start: true}
  if ((m = /^FEATURE RESULT: (\w+)/.exec(rest))) return {event: {kind: 'c-feature-result', result: m[1]!}, start: true}
  if ((m = /^Your choice \[[^\]]*\]: ?(\S*)/.exec(rest))) return {event: {kind: 'c-resume-prompt', choice: m[1]!}, start: true}
  if (OTHER_STARTS.test(rest)) return {event: {kind: 'c-other', name: 'display', ...at}, start: true}
  if (isPythonWarning(rest)) return PYTHON_WARNING
  // A feedback excerpt cut at 80 code points can end inside pytest's `=====` banner: `=====...` goes on the record.
  if (/^=+\.\.\.$/.test(rest)) return {event: null, start: false}
  if (/^[━═─=]{3,}/.test(rest)) return {event: {kind: 'c-other', name: 'rule'}, start: true}
  return NOT_CONSOLE
}

function transcriptLine(text: string): ParsedEvent {
  const m = TOOL_CALL.exec(text)
  const input = m?.[2] ?? m?.[3]
  return m === null || input === undefined ? {kind: 'c-transcript', tool: null, input: text.slice(2)} : {kind: 'c-transcript', tool: m[1]!, input}
}

function parseGlyphLine(rest: string, at: {ts?: string}): ParsedEvent {
  let m: RegExpExecArray | null
  if (/^✓ \d+ files created, \d+ modified/.test(rest)) return {kind: 'c-player', status: 'success', text: rest.slice(2), ...at}
  if ((m = /^✗ (?:\[[^\]]+\] )?(Player failed.*)$/s.exec(rest))) return {kind: 'c-player', status: 'error', text: m[1]!, ...at}
  if ((m = /^⚠ (?:\[[^\]]+\] )?(Feedback: .*)$/s.exec(rest))) return {kind: 'c-coach', decision: 'feedback', text: m[1]!, ...at}
  if ((m = /^✓ (?:\[[^\]]+\] )?(Coach approved.*)$/.exec(rest))) return {kind: 'c-coach', decision: 'approve', text: m[1]!, ...at}
  if ((m = /^✗ (?:\[[^\]]+\] )?(Coach failed.*)$/.exec(rest))) return {kind: 'c-coach', decision: 'error', text: m[1]!, ...at}
  if ((m = /^[✓✗] (?:\[[^\]]+\] )?(TASK-[\w-]*\w): (SUCCESS|FAILED) \((\d+) turns?\)\s*(\S*)/.exec(rest)))
    return {kind: 'c-task-result', taskId: m[1]!, ok: m[2] === 'SUCCESS', turns: Number(m[3]), decision: m[4] || m[2]!.toLowerCase(), ...at}
  if ((m = /^[✓✗] (?:\[[^\]]+\] )?(TASK-[\w-]*\w): (\w+) \((\d+) turns?\)$/.exec(rest)))
    return {kind: 'c-task-result', taskId: m[1]!, ok: rest.startsWith('✓'), turns: Number(m[3]), decision: m[2]!, ...at}
  // the wave's line for a task that ended without a turn count: `✗ TASK-X: FAILED  error`
  if ((m = /^✗ (?:\[[^\]]+\] )?(TASK-[\w-]*\w): FAILED {1,3}([a-z_]+)$/.exec(rest)))
    return {kind: 'c-task-result', taskId: m[1]!, ok: false, turns: null, decision: m[2]!, ...at}
  // the exception that ended a task, as the wave display prints it: `✗ TASK-X: Error - Orchestration failed: …`
  if ((m = /^✗ (?:\[[^\]]+\] )?(TASK-[\w-]*\w): Error - (.*)$/s.exec(rest))) return {kind: 'c-task-error', taskId: m[1]!, message: m[2]!, ...at}
  if ((m = /^⏱ (?:\[[^\]]+\] )?(TASK-[\w-]*\w): (.*)$/.exec(rest))) return {kind: 'c-task-timeout', taskId: m[1]!, text: m[2]!, ...at}
  if ((m = /^▶ (?:\[[^\]]+\] )?(TASK-[\w-]*\w): /.exec(rest))) return {kind: 'c-other', name: 'task-exec', taskId: m[1]!, ...at}
  return {kind: 'c-other', name: 'status', ...at}
}

function tsOf(text: string): {ts?: string} {
  const m = /\[(\d{4}-\d\d-\d\dT[\d:.]+Z?)\]/.exec(text.slice(0, 40))
  return m ? {ts: m[1]!} : {}
}
