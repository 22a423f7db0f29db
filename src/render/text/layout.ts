/**
 * Width-aware text layout for the terminal renderers: ANSI-aware widths, word wrapping, labelled
 * columns with a hanging indent. Widths count code points, not UTF-16 units, so ✓, ▶ and accented
 * names line up.
 */

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g

/** The width a string takes on the terminal, colour codes excluded. */
export function visibleWidth(s: string): number {
  let n = 0
  for (const _ of s.replace(ANSI, '')) n++
  return n
}

/** Pads to `width` visible columns (colour codes do not count). */
export function padEnd(s: string, width: number): string {
  const w = visibleWidth(s)
  return w >= width ? s : s + ' '.repeat(width - w)
}

export function padStart(s: string, width: number): string {
  const w = visibleWidth(s)
  return w >= width ? s : ' '.repeat(width - w) + s
}

/** Cuts plain text to `width` code points, marking the cut with `…`. */
export function truncate(s: string, width: number): string {
  const chars = [...s]
  if (chars.length <= width) return s
  return width <= 1 ? '…' : `${chars.slice(0, width - 1).join('')}…`
}

/**
 * Word-wraps plain text to lines of at most `width` code points; words longer than a line are cut.
 * Existing line breaks are kept.
 */
export function wrap(text: string, width: number): string[] {
  const max = Math.max(8, width)
  const out: string[] = []
  for (const paragraph of text.split('\n')) {
    let line = ''
    for (const word of paragraph.split(' ')) {
      if (word === '') continue
      let rest = word
      while (visibleWidth(rest) > max) {
        if (line !== '') {
          out.push(line)
          line = ''
        }
        const chars = [...rest]
        out.push(chars.slice(0, max).join(''))
        rest = chars.slice(max).join('')
      }
      if (line === '') line = rest
      else if (visibleWidth(line) + 1 + visibleWidth(rest) <= max) line += ` ${rest}`
      else {
        out.push(line)
        line = rest
      }
    }
    out.push(line)
  }
  return out
}

/**
 * `label` in a column of `labelWidth`, then `text` wrapped to the remaining width with every
 * continuation line under the first: the layout of the report's `why` / `fixed` / `do now` rows.
 */
export function labelled(indent: string, label: string, labelWidth: number, text: string, width: number, styleLabel: (s: string) => string = (s) => s): string[] {
  const gutter = indent.length + labelWidth + 2
  const lines = wrap(text, width - gutter)
  return lines.map((line, i) => (i === 0 ? `${indent}${styleLabel(padEnd(label, labelWidth))}  ${line}` : `${' '.repeat(gutter)}${line}`))
}

/** Turn numbers as compact ranges: [1, 3, 4, 5, 17] → `t1,t3–t5,t17`. */
export function formatTurns(turns: readonly number[], prefix = 't'): string {
  const sorted = [...new Set(turns)].sort((a, b) => a - b)
  const parts: string[] = []
  let i = 0
  while (i < sorted.length) {
    let j = i
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++
    parts.push(j === i ? `${prefix}${sorted[i]}` : j === i + 1 ? `${prefix}${sorted[i]},${prefix}${sorted[j]}` : `${prefix}${sorted[i]}–${prefix}${sorted[j]}`)
    i = j + 1
  }
  return parts.join(',')
}

/** Turn numbers in words: `turn 5`, `turns 1, 3–17`. */
export function describeTurns(turns: readonly number[]): string {
  const sorted = [...new Set(turns)].sort((a, b) => a - b)
  return `${sorted.length === 1 ? 'turn' : 'turns'} ${formatTurns(sorted, '').replace(/,/g, ', ')}`
}

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`
}

/** A path as a shell argument: quoted only when it has to be. */
export function shellQuote(path: string): string {
  return /^[\w./@:+-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`
}

/** The first line of a text, without leading blank lines. */
export function firstLine(text: string): string {
  return text.split('\n').find((l) => l.trim() !== '') ?? ''
}

// eslint-disable-next-line no-control-regex
const OURS = /\x1b\[[0-9;]*m/y

/**
 * Makes a finished report safe for a terminal: text from the records (feedback, task files, log
 * lines) may carry control characters. Every control character except newline and tab becomes
 * `�`; with `keepColour`, the SGR colour codes the palette wrote are kept, any other escape is not.
 */
export function sanitizeForTerminal(text: string, keepColour: boolean): string {
  let out = ''
  let i = 0
  while (i < text.length) {
    const c = text.charCodeAt(i)
    if (c === 0x1b && keepColour) {
      OURS.lastIndex = i
      const m = OURS.exec(text)
      if (m !== null) {
        out += m[0]
        i += m[0].length
        continue
      }
    }
    if (c === 0x0d) {
      i++
      continue
    }
    const control = (c < 0x20 && c !== 0x0a && c !== 0x09) || (c >= 0x7f && c <= 0x9f)
    out += control ? '�' : text[i]
    i++
  }
  return out
}
