import type {TaskAnalysis} from '../../explain/analysis.js'
import type {Finding} from '../../model/finding.js'
import type {TurnRecord} from '../../model/run-record.js'
import {clip, html, join, type Html} from './html.js'
import {signatureColour} from './signature-colour.js'
import {buildTimeline, type Lane, type LegendEntry, type Marker, type SignatureCell, type Timeline, type TimelineRow} from './timeline-model.js'
import {renderTurnDetail} from './turn-detail.js'

export interface TimelineContext {
  readonly task: TaskAnalysis
  /** Anchor of the task (`TASK-DB-003`); turns are `${base}-t${turn}`. */
  readonly base: string
  readonly profiles: readonly string[]
  readonly runPath: string
}

/**
 * The task's turns as rows, oldest first; a row opens (a plain `<details>`, whose native semantics
 * tell keyboards and screen readers it expands) onto the turn's feedback, every lane's window and
 * reason, its events, evidence and findings. Each row carries `data-turn`, each marker
 * `data-marker`, for the browser test and for scripts. The column header is drawn for the eye; each
 * cell carries its column's name (`.lbl`), read by screen readers and shown on a narrow screen, where
 * a row's cells wrap instead of scrolling sideways (docs/html-report.md "Narrow screens").
 */
export function renderTimeline(ctx: TimelineContext): Html {
  const tl = buildTimeline(ctx.task, ctx.profiles)
  if (tl.rows.length === 0) return html`<p class="muted">No turn was recorded for this task.</p>`
  // fixed widths: every row is its own grid, and the columns must line up from row to row
  const cols = `3.6em 6.8em 6.8em 7.6em repeat(${tl.lanes.length}, 9.2em) minmax(14em, 1fr)`
  const minWidth = `${(3.6 + 6.8 + 6.8 + 7.6 + tl.lanes.length * 9.2 + 14).toFixed(1)}em`
  const byTurn = findingsByTurn(ctx.task.findings)
  return html`<div class="tl-wrap"><div class="tl" data-task="${ctx.task.task.taskId}" data-turns="${tl.rows.length}" style="--cols:${cols};--min-width:${minWidth}">
<div class="tl-row tl-head" aria-hidden="true"><span>turn</span><span>Player</span><span>Coach</span><span>criteria met</span>${tl.lanes.map((l) => html`<span title="${laneTitle(l)}">${laneLabel(l)}</span>`)}<span>markers</span></div>
${tl.rows.map((row) => renderRow(ctx, tl, row, byTurn.get(row.turn) ?? []))}
</div></div>
${renderLegend(tl)}`
}

function renderRow(ctx: TimelineContext, tl: Timeline, row: TimelineRow, findings: readonly Finding[]): Html {
  const classes = ['tl-turn', row.wasted ? 'wasted' : '', row.markers.some((m) => ENDS.has(m.kind)) ? 'ends' : '', row.markers.some((m) => m.kind === 'fixed-stall') ? 'stops' : ''].filter((c) => c !== '').join(' ')
  const rec = row.record
  return html`<details class="${classes}" id="${ctx.base}-t${row.turn}" data-turn="${row.turn}"${row.wasted ? html` data-wasted="true"` : ''}>
<summary class="tl-row"><span class="tl-num"${row.wasted ? html` title="after the turn where the loop should have stopped"` : ''}><span class="lbl">turn </span>${row.turn}</span><span>${label('Player')}${playerCell(rec)}</span><span>${label('Coach')}${coachCell(rec)}</span><span>${label('criteria met')}${criteriaCell(rec)}</span>${row.cells.map((c, i) => laneCell(tl, tl.lanes[i]!, row.turn, c))}<span class="markers">${row.wasted ? html`<span class="chip chip-wasted" data-marker-wasted="true">wasted</span>` : ''}${row.markers.map(markerChip)}</span></summary>
<div class="tl-more">${renderTurnDetail({...ctx, row, lanes: tl.lanes, findings})}</div>
</details>`
}

/** A cell's column name: for screen readers, and shown when a narrow screen wraps the row. */
function label(name: string): Html {
  return html`<span class="lbl">${name}: </span>`
}

