import type {TaskAnalysis} from '../../explain/analysis.js'
import type {Evidence} from '../../model/evidence.js'
import type {Finding} from '../../model/finding.js'
import type {TaskEvent, TurnRecord} from '../../model/run-record.js'
import type {ReplayedTurn} from '../../replay/types.js'
import {shellQuote} from '../text/layout.js'
import {evidenceInline, turnEvidence} from './evidence.js'
import {anchorId, clip, html, join, type Html} from './html.js'
import {signatureColour} from './signature-colour.js'
import type {Lane, TimelineRow} from './timeline-model.js'

export interface TurnDetailContext {
  readonly task: TaskAnalysis
  readonly base: string
  readonly runPath: string
  readonly row: TimelineRow
  readonly lanes: readonly Lane[]
  readonly findings: readonly Finding[]
}

const MAX_FEEDBACK = 1500

/** What the row summarises, in full: the feedback, each lane's detector call, the records, events, findings. */
export function renderTurnDetail(ctx: TurnDetailContext): Html {
  const {row, task} = ctx
  const rec = row.record
  const events = task.task.events.filter((e) => eventTurn(e) === row.turn)
  return html`${feedbackBlock(ctx, rec)}
${laneTable(ctx)}
${recordBlock(rec)}
${events.length === 0 ? '' : html`<p><strong>events</strong></p><ul class="plain">${events.map((e) => html`<li>${describeEvent(e)} <span class="muted small">${evidenceInline(e.evidence)}</span></li>`)}</ul>`}
${ctx.findings.length === 0 ? '' : html`<p><strong>findings citing this turn</strong> ${join(ctx.findings.map((f) => html`<a href="#${anchorId(f.id)}">${f.id} ${f.code}</a>`), ', ')}</p>`}
<p class="small muted">records of this turn: ${rec === null ? 'none' : evidenceInline(uniqueEvidence(turnEvidence(rec)), 8)} · <a href="#${ctx.base}-t${row.turn}">link to this turn</a></p>
<p class="small">reproduce: <code>guardkit-replay explain ${shellQuote(ctx.runPath)} --task ${shellQuote(task.task.taskId)} --turn ${row.turn}</code></p>`
}

/** Each place once, log lines in order. */
function uniqueEvidence(evidence: readonly Evidence[]): Evidence[] {
  const seen = new Map(evidence.map((e) => [`${e.file}\u0000${e.line ?? ''}\u0000${e.pointer ?? ''}`, {...e, note: undefined}]))
  return [...seen.values()].sort((a, b) => (a.file === b.file ? (a.line ?? 0) - (b.line ?? 0) : a.file < b.file ? -1 : 1))
}

function feedbackBlock(ctx: TurnDetailContext, rec: TurnRecord | null): Html {
  const fb = rec?.coach.feedback ?? null
  if (fb !== null) {
    const how = fb.completeness === 'full' ? 'recorded in full' : `recorded, cut at ${fb.truncatedAt ?? '?'} characters by the log`
    return html`<p><strong>feedback the Player got</strong> <span class="muted small">(${how}; ${evidenceInline(fb.evidence)})</span></p><pre>${clip(fb.text, MAX_FEEDBACK)}</pre>`
  }
  const replayed = ctx.lanes.map((l) => (l.profile === null ? undefined : ctx.task.replays[l.profile]?.turns.find((u) => u.turn === ctx.row.turn))).find((u) => u?.feedback != null)
  if (replayed !== undefined && replayed.feedback !== null) {
    return html`<p><strong>feedback</strong> <span class="muted small">(not recorded; as the model rebuilt it: ${replayed.feedbackBasis})</span></p><pre>${clip(replayed.feedback, MAX_FEEDBACK)}</pre>`
  }
  return html`<p class="muted">No feedback text recorded for this turn.</p>`
}

