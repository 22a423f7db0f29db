import {padEnd, padStart, truncate, visibleWidth, wrap} from './layout.js'

/** A line of its own between rows (a group heading), printed as it is. */
export interface TableLine {
  readonly line: string
}

/** A cell: plain text, and how to colour it once laid out (colour codes never count as width). */
export type Cell = string | {readonly text: string; readonly style: (s: string) => string}

export interface Column {
  readonly header: string
  readonly align?: 'left' | 'right'
  /**
   * Free text that may shrink when the row does not fit: `wrap` onto more lines, or `cut` at a word
   * boundary (the rest is one --verbose away). Other columns keep their width.
   */
  readonly flex?: 'wrap' | 'cut'
  /** The narrowest a flexible column gets (default 12). */
  readonly min?: number
  /**
   * When even the flexible columns at their narrowest leave the row too wide, this column leaves the
   * row and is printed under it, as `header: value` (lowest `stack` first out).
   */
  readonly stack?: number
  /** The label of a stacked cell (default: the header). */
  readonly stackLabel?: string
  /** Always printed under its row, wrapped, aligned with the second column (a summary line). */
  readonly under?: boolean
}

export interface TableOptions {
  readonly width: number
  readonly indent?: string
  readonly gap?: number
  readonly headerStyle?: (s: string) => string
  /** Lines printed under a row (after its `under` and stacked cells), already laid out. */
  readonly after?: (row: number) => readonly string[]
  /** No header line. */
  readonly noHeader?: boolean
}

/**
 * Lays rows out in columns that fit `width` (docs/cli.md "Terminal width"): when the natural widths
 * are too wide, the widest flexible column shrinks first (then the next widest, down to their
 * minimums) and its text wraps or is cut; if that is not enough, stackable columns move under their
 * row. A row is never wrapped as a whole. Width `Infinity` (not a terminal) keeps every column whole.
 */
export function renderTable(columns: readonly Column[], allRows: readonly (readonly Cell[] | TableLine)[], options: TableOptions): string[] {
  const indent = options.indent ?? '  '
  const gap = options.gap ?? 2
  const rows = allRows.filter((r): r is readonly Cell[] => !isLine(r))
  const plain = rows.map((r) => r.map(cellText))
  const natural = columns.map((c, k) => Math.max(visibleWidth(c.header), ...plain.map((r) => maxLineWidth(r[k] ?? ''))))
  const shown = columns.map((_, k) => k).filter((k) => columns[k]!.under !== true)
  const under = columns.map((_, k) => k).filter((k) => columns[k]!.under === true)
  const budget = (keys: readonly number[]) => options.width - indent.length - gap * (keys.length - 1)
  const minimum = (k: number) => (columns[k]!.flex === undefined ? natural[k]! : Math.min(natural[k]!, columns[k]!.min ?? 12))
  const stackOrder = columns.map((c, k) => ({k, s: c.stack})).filter((x) => x.s !== undefined).sort((a, b) => a.s! - b.s!)
  for (const {k} of stackOrder) {
    if (shown.reduce((a, i) => a + minimum(i), 0) <= budget(shown)) break
    shown.splice(shown.indexOf(k), 1)
  }
  const widths = fitWidths(shown.map((k) => ({natural: natural[k]!, min: minimum(k), flex: columns[k]!.flex !== undefined})), budget(shown))
  const widthOf = new Map(shown.map((k, i) => [k, widths[i]!]))
  const stacked = columns.map((_, k) => k).filter((k) => !widthOf.has(k) && columns[k]!.under !== true)
  const underIndent = `${indent}${' '.repeat(shown.length > 1 ? widthOf.get(shown[0]!)! + gap : 2)}`
  const head = shown.map((k, i) => {
    const h = columns[k]!.header
    const w = widthOf.get(k)!
    return i === shown.length - 1 ? h : columns[k]!.align === 'right' ? padStart(h, w) : padEnd(h, w)
  })
  const style = options.headerStyle ?? ((s: string) => s)
  const out = options.noHeader === true ? [] : [style(`${indent}${head.join(' '.repeat(gap))}`.trimEnd())]
  let r = -1
  for (const entry of allRows) {
    if (isLine(entry)) {
      out.push(entry.line)
      continue
    }
    r++
    const row = entry
    const lines = shown.map((k) => layCell(row[k] ?? '', columns[k]!, widthOf.get(k)!))
    const height = Math.max(1, ...lines.map((l) => l.length))
    for (let i = 0; i < height; i++) {
      const cells = shown.map((k, j) => {
        const text = lines[j]![i] ?? ''
        const w = widthOf.get(k)!
        return j === shown.length - 1 ? text : columns[k]!.align === 'right' ? padStart(text, w) : padEnd(text, w)
      })
      out.push(`${indent}${cells.join(' '.repeat(gap))}`.trimEnd())
    }
    for (const k of under) {
      const text = plain[r]![k] ?? ''
      if (text !== '') out.push(...wrap(text, options.width - underIndent.length).map((l) => `${underIndent}${styleOf(row[k] ?? '')(l)}`))
    }
    for (const k of stacked) {
      const text = plain[r]![k] ?? ''
      if (text === '') continue
      const name = columns[k]!.stackLabel ?? columns[k]!.header
      const label = name === '' ? '' : `${name}: `
      const room = options.width - indent.length - 4 - label.length
      wrap(text, room).forEach((l, i) => out.push(`${indent}    ${i === 0 ? label : ' '.repeat(label.length)}${styleOf(row[k] ?? '')(l)}`))
    }
    if (options.after !== undefined) out.push(...options.after(r))
  }
  return out
}

function isLine(r: readonly Cell[] | TableLine): r is TableLine {
  return !Array.isArray(r)
}

function cellText(c: Cell): string {
  return typeof c === 'string' ? c : c.text
}

function styleOf(c: Cell): (s: string) => string {
  return typeof c === 'string' ? (s) => s : c.style
}

function maxLineWidth(text: string): number {
  return Math.max(0, ...text.split('\n').map(visibleWidth))
}

/** The cell's lines at this width: whole, wrapped, or cut at a word boundary. */
function layCell(cell: Cell, column: Column, width: number): string[] {
  const text = cellText(cell)
  const style = styleOf(cell)
  const lines = maxLineWidth(text) <= width ? text.split('\n') : column.flex === 'cut' ? text.split('\n').map((l) => truncate(l, width)) : wrap(text, width)
  return lines.map((l) => (l === '' ? l : style(l)))
}

/**
 * Column widths that fit `room`: the natural ones if they do; otherwise the widest flexible
 * columns are brought down together to one level (never below their minimum) until the row fits.
 */
export function fitWidths(cols: readonly {natural: number; min: number; flex: boolean}[], room: number): number[] {
  const widths = cols.map((c) => c.natural)
  let excess = widths.reduce((a, b) => a + b, 0) - room
  while (excess > 0) {
    const flexible = cols.map((c, i) => i).filter((i) => cols[i]!.flex && widths[i]! > cols[i]!.min)
    if (flexible.length === 0) break
    const widest = Math.max(...flexible.map((i) => widths[i]!))
    const top = flexible.filter((i) => widths[i] === widest)
    const next = Math.max(...flexible.filter((i) => widths[i]! < widest).map((i) => widths[i]!), ...top.map((i) => cols[i]!.min))
    // bring the widest down to the next level, or less when that already fits
    const step = Math.min(widest - next, Math.ceil(excess / top.length))
    for (const i of top) {
      const cut = Math.min(step, widths[i]! - cols[i]!.min, excess)
      widths[i] = widths[i]! - cut
      excess -= cut
    }
  }
  return widths
}