const ENDS = new Set(['timeout', 'cancelled', 'max-turns', 'crash', 'critical-error', 'recorded-end', 'recorded-stall'])

function playerCell(rec: TurnRecord | null): Html {
  const s = rec?.player.status?.value ?? null
  if (s === null) return html`<span class="muted">—</span>`
  if (s === 'success') return html`<span class="ok">✓ success</span>`
  if (s === 'error') return html`<span class="bad" title="${rec?.player.error?.value ?? ''}">✗ error</span>`
  return html`<span class="warn" title="the Player's report was missing; state recovery ran">↺ recovered</span>`
}

function coachCell(rec: TurnRecord | null): Html {
  const d = rec?.coach.decision?.value ?? null
  if (d === null) return html`<span class="muted" title="no Coach decision recorded">—</span>`
  if (d === 'approve') return html`<span class="ok">✓ approve</span>`
  if (d === 'feedback') return html`<span class="warn">↩ feedback</span>`
  return html`<span class="bad">✗ ${d}</span>`
}

const BAR = 56

function criteriaCell(rec: TurnRecord | null): Html {
  const met = rec?.coach.criteriaMet?.value ?? null
  const total = rec?.coach.criteriaTotal?.value ?? null
  if (met === null || total === null || total <= 0) return html`<span class="muted">—</span>`
  const width = Math.round((Math.max(0, Math.min(met, total)) / total) * BAR)
  return html`<svg class="bar" width="${BAR}" height="10" viewBox="0 0 ${BAR} 10" role="img" aria-label="${met} of ${total} criteria met"><rect width="${BAR}" height="10" rx="2" fill="#e4e8ec"/><rect width="${width}" height="10" rx="2" fill="${met === total ? '#1a7f37' : '#bf8700'}"/></svg><span class="mono">${met}/${total}</span>`
}

function laneCell(tl: Timeline, lane: Lane, turn: number, c: SignatureCell): Html {
  const win = lane.fired !== null && lane.fired.window.includes(turn)
  const first = win && lane.fired!.window[0] === turn
  const last = win && lane.fired!.window[lane.fired!.window.length - 1] === turn
  const classes = ['lane', win ? 'win' : '', first ? 'win-first' : '', last ? 'win-last' : ''].filter((x) => x !== '').join(' ')
  const attrs = win ? html` data-window="${lane.key}"` : ''
  return html`<span class="${classes}" data-lane="${lane.key}"${attrs}>${label(laneLabel(lane))}${cellContent(c)}</span>`
}

function cellContent(c: SignatureCell): Html {
  switch (c.kind) {
    case 'signature': {
      const colour = signatureColour(c.signature)
      const title = `${c.signature}${c.approximate ? ' (approximate)' : ''}${c.count === null ? '' : `; count ${c.count}`}${c.reason === null ? '' : `; ${c.reason}`}`
      const sig = html`<span class="sig${c.approximate ? ' approx' : ''}${c.fired ? ' fired' : ''}" style="background:${colour.background};border-color:${colour.border}" title="${title}" data-sig="${c.signature}">${short(c.signature)}${c.approximate ? '~' : ''}</span>`
      return c.fired ? html`${sig}<strong class="bad small" data-fired="true" title="${c.reason ?? ''}">fires</strong>` : sig
    }
    case 'not-in-log':
      return html`<span class="nosig" title="the turn had feedback, but its text is not in the records">(not in log)</span>`
    case 'not-rebuildable':
      return html`<span class="nosig" title="this profile words the feedback otherwise than the run did, and its own text is not in the records">(own text?)</span>`
    case 'depends':
      return html`<span class="nosig" title="the outcome is undetermined: the branches sign this turn differently">(depends)</span>`
    case 'none':
      if (c.decision === 'approve') return html`<span class="ok small" title="approves: no feedback">✓ approves</span>`
      if (c.decision === 'error') return html`<span class="bad small" title="the turn ended in an error: no feedback">✗ error</span>`
      return html`<span class="nosig" title="no feedback this turn">—</span>`
    case 'stopped':
      return html`<span class="nosig stopped" title="this profile's loop had already ended">stopped</span>`
  }
}

