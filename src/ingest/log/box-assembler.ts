import {intern, keep} from './build/keep.js'
import type {ParsedEvent, TableRow} from './events.js'

/**
 * Rich boxes and tables span many physical lines, and another task's records can be printed
 * between them, so they are assembled apart from the record stream: the per-task
 * `AutoBuild Summary (STATUS)` table (the most reliable per-turn decision source, docs/record-formats.md §5.2),
 * the status box after it, and the feature's Task Details table. A capture can be cut anywhere: a
 * summary table whose title (and header) was cut away is still read when every line of the box is
 * one of its rows (`headlessRows`); its status is then unknown (`status: null`).
 */
export interface AssembledEvent {
  readonly event: ParsedEvent
  readonly line: number
}

export interface BoxAssembler {
  /** `AutoBuild Summary (STATUS)` seen: the next box is that table. */
  expectSummary(status: string, line: number): AssembledEvent[]
  /** A line starting with a box-drawing character (after a transcript's margin: leading blanks are skipped). */
  feed(text: string, line: number): AssembledEvent[]
  /** A blank line or the end of input: whatever is open is complete as far as it goes. */
  flush(): AssembledEvent[]
}

interface OpenBox {
  readonly startLine: number
  readonly summary: {status: string; line: number} | null
  readonly content: {text: string; line: number}[]
}

const CONTENT_LIMIT = 400

export function createBoxAssembler(): BoxAssembler {
  let pendingSummary: {status: string; line: number} | null = null
  let open: OpenBox | null = null

  function close(): AssembledEvent[] {
    const box = open
    open = null
    if (box === null) return []
    if (box.summary !== null) return [summaryTable(box.summary, box.content)]
    return headlessTable(box) ?? plainBox(box)
  }

  function start(line: number): AssembledEvent[] {
    const out = close()
    open = {startLine: line, summary: pendingSummary, content: []}
    pendingSummary = null
    return out
  }

  return {
    expectSummary(status, line) {
      const out = close()
      pendingSummary = {status, line}
      return out
    },
    feed(given, line) {
      const text = given.charCodeAt(0) === 0x20 || given.charCodeAt(0) === 0x09 ? given.trimStart() : given
      const c = text[0]
      if (c === '╭' || c === '┏' || c === '╔') return start(line)
      if (c === '╰' || c === '┗' || c === '╚') {
        if (open === null) return []
        return close()
      }
      if (c === '│' || c === '┃' || c === '║') {
        const out = open === null ? start(line) : []
        if (open!.content.length < CONTENT_LIMIT) open!.content.push({text, line})
        return out
      }
      return []
    },
    flush() {
      const out = close()
      if (pendingSummary !== null) {
        out.push(summaryTable(pendingSummary, []))
        pendingSummary = null
      }
      return out
    },
  }
}

function cells(text: string): string[] {
  // Table cells: layout whitespace only (not GuardKit text semantics), so String#trim is right here.
  const inner = text.split(/[│┃║]/).slice(1).map((p) => p.trim())
  // A row cut by the terminal width has no closing bar; a whole row ends with an empty piece.
  if (inner.length > 0 && inner[inner.length - 1] === '') inner.pop()
  return inner
}

function summaryTable(header: {status: string; line: number}, content: readonly {text: string; line: number}[]): AssembledEvent {
  const rows = tableRows(content)
  const endLine = content.length > 0 ? content[content.length - 1]!.line : header.line
  return {event: {kind: 'c-summary-table', status: header.status, rows, endLine}, line: header.line}
}

function tableRows(content: readonly {text: string; line: number}[]): TableRow[] {
  const rows: TableRow[] = []
  for (const {text, line} of content) {
    const cs = cells(text)
    if (cs.length < 4) continue
    const [turnCell, phase, status, ...rest] = cs
    const summary = rest.join(' │ ')
    if (turnCell === 'Turn') continue
    if (turnCell === '' && rows.length > 0) {
      const prev = rows[rows.length - 1]!
      rows[rows.length - 1] = {...prev, summary: keep(prev.summary === '' ? summary : `${prev.summary}\n${summary}`)}
      continue
    }
    // GuardKit numbers turns from 1; an empty cell before any row (an interleaved or cut table) is no turn 0
    const turn = Number(turnCell)
    if (!/^[0-9]+$/.test(turnCell ?? '') || !Number.isSafeInteger(turn) || turn < 1) continue
    rows.push({turn, phase: intern(phase!), status: intern(status!.replace(/^[^\w]+\s*/u, '')), summary: keep(summary), line})
  }
  return rows
}

/** A turn row of the summary table: `│ N │ Player Implementation|Coach Validation │ ✓ success|⚠ feedback|✗ error │ … │`. */
const TURN_ROW_PHASE = /^(?:Player Implementation|Coach Validation)$/
const TURN_ROW_STATUS = /^[✓⚠✗] [a-z_]+$/u

/**
 * A box that had no `AutoBuild Summary (STATUS)` title before it (its head was cut from the capture)
 * is that table only if every line of it is one: the header row (`Turn │ Phase │ Status │ Summary`),
 * turn rows (a turn number, a phase of the table, a status with its glyph) and the lines a row wraps
 * onto (empty turn, phase and status cells); before the first turn row, only the tail of a row cut in
 * the middle (fewer cells than a row has, or a wrapped line). Any other line — a panel's text after a
 * turn row, another table's row — and it is not read as one. The status is not known (`status: null`): the claim checks the turn count.
 */
function headlessTable(box: OpenBox): AssembledEvent[] | null {
  let turnRows = 0
  for (const {text} of box.content) {
    const cs = cells(text)
    if (cs.length >= 4 && /^[0-9]+$/.test(cs[0]!) && TURN_ROW_PHASE.test(cs[1]!) && TURN_ROW_STATUS.test(cs[2]!)) turnRows++
    else if (cs.length >= 4 && cs[0] === 'Turn' && cs[1] === 'Phase' && cs[2] === 'Status' && turnRows === 0) continue
    else if (cs.length >= 4 && cs[0] === '' && cs[1] === '' && cs[2] === '' && turnRows > 0) continue
    else if (turnRows === 0 && (cs.length < 4 || (cs[0] === '' && cs[1] === '' && cs[2] === ''))) continue
    else return null
  }
  if (turnRows === 0) return null
  const rows = tableRows(box.content)
  const endLine = box.content[box.content.length - 1]!.line
  return [{event: {kind: 'c-summary-table', status: null, rows, endLine}, line: box.startLine}]
}

function plainBox(box: OpenBox): AssembledEvent[] {
  const out: AssembledEvent[] = []
  const first = box.content[0]
  const status = first === undefined ? null : /^Status: ([A-Z_]+)/.exec(cells(first.text)[0] ?? '')
  if (status) {
    const lines = box.content.map((c) => cells(c.text).join(' ')).filter((l) => l !== '')
    out.push({event: {kind: 'c-status-box', status: status[1]!, lines}, line: first!.line})
    return out
  }
  for (const {text, line} of box.content) {
    // a task row's first cell is a task id: most lines of most boxes (Player and Coach panels) are not
    if (!text.includes('TASK-')) continue
    const cs = cells(text)
    const task = /^(TASK-[\w-]*\w)$/.exec(cs[0] ?? '')
    if (task && cs.length >= 2) out.push({event: {kind: 'c-task-status', taskId: task[1]!, status: cs[1]!, decision: cs[3] ?? null}, line})
  }
  if (out.length === 0) out.push({event: {kind: 'c-other', name: 'box'}, line: box.startLine})
  return out
}
