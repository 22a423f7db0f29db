import {firstLine, wrap} from './layout.js'
import {renderTable, type Cell, type Column} from './table.js'
import type {SignatureCell, StallColumn, StallRow, StallTable} from './stall-rows.js'
import type {TextOptions} from './text-options.js'

const MIN_ROWS = 5

/**
 * The stall detector turn by turn (docs/cli.md "The text report"): feedback, the count fed, each profile's
 * signature, and the window of the profile that stops first. Signatures the records cannot give
 * are `(not in log)`; approximate ones end in `~`. Without --verbose the rows stop one turn after
 * the first stall and the feedback is cut at a word; with it, every row and the whole first line.
 * On a narrow terminal the feedback column shrinks first, then the window moves under its row.
 */
export function renderStallTable(table: StallTable, o: TextOptions, indent = '  '): string[] {
  const p = o.palette
  const out = [`${indent}${p.bold('stall detector, turn by turn')}`]
  out.push(...wrap(legend(table.columns), o.width - indent.length - 2).map((l) => p.dim(`${indent}  ${l}`)))
  const columns: Column[] = [
    {header: 'turn', align: 'right'},
    {header: 'feedback (first line)', flex: o.verbose ? 'wrap' : 'cut', min: 14},
    {header: 'count', align: 'right'},
    ...table.columns.map((c): Column => ({header: columnHeader(c)})),
    {header: `window (${table.windowProfile})`, flex: 'wrap', min: 20, stack: 1},
  ]
  const limit = o.verbose ? table.rows.length : Math.max(MIN_ROWS, (table.firstFire ?? 0) + 1)
  const rows = table.rows.slice(0, limit).map((row): Cell[] => [
    String(row.turn),
    feedbackCell(row, o),
    row.count === null ? '' : String(row.count),
    ...row.cells.map((c) => cellOf(c, o)),
    windowCell(row, o),
  ])
  out.push(...renderTable(columns, rows, {width: o.width, indent: `${indent} `, headerStyle: p.dim}))
  const hidden = table.rows.length - limit
  if (hidden > 0) out.push(p.dim(`${indent}  … ${hidden} more turn${hidden === 1 ? '' : 's'} (--verbose shows every turn)`))
  if (table.hasApproximate) {
    if (table.assumptions.length === 0) out.push(p.dim(`${indent}  ~ approximate: rebuilt from partial inputs`))
    for (const a of table.assumptions) {
      const col = table.columns.find((c) => c.profiles[0] === a.profile)
      out.push(...wrap(`~ approximate (${col === undefined ? a.profile : columnHeader(col)}): ${a.assumption}`, o.width - indent.length - 4).map((l, i) => p.dim(`${indent}  ${i === 0 ? '' : '  '}${l}`)))
    }
  }
  return out
}

/** A column is named after `legacy` or `fixed` when it holds one of them, else its first profile. */
function columnHeader(col: StallColumn): string {
  return col.profiles.find((n) => n === 'legacy' || n === 'fixed') ?? col.profiles[0]!
}

/** Which signature each column holds, and which profiles share a column. */
function legend(columns: readonly StallColumn[]): string {
  const parts = columns.flatMap((c) => {
    const also = c.profiles.filter((n) => n !== columnHeader(c))
    if (c.basis === 'unknown' && also.length === 0) return []
    const what = c.basis === 'raw' ? ': md5 of the full feedback' : c.basis === 'normalised' ? ': md5 after normalising' : ''
    return [`${columnHeader(c)}${also.length === 0 ? '' : ` (= ${also.join(', ')})`}${what}`]
  })
  return `signatures (md5 of the feedback sent, 8 hex digits) per profile${parts.length === 0 ? '' : `; ${parts.join('; ')}`}`
}

function cellOf(c: SignatureCell, o: TextOptions): Cell {
  const p = o.palette
  switch (c.kind) {
    case 'signature': {
      const text = `${c.signature}${c.approximate ? '~' : ''}`
      return c.fired ? {text, style: p.bold} : text
    }
    case 'not-in-log':
      return {text: '(not in log)', style: p.dim}
    case 'not-rebuildable':
      return {text: '(own text?)', style: p.dim}
    case 'depends':
      return {text: '(depends)', style: p.dim}
    case 'none':
      return {text: '—', style: p.dim}
    case 'stopped':
      return {text: 'stopped', style: p.dim}
  }
}

/** The first line of the feedback; `…` where the log itself cut it, `*` rebuilt by the replay, `~` approximately. */
function feedbackCell(row: StallRow, o: TextOptions): Cell {
  if (row.feedback === null) return {text: '(not in log)', style: o.palette.dim}
  const text = firstLine(row.feedback)
  switch (row.feedbackSource) {
    case 'recorded':
      return text
    case 'recorded-truncated':
      return text.endsWith('…') ? text : `${text}…`
    case 'replayed':
      return `${text}*`
    case 'replayed-approximate':
      return `${text}~`
    case 'none':
      return {text: '(not in log)', style: o.palette.dim}
  }
}

/** The window the detector looked at, whether it fired, and where the log says it fired. */
function windowCell(row: StallRow, o: TextOptions): Cell {
  const p = o.palette
  const parts: string[] = []
  if (row.window !== null && row.window.signatures.length > 0) {
    const sigs = row.window.signatures
    const same = sigs.every((x) => x === sigs[0])
    parts.push(same && sigs.length > 1 ? `[${sigs[0]} ×${sigs.length}]` : `[${sigs.join(' ')}]`)
    if (row.window.fired) parts.push('→ FIRES')
  }
  if (row.recordedStall !== null) parts.push(`◀ recorded stall${row.recordedStall.signature === null ? '' : ` ${row.recordedStall.signature}`}`)
  const text = parts.join(' ')
  const fires = row.window?.fired === true
  return fires || row.recordedStall !== null ? {text, style: fires ? (s) => s.replace('→ FIRES', p.bold(p.red('→ FIRES'))).replace(/◀ recorded stall( \w+)?/, (m) => p.yellow(m)) : p.yellow} : text
}
