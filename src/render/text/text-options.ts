import type {Evidence} from '../../model/evidence.js'
import type {Severity} from '../../model/finding.js'
import {truncate} from './layout.js'
import {PLAIN, type Palette} from './plain-palette.js'

/** How a text report is drawn: colours (or none), the terminal width, and how much detail. */
export interface TextOptions {
  readonly palette: Palette
  /** Columns to fit; Infinity for no limit (stdout is not a terminal and COLUMNS is not set). */
  readonly width: number
  /** Per-turn detail and evidence lines. */
  readonly verbose: boolean
}

export const DEFAULT_WIDTH = 100
/** The narrowest layout: a narrower terminal gets 60 columns (and wraps them itself). */
export const MIN_WIDTH = 60

export function textOptions(options: Partial<TextOptions> = {}): TextOptions {
  return {palette: options.palette ?? PLAIN, width: Math.max(MIN_WIDTH, options.width ?? DEFAULT_WIDTH), verbose: options.verbose ?? false}
}

/** `run.log:541`, `…/coach_turn_3.json#/issues/0`, with the note when there is one. */
export function formatEvidence(e: Evidence): string {
  const where = `${e.file}${e.line === undefined ? '' : `:${e.line}`}${e.pointer === undefined ? '' : `#${e.pointer}`}`
  return e.note === undefined ? where : `${where} (${e.note})`
}

/**
 * The text of the line that proves a claim (log evidence carries it), ready to quote: whitespace
 * runs made one space and trimmed, then cut at a word boundary to `width` columns. '' when the
 * evidence has no text. Control characters are left to the report's final pass (neutraliseOutput,
 * src/shared/neutralise.ts, for text; md and html escape their own).
 */
export function evidenceQuote(e: Evidence, width = Number.POSITIVE_INFINITY): string {
  if (e.text === undefined) return ''
  const text = e.text.replace(/[\s\u00a0]+/g, ' ').trim()
  return text === '' ? '' : truncate(text, width)
}

/** Evidence as a short list: the first few places, then how many more. */
export function formatEvidenceList(evidence: readonly Evidence[], max = 3): string {
  if (evidence.length === 0) return ''
  const shown = evidence.slice(0, max).map((e) => formatEvidence({...e, note: undefined}))
  return evidence.length > max ? `${shown.join(', ')} +${evidence.length - max} more` : shown.join(', ')
}

export function colourSeverity(p: Palette, severity: Severity, text: string): string {
  switch (severity) {
    case 'critical':
      return p.bold(p.red(text))
    case 'high':
      return p.red(text)
    case 'medium':
      return p.yellow(text)
    case 'low':
      return text
    case 'info':
      return p.dim(text)
  }
}

export const SEVERITY_LABEL: Readonly<Record<Severity, string>> = {critical: 'crit', high: 'high', medium: 'med', low: 'low', info: 'info'}