/** Eight hex digits fit a cell; longer or odd signatures are cut, the title keeps them whole. */
function short(signature: string): string {
  return [...signature].length <= 10 ? signature : `${[...signature].slice(0, 8).join('')}…`
}

export function markerChip(m: Marker): Html {
  return html`<span class="chip chip-${m.kind}" data-marker="${m.kind}"${m.profile === null ? '' : html` data-profile="${m.profile}"`}>${MARKER_ICON[m.kind]} ${m.label}</span>`
}

const MARKER_ICON: Readonly<Record<Marker['kind'], string>> = {
  'recorded-stall': '■',
  'fixed-stall': '◆',
  'profile-stall': '◇',
  'profile-end': '○',
  timeout: '◔',
  'player-timeout': '◔',
  cancelled: '✕',
  'max-turns': '▲',
  crash: '✕',
  'critical-error': '✕',
  pollution: '≈',
  rollback: '↶',
  'recorded-end': '●',
}

export function laneLabel(l: Lane): string {
  return l.key
}

function laneTitle(l: Lane): string {
  const what = l.basis === 'raw' ? 'md5 of the full feedback' : l.basis === 'normalised' ? 'md5 of the normalised feedback' : 'md5 of the feedback'
  return l.profile === null ? `recorded: the run's own stall detector over the recorded feedback (${what})` : `profile ${l.profile}: ${what}`
}

function renderLegend(tl: Timeline): Html {
  const sigs = tl.legend.map((e) => legendEntry(e))
  const fired = tl.lanes.filter((l) => l.fired !== null)
  return html`<div class="legend" aria-label="legend">
<span><strong>signatures</strong> (md5 of the feedback sent, 8 hex digits; same colour and label = same signature; ~ approximate; dashed = rebuilt from partial records):</span>
${sigs}
</div>
<div class="legend small">${tl.lanes.map((l) => html`<span><strong>${laneLabel(l)}</strong> ${laneTitle(l).replace(/^[^:]*: /, '')}</span>`)}
${fired.length === 0 ? html`<span class="muted">no lane's stall detector fired</span>` : fired.map((l) => html`<span data-window-legend="${l.key}"><strong>[ ]</strong> ${l.key}: window the rule looked at when it fired (turns ${join(l.fired!.window.map(String), ', ')}${tl.threshold === null ? '' : `; it needs ${tl.threshold} in a row`}): ${l.fired!.reason}</span>`)}
${tl.rows.some((r) => r.wasted) ? html`<span><span class="bad">▌</span> turns after the one where the loop should have stopped (wasted)</span>` : ''}
${tl.unplaced.length === 0 ? '' : html`<span>at no turn: ${tl.unplaced.map(markerChip)}</span>`}
</div>`
}

function legendEntry(e: LegendEntry): Html {
  const colour = signatureColour(e.signature)
  const where = e.where.map((w) => `${w.lane} ${formatTurnList(w.turns)}`).join('; ')
  return html`<span data-legend-sig="${e.signature}"><span class="sig" style="background:${colour.background};border-color:${colour.border}">${short(e.signature)}</span><span class="mono">${e.signature}</span><span class="muted">${where}${e.example === null ? '' : ` · “${clip(e.example, 60)}”`}</span></span>`
}

function formatTurnList(turns: readonly number[]): string {
  const sorted = [...new Set(turns)].sort((a, b) => a - b)
  const parts: string[] = []
  for (let i = 0; i < sorted.length; ) {
    let j = i
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++
    parts.push(j === i ? `t${sorted[i]}` : `t${sorted[i]}–t${sorted[j]}`)
    i = j + 1
  }
  return parts.join(',')
}

function findingsByTurn(findings: readonly Finding[]): Map<number, Finding[]> {
  const out = new Map<number, Finding[]>()
  for (const f of findings) for (const turn of new Set(f.turns)) out.set(turn, [...(out.get(turn) ?? []), f])
  return out
}
