import type {Evidence} from '../../model/evidence.js'
import type {TaskRun, TurnRecord} from '../../model/run-record.js'
import {evidenceQuote, formatEvidence} from '../text/text-options.js'
import {html, join, type Html} from './html.js'

/**
 * Which turn a piece of evidence belongs to: a log line inside the span of lines a turn's records
 * came from, or an artifact named `…_turn_N.json`. Null when it belongs to no one turn.
 */
export type TurnOfEvidence = (e: Evidence) => number | null

export function indexTurnEvidence(task: TaskRun): TurnOfEvidence {
  const spans: {turn: number; file: string; from: number; to: number}[] = []
  for (const t of task.turns) {
    const byFile = new Map<string, {from: number; to: number}>()
    for (const e of turnEvidence(t)) {
      if (e.line === undefined) continue
      const s = byFile.get(e.file)
      byFile.set(e.file, s === undefined ? {from: e.line, to: e.line} : {from: Math.min(s.from, e.line), to: Math.max(s.to, e.line)})
    }
    for (const [file, s] of byFile) spans.push({turn: t.turn, file, ...s})
  }
  const turns = new Set(task.turns.map((t) => t.turn))
  return (e) => {
    if (e.line !== undefined) {
      const hit = spans.filter((s) => s.file === e.file && s.from <= e.line! && e.line! <= s.to)
      return hit.length === 1 ? hit[0]!.turn : null
    }
    const m = /_turn_(\d+)\.json$/.exec(e.file)
    const turn = m === null ? null : Number(m[1])
    return turn !== null && turns.has(turn) ? turn : null
  }
}

/** Every piece of evidence a turn's records carry (facts two levels deep, feedback). */
export function turnEvidence(t: TurnRecord): Evidence[] {
  const out: Evidence[] = []
  const collect = (value: unknown, depth: number) => {
    if (value === null || typeof value !== 'object' || depth > 2) return
    const ev = (value as {evidence?: unknown}).evidence
    if (Array.isArray(ev)) out.push(...(ev as Evidence[]))
    else for (const v of Object.values(value as Record<string, unknown>)) collect(v, depth + 1)
  }
  collect(t.player, 0)
  collect(t.coach, 0)
  collect(t.stateRecovery, 1)
  collect(t.checkpoint, 1)
  collect(t.perspectiveReset, 1)
  return out
}

export function turnLink(base: string, turn: number, text: string = `t${turn}`): Html {
  return html`<a href="#${base}-t${turn}">${text}</a>`
}

/** Turn numbers as links, consecutive runs as ranges: t1, t3–t17. */
export function turnLinks(base: string, turns: readonly number[]): Html {
  const sorted = [...new Set(turns)].sort((a, b) => a - b)
  const parts: Html[] = []
  for (let i = 0; i < sorted.length; ) {
    let j = i
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++
    parts.push(j === i ? turnLink(base, sorted[i]!) : html`${turnLink(base, sorted[i]!)}–${turnLink(base, sorted[j]!)}`)
    i = j + 1
  }
  return join(parts, ', ')
}

/**
 * Evidence as a list: `run.log:253` (with its note), and the turn it belongs to as a link. `idPrefix`
 * gives each item an anchor (`f3-e2`) so that a reference to it can be linked.
 */
export function evidenceList(evidence: readonly Evidence[], base: string, turnOf: TurnOfEvidence, idPrefix: string | null = null, max = 40): Html {
  if (evidence.length === 0) return html``
  const more = evidence.length - max
  return html`<ul class="plain evidence">${evidence.slice(0, max).map((e, i) => {
    const turn = turnOf(e)
    return html`<li${idPrefix === null ? '' : html` id="${idPrefix}-e${i + 1}"`}><code>${formatEvidence({...e, note: undefined})}</code>${e.note === undefined ? '' : html` <span class="muted">${e.note}</span>`}${turn === null ? '' : html` · ${turnLink(base, turn, `turn ${turn}`)}`}${quoted(e)}</li>`
  })}${more > 0 ? html`<li class="muted">+${more} more (the JSON report and \`explain\` list them all)</li>` : ''}</ul>`
}

/** Columns of a quoted log line on the page; the JSON report holds it whole. */
const QUOTE = 300

/** The line's text, when the evidence carries it: quoted under the place, escaped like every record string. */
export function quoted(e: Evidence): Html {
  const quote = evidenceQuote(e, QUOTE)
  return quote === '' ? html`` : html`<q class="quote">${quote}</q>`
}

/** Evidence inline, comma-separated, for places with little room. */
export function evidenceInline(evidence: readonly Evidence[], max = 4): Html {
  const shown = evidence.slice(0, max).map((e) => html`<code>${formatEvidence(e)}</code>`)
  return html`${join(shown, ', ')}${evidence.length > max ? html` <span class="muted">+${evidence.length - max} more</span>` : ''}`
}
