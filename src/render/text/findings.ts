import type {Finding} from '../../model/finding.js'
import {orderCauseChain, type ChainEntry} from './cause-chain.js'
import type {Evidence} from '../../model/evidence.js'
import {describeSource} from './change-names.js'
import {formatTurns, padEnd, truncate, visibleWidth, wrap} from './layout.js'
import {colourSeverity, evidenceQuote, formatEvidence, SEVERITY_LABEL, type TextOptions} from './text-options.js'

const MAX_CODE_COLUMN = 34
const MAX_TURNS_COLUMN = 12
const MAX_EVIDENCE = 6
/** Columns the message keeps beside the code and turns; fewer, and it goes under them. */
const MIN_MESSAGE = 40
/** A quoted line takes at most this many lines of the report; --json holds it whole. */
const QUOTE_LINES = 2

/**
 * A task's findings as a cause chain: root causes first, each effect drawn under its cause with
 * `└▶`, most severe first at each level. A line is: number, severity, code, turns, message.
 * Inferred findings say so; --verbose adds the deduction, the evidence and the fix per finding.
 */
export function renderCauseChain(findings: readonly Finding[], o: TextOptions, indent = '  ', maxEvidence = MAX_EVIDENCE): string[] {
  const p = o.palette
  const chain = orderCauseChain(findings)
  if (chain.length === 0) return []
  const labels = chain.map((e) => ({e, left: `${treePrefix(e)}${String(e.number).padStart(2)} `}))
  const codeColumn = Math.max(...labels.map(({e, left}) => visibleWidth(left) + e.finding.code.length))
  const turnsColumn = Math.max(0, ...chain.map((e) => formatTurns(e.finding.turns).length))
  // columns when the message keeps room for a readable line beside them; otherwise under the code
  const columnsGutter = indent.length + 5 + codeColumn + 2 + (turnsColumn === 0 ? 0 : turnsColumn + 2)
  const columns = codeColumn <= MAX_CODE_COLUMN && turnsColumn <= MAX_TURNS_COLUMN && o.width - columnsGutter >= MIN_MESSAGE
  const title = `${indent}${p.bold('cause chain')}`
  const note = '(└▶ follows from the line above; most severe first)'
  const out = visibleWidth(title) + 2 + visibleWidth(note) <= o.width ? [`${title}  ${p.dim(note)}`] : [title, ...wrap(note, o.width - indent.length - 2).map((l) => `${indent}  ${p.dim(l)}`)]
  for (const {e, left} of labels) {
    const f = e.finding
    const turns = formatTurns(f.turns)
    const severity = colourSeverity(p, f.severity, SEVERITY_LABEL[f.severity].padEnd(4))
    const head = `${indent}${severity} ${left}${colourSeverity(p, f.severity, f.code)}`
    const message = `${f.message}${messageSuffix(e)}`
    if (columns) {
      const gutter = columnsGutter
      const lines = wrap(message, o.width - gutter)
      const turnsCell = turnsColumn === 0 ? '' : `${p.dim(padEnd(turns, turnsColumn))}  `
      out.push(`${padEnd(head, indent.length + 5 + codeColumn)}  ${turnsCell}${lines[0] ?? ''}`)
      out.push(...lines.slice(1).map((l) => `${' '.repeat(gutter)}${l}`))
      if (o.verbose) out.push(...findingDetail(f, o, o.width - gutter, maxEvidence).map((l) => `${' '.repeat(gutter)}${l}`))
    } else {
      const gutter = indent.length + 5 + visibleWidth(left)
      out.push(turns === '' || visibleWidth(head) + 2 + turns.length > o.width ? head : `${head}  ${p.dim(turns)}`)
      if (turns !== '' && visibleWidth(head) + 2 + turns.length > o.width) out.push(...wrap(turns.replace(/,/g, ', '), o.width - gutter).map((l) => `${' '.repeat(gutter)}${p.dim(l)}`))
      out.push(...wrap(message, o.width - gutter).map((l) => `${' '.repeat(gutter)}${l}`))
      if (o.verbose) out.push(...findingDetail(f, o, o.width - gutter, maxEvidence).map((l) => `${' '.repeat(gutter)}${l}`))
    }
  }
  return out
}

function treePrefix(e: ChainEntry): string {
  return e.depth === 0 ? '  ' : `${'  '.repeat(e.depth - 1)}└▶`
}

function messageSuffix(e: ChainEntry): string {
  const parts: string[] = []
  if (e.finding.confidence === 'inferred') parts.push('inferred')
  if (e.alsoFollows.length > 0) parts.push(`also follows from ${e.alsoFollows.join(', ')}`)
  return parts.length === 0 ? '' : ` (${parts.join('; ')})`
}

/** The evidence behind one finding, and how to act on it (--verbose, explain). */
export function findingDetail(f: Finding, o: TextOptions, width: number, maxEvidence = MAX_EVIDENCE): string[] {
  const p = o.palette
  const out: string[] = []
  if (f.deduction !== undefined) out.push(...wrap(`deduced: ${f.deduction}`, width).map((l) => p.dim(l)))
  for (const e of f.evidence.slice(0, maxEvidence)) out.push(...evidenceLines(e, width).map((l) => p.dim(l)))
  if (f.evidence.length > maxEvidence) out.push(p.dim(`… ${f.evidence.length - maxEvidence} more places (explain or --json lists them all)`))
  out.push(...wrap(`source ${f.source.function} (${describeSource(f.source.spec)}) · ${f.confidence} · ${f.id}`, width).map((l) => p.dim(l)))
  return out
}

/**
 * `at run.log:253` and, when the evidence carries the line's text, that text quoted beside it (or
 * under it, when it does not fit): trimmed, cut at a word after two lines.
 */
export function evidenceLines(e: Evidence, width: number): string[] {
  const where = wrap(`at ${formatEvidence(e)}`, width - 2).map((l, i) => (i === 0 ? l : `  ${l}`))
  const last = where[where.length - 1]!
  const quote = evidenceQuote(e)
  if (quote === '') return where
  if (visibleWidth(last) + 4 + visibleWidth(quote) <= width) return [...where.slice(0, -1), `${last}  “${quote}”`]
  const lines = wrap(`“${truncate(quote, QUOTE_LINES * (width - 2) - 4)}”`, width - 2)
  return [...where, ...lines.map((l) => `  ${l}`)]
}
