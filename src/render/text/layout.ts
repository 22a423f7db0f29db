import {displayWidth, graphemes, takeWidth} from '../../shared/display-width.js'

/**
 * Width-aware text layout for the terminal renderers: display widths (CJK and emoji take two
 * columns, combining marks none; colour codes none), word wrapping, cuts at word boundaries, labelled
 * columns with a hanging indent.
 */

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g

/** The columns a string takes on the terminal, colour codes excluded. */
export function visibleWidth(s: string): number {
  return displayWidth(s.includes('\x1b') ? s.replace(ANSI, '') : s)
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

/**
 * Cuts plain text to `width` columns at a word boundary, marking the cut with `…` ("absent
 * requirements_met" becomes "absent…", never "absent requireme…"). A single word longer than the
 * room is cut where it must be, between two characters.
 */
export function truncate(s: string, width: number): string {
  if (visibleWidth(s) <= width) return s
  if (width <= 1) return '…'
  const head = takeWidth(s, width - 1)
  const space = head.lastIndexOf(' ')
  // whole words unless the only boundary is so early that a long word (a path, an id) would vanish
  const cut = space > 0 && visibleWidth(head.slice(0, space)) >= (width - 1) / 4 ? head.slice(0, space) : head
  return `${cut.replace(/[\s,;:(]+$/, '')}…`
}

/**
 * Word-wraps text to lines of at most `width` columns; words longer than a line are cut between
 * characters. Existing line breaks are kept.
 */
export function wrap(text: string, width: number): string[] {
  const max = Math.max(8, width)
  const out: string[] = []
  for (const paragraph of text.split('\n')) {
    let line = ''
    let lineWidth = 0
    for (const word of paragraph.split(' ')) {
      if (word === '') continue
      let rest = word
      let restWidth = visibleWidth(rest)
      while (restWidth > max) {
        // a long word (a path) starts on the current line when a fair part of it fits there
        const room = line === '' ? max : max - lineWidth - 1
        if (line !== '' && room < max / 3) {
          out.push(line)
          line = ''
          lineWidth = 0
        }
        const piece = breakLongWord(rest, line === '' ? max : room)
        if (line !== '') {
          out.push(`${line} ${piece}`)
          line = ''
          lineWidth = 0
          rest = rest.slice(piece.length)
          restWidth = visibleWidth(rest)
          continue
        }
        out.push(piece)
        rest = rest.slice(piece.length)
        restWidth = visibleWidth(rest)
      }
      if (line === '') {
        line = rest
        lineWidth = restWidth
      } else if (lineWidth + 1 + restWidth <= max) {
        line += ` ${rest}`
        lineWidth += 1 + restWidth
      } else {
        out.push(line)
        line = rest
        lineWidth = restWidth
      }
    }
    out.push(line)
  }
  return out
}

/**
 * The start of a word too long for a line: up to just after its last `/`, `#`, `-`, `_` or `.` that
 * fits (a path breaks between its parts), else as much as fits.
 */
function breakLongWord(word: string, max: number): string {
  const head = takeWidth(word, max) || graphemes(word)[0]!
  let at = -1
  for (const c of ['/', '#', '-', '_', '.']) at = Math.max(at, head.lastIndexOf(c))
  return at + 1 >= head.length / 3 && at + 1 < word.length ? head.slice(0, at + 1) : head
}

/**
 * The last guard of every text report (render/present.ts): a line still wider than `width` — prose
 * a renderer printed whole, a long path — is word-wrapped under its own indentation plus two. Tables
 * and labelled rows are laid out to fit before they get here, so this leaves them alone.
 */
export function fitToWidth(text: string, width: number): string {
  if (!Number.isFinite(width)) return text
  const out: string[] = []
  for (const line of text.split('\n')) {
    if (visibleWidth(line) <= width) {
      out.push(line)
      continue
    }
    const indent = /^ */.exec(line)![0]
    const lines = wrap(line.slice(indent.length), width - indent.length - 2)
    out.push(...lines.map((l, i) => `${indent}${i === 0 ? '' : '  '}${l}`))
  }
  return out.join('\n')
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

/**
 * A shell command that fits `width`: whole on one line when it can, else broken between its words
 * with ` \` line continuations (so that it still pastes into a shell as one command), each
 * continuation indented by two more. A `note` follows on the same line when it fits there, else on
 * the next line under the command.
 */
export function shellLines(indent: string, command: string, width: number, note = '', styleNote: (s: string) => string = (s) => s): string[] {
  const room = width - visibleWidth(indent)
  const lines: string[] = []
  let line = ''
  for (const word of visibleWidth(command) <= room ? [command] : shellWords(command)) {
    if (line === '') line = word
    else if (visibleWidth(line) + 1 + visibleWidth(word) + 2 <= room - (lines.length === 0 ? 0 : 2)) line += ` ${word}`
    else {
      lines.push(line)
      line = word
    }
  }
  if (line !== '' || lines.length === 0) lines.push(line)
  // continuation lines are indented as far as the first line's prefix (which may be a label: `reproduce: `)
  const pad = ' '.repeat(visibleWidth(indent))
  const out = lines.length === 1 ? [`${indent}${lines[0]}`] : lines.map((l, i) => `${i === 0 ? indent : `${pad}  `}${l}${i === lines.length - 1 ? '' : ' \\'}`)
  if (note === '') return out
  const last = out[out.length - 1]!
  if (visibleWidth(last) + 3 + visibleWidth(note) <= width) return [...out.slice(0, -1), `${last}   ${styleNote(note)}`]
  return [...out, ...wrap(note, room - 2).map((l) => `${' '.repeat(visibleWidth(indent))}  ${styleNote(l)}`)]
}

/** A command's words, a flag kept with its value (`--task X`), for breaking lines between them. */
function shellWords(command: string): string[] {
  const words: string[] = []
  for (const w of command.split(' ')) {
    const last = words[words.length - 1]
    if (last !== undefined && /^--?[\w-]+$/.test(last) && !w.startsWith('-')) words[words.length - 1] = `${last} ${w}`
    else words.push(w)
  }
  return words
}

/** The first line of a text, without leading blank lines. */
export function firstLine(text: string): string {
  return text.split('\n').find((l) => l.trim() !== '') ?? ''
}