/** One line per lane: what the Coach decided under it and what the stall detector saw and did. */
function laneTable(ctx: TurnDetailContext): Html {
  const stallRow = ctx.task.explain?.stall.rows.find((r) => r.turn === ctx.row.turn) ?? null
  const rows = ctx.lanes.map((lane) => {
    if (lane.profile === null) {
      const c = stallRow?.recorded.check ?? null
      const rec = ctx.row.record
      return laneRow(lane.key, rec?.coach.decision?.value ?? null, counts(rec?.coach.criteriaMet?.value ?? null, rec?.coach.criteriaTotal?.value ?? null), c?.rawSignature ?? null, c?.normalisedSignature ?? null, c?.signature ?? null, c?.count ?? null, c?.window ?? [], c === null ? null : c.fired, c?.reason ?? null, c === null ? 'as recorded' : `${c.fidelity} (${c.basis})`, [])
    }
    const u = ctx.task.replays[lane.profile]?.turns.find((x) => x.turn === ctx.row.turn)
    if (u === undefined) return html`<tr><th scope="row">${lane.key}</th><td colspan="7" class="muted">not replayed at this turn${ctx.row.cells[ctx.lanes.indexOf(lane)]?.kind === 'stopped' ? ': the loop had already ended' : ''}</td></tr>`
    const st = u.stall
    return laneRow(lane.key, u.decision, counts(u.criteriaMet, u.criteriaTotal), st?.rawSignature ?? u.detail.feedback.rawSignature, st?.normalisedSignature ?? u.detail.feedback.normalisedSignature, u.signature, st?.count ?? null, st?.window ?? [], st === null ? null : st.fired, st?.reason ?? skipped(u), fidelityText(u), notes(u))
  })
  return html`<table class="grid small"><caption>each lane on this turn</caption><thead><tr><th>lane</th><th>decision</th><th>criteria</th><th>signature (raw / normalised)</th><th>count</th><th>window the rule looked at</th><th>detector</th><th>fidelity</th></tr></thead><tbody>${rows}</tbody></table>`
}

function laneRow(
  lane: string, decision: string | null, criteria: string, rawSig: string | null, normSig: string | null, used: string | null, count: number | null,
  window: readonly {readonly turn: number; readonly signature: string; readonly count: number}[], fired: boolean | null, reason: string | null, fidelity: string, extra: readonly string[],
): Html {
  const sigs = rawSig === null && normSig === null ? (used === null ? html`<span class="muted">—</span>` : swatch(used)) : html`${rawSig === null ? '—' : swatch(rawSig, used === rawSig)} / ${normSig === null ? '—' : swatch(normSig, used === normSig)}`
  const win = window.length === 0 ? html`<span class="muted">—</span>` : join(window.map((w) => html`<span title="turn ${w.turn}, count ${w.count}">t${w.turn} ${swatch(w.signature)}</span>`), ' ')
  const detector = fired === null ? html`<span class="muted">${reason ?? 'not called'}</span>` : html`${fired ? html`<strong class="bad">fires</strong>` : 'does not fire'}${reason === null ? '' : html`: ${reason}`}`
  return html`<tr><th scope="row">${lane}</th><td>${decision ?? '—'}</td><td>${criteria}</td><td>${sigs}</td><td>${count ?? '—'}</td><td>${win}</td><td>${detector}</td><td>${fidelity}${extra.length === 0 ? '' : html`<ul class="plain">${extra.map((x) => html`<li>${x}</li>`)}</ul>`}</td></tr>`
}

function swatch(sig: string, used = true): Html {
  const c = signatureColour(sig)
  return html`<span class="sig${used ? '' : ' approx'}" style="background:${c.background};border-color:${c.border}" title="${sig}${used ? '' : ' (not the one this lane uses)'}">${[...sig].slice(0, 8).join('')}</span>`
}

function counts(met: number | null, total: number | null): string {
  return met === null && total === null ? '—' : `${met ?? '?'}/${total ?? '?'}`
}

function fidelityText(u: ReplayedTurn): string {
  return `${u.fidelity}${u.confidence === 'inferred' ? ', inferred (an earlier turn diverged)' : ''}${u.diverges ? '; differs from the record' : ''}`
}

function notes(u: ReplayedTurn): string[] {
  return [
    ...u.assumptions.map((a) => `assumes: ${a}`),
    ...u.missingInputs.map((m) => `missing: ${m}`),
    ...u.detail.differences.map((d) => `${d.field}: recorded ${String(d.recorded)}, replayed ${String(d.replayed)}`),
  ].map((x) => clip(x, 400))
}

