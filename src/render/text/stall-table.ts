import {firstLine, padEnd, padStart, truncate, visibleWidth, wrap} from './layout.js'
import type {SignatureCell, StallColumn, StallRow, StallTable} from './stall-rows.js'
import type {TextOptions} from './text-options.js'

const MIN_ROWS = 5
const MAX_WINDOW = 36

/**
 * The stall detector turn by turn (docs/cli.md "The text report"): feedback, the count fed, each profile's
 * signature, and the window of the profile that stops first. Signatures the records cannot give
 * are `(not in log)`; approximate ones end in `~`. Without --verbose the rows stop one turn after
 * the first stall.
 */
export function renderStallTable(table: StallTable, o: TextOptions, indent = '  '): string[] {
  const p = o.palette
  const headers = table.columns.map(columnHeader)
  const sigWidths = headers.map((h, k) => Math.max(h.length, ...table.rows.map((r) => visibleWidth(cellText(r.cells[k]!, o)))))
  const windows = table.rows.map((r) => windowText(r))
  const windowWidth = Math.min(MAX_WINDOW, Math.max(`window (${table.windowProfile})`.length, ...windows.map((w) => w.length)))
  const fixed = indent.length + 6 + 7 + sigWidths.reduce((a, b) => a + b + 2, 0) + windowWidth
  const feedbackWidth = Math.max(16, o.width - fixed - 2)
  const out = [`${indent}${p.bold('stall detector, turn by turn')}`]
  out.push(...wrap(legend(table.columns), o.width - indent.length - 2).map((l) => p.dim(`${indent}  ${l}`)))
  const header = `${indent} ${padStart('turn', 4)} ${padEnd('feedback (first line)', feedbackWidth)}  ${padStart('count', 5)}  ${headers.map((h, i) => padEnd(h, sigWidths[i]!)).join('  ')}  window (${table.windowProfile})`
  out.push(p.dim(header))
  const limit = o.verbose ? table.rows.length : Math.max(MIN_ROWS, (table.firstFire ?? 0) + 1)
  for (const [i, row] of table.rows.slice(0, limit).entries()) {
    const cells = row.cells.map((c, k) => padEnd(cellText(c, o), sigWidths[k]!))
    const window = row.window?.fired ? `${windows[i]} ${p.bold(p.red('→ FIRES'))}` : windows[i]!
    const recorded = row.recordedStall === null ? '' : p.yellow(`  ◀ recorded stall${row.recordedStall.signature === null ? '' : ` ${row.recordedStall.signature}`}`)
    out.push(`${indent} ${padStart(String(row.turn), 4)} ${padEnd(feedbackText(row, feedbackWidth, o), feedbackWidth)}  ${padStart(row.count === null ? '' : String(row.count), 5)}  ${cells.join('  ')}  ${window}${recorded}`.replace(/\s+$/, ''))
  }
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

function cellText(c: SignatureCell, o: TextOptions): string {
  switch (c.kind) {
    case 'signature':
      return c.fired ? o.palette.bold(`${c.signature}${c.approximate ? '~' : ''}`) : `${c.signature}${c.approximate ? '~' : ''}`
    case 'not-in-log':
      return o.palette.dim('(not in log)')
    case 'none':
      return o.palette.dim('—')
    case 'stopped':
      return o.palette.dim('stopped')
  }
}

function feedbackText(row: StallRow, width: number, o: TextOptions): string {
  if (row.feedback === null) return o.palette.dim('(not in log)')
  const text = truncate(firstLine(row.feedback), width - (row.feedbackSource === 'recorded' ? 0 : 1))
  switch (row.feedbackSource) {
    case 'recorded':
      return text
    case 'recorded-truncated':
      return text.endsWith('…') || visibleWidth(text) >= width ? text : `${text}…`
    case 'replayed':
      return `${text}*`
    case 'replayed-approximate':
      return `${text}~`
    case 'none':
      return o.palette.dim('(not in log)')
  }
}

function windowText(row: StallRow): string {
  if (row.window === null || row.window.signatures.length === 0) return ''
  const sigs = row.window.signatures
  const same = sigs.every((s) => s === sigs[0])
  return same && sigs.length > 1 ? `[${sigs[0]} ×${sigs.length}]` : `[${sigs.join(' ')}]`
}