function skipped(u: ReplayedTurn): string | null {
  const s = u.detail.loop.stallSkipped
  return s === null ? null : `not called (${s})`
}

function recordBlock(rec: TurnRecord | null): Html {
  if (rec === null) return html``
  const items: Html[] = []
  const p = rec.player
  if (p.status !== null) items.push(html`<dt>Player</dt><dd>${p.status.value}${p.error === null ? '' : html`: <span class="bad">${clip(p.error.value, 400)}</span>`}${p.reportSource === null ? '' : ` · report from ${p.reportSource.value}`}${p.promisesRecovered === null ? '' : ` · ${p.promisesRecovered.value} promises recovered`}${p.filesCreated === null && p.filesModified === null ? '' : ` · files ${p.filesCreated?.value ?? '?'} created, ${p.filesModified?.value ?? '?'} modified`}</dd>`)
  const c = rec.coach
  if (c.testCommand !== null) items.push(html`<dt>test command</dt><dd><code>${clip(c.testCommand.value, 600)}</code></dd>`)
  const it = c.independentTests?.value
  if (it !== undefined) items.push(html`<dt>Coach's tests</dt><dd>${it.skipped === true ? 'skipped' : it.passed ? html`<span class="ok">passed</span>` : html`<span class="bad">failed</span>`}${it.durationSeconds === null ? '' : ` in ${it.durationSeconds} s`}${c.testFailureClass == null ? '' : ` · classified ${c.testFailureClass.value.classification}`}</dd>`)
  const g = c.gates?.value
  if (g !== undefined) items.push(html`<dt>quality gates</dt><dd>${gate('tests', g.testsPassed)} ${gate('coverage', g.coverageMet)} ${gate('arch review', g.archReviewPassed)} ${gate('plan audit', g.planAuditPassed)} ${gate('all', g.allPassed)}</dd>`)
  if (c.missingCriteria !== null) items.push(html`<dt>missing criteria</dt><dd>${c.missingCriteria.value.length}</dd>`)
  if (rec.perspectiveReset?.value === true) items.push(html`<dt>perspective reset</dt><dd>yes</dd>`)
  if (rec.startedAt !== null || rec.endedAt !== null) items.push(html`<dt>time</dt><dd class="mono">${rec.startedAt ?? '?'} → ${rec.endedAt ?? '?'}</dd>`)
  return items.length === 0 ? html`` : html`<dl class="kv small">${items}</dl>`
}

function gate(name: string, value: boolean | null): Html {
  return value === null ? html`` : value ? html`<span class="ok">${name} ✓</span>` : html`<span class="bad">${name} ✗</span>`
}

export function eventTurn(e: TaskEvent): number | null {
  return 'turn' in e ? e.turn : null
}

export function describeEvent(e: TaskEvent): string {
  switch (e.kind) {
    case 'feature-timeout':
      return `feature task timeout${e.seconds === null ? '' : ` after ${e.seconds} s`}`
    case 'cancelled':
      return `cancelled (${e.where})`
    case 'max-turns-exceeded':
      return `max turns (${e.maxTurns}) exceeded`
    case 'timeout-budget-exhausted':
      return 'timeout budget exhausted'
    case 'critical-error':
      return `critical error${e.message === null ? '' : `: ${clip(e.message, 300)}`}`
    case 'orchestration-crash':
      return `orchestration crashed: ${clip(e.message, 300)}`
    case 'player-timeout':
      return `Player timed out${e.seconds === null ? '' : ` after ${e.seconds} s`}`
    case 'context-pollution':
      return `context pollution${e.failures === null ? '' : ` (${e.failures} failures)`}`
    case 'rollback':
      return `rolled back${e.toCheckpoint === null ? '' : ` to ${e.toCheckpoint}`}`
    case 'partial-progress-warning':
      return 'partial progress warning'
    case 'graphiti-error':
      return `Graphiti error (${e.errorKind})`
    case 'other':
      return `${e.name}: ${clip(e.detail, 300)}`
  }
}
