import type {TaskAnalysis} from '../../explain/analysis.js'
import type {CriteriaTurn, CriterionRow} from '../../explain/criteria-table.js'
import {buildZeroOfN, type ProfileCriteria} from '../text/zero-of-n.js'
import {evidenceInline, turnLink, turnLinks} from './evidence.js'
import {clip, html, type Html} from './html.js'

/**
 * The 0/N table (docs/html-report.md "What the run page shows"): on the first 0/N turn, one row per
 * criterion and one column per profile that judged it: verified or not, the strategy step that
 * decided, the promise and its evidence type, the closest requirement and its score against the rule.
 * Then where the Player's claims were lost, and GuardKit's own dump. Null when no recorded turn was 0/N.
 */
export function renderCriteria(t: TaskAnalysis, profiles: readonly string[], base: string): Html | null {
  const view = buildZeroOfN(t, profiles)
  if (view === null) return null
  const structured = new Map((t.explain?.criteria ?? []).filter((c) => c.turn === view.turn).map((c) => [c.profile, c]))
  const judged = view.perProfile.filter((p) => p.criteria.length > 0)
  const head = html`<p><strong>0/${view.total}</strong> on ${turnLinks(base, view.zeroTurns)}${view.zeroTurns.length > 1 ? html`; as judged on ${turnLink(base, view.turn, `turn ${view.turn}`)}` : ''}</p>`
  const notes = html`<ul class="plain small">${view.perProfile.map((p) => html`<li><strong>${p.profile}</strong>: ${p.strategy === null ? '' : html`strategy <code>${p.strategy}</code>; `}${p.note ?? ''}</li>`)}</ul>`
  const table = judged.length === 0 ? html`` : criteriaTable(judged, structured)
  const trail = judged.flatMap((j) => j.trail.map((s) => html`<li><strong>${j.profile}</strong> ${s.stage}: ${s.what}${s.flag === undefined ? '' : html` <code>[${s.flag}]</code>`}${s.evidence.length === 0 ? '' : html` <span class="muted">(${evidenceInline(s.evidence)})</span>`}</li>`))
  const dump = view.dump === null ? html`` : html`<details class="small"><summary>${view.dump.basis === 'recorded' ? `GuardKit's own 0/N dump (${view.dump.where})` : "GuardKit's 0/N dump, rebuilt by the model (not in the log)"}</summary><pre>${clip(view.dump.lines.join('\n'), 4000)}</pre></details>`
  return html`<div class="criteria" data-criteria-turn="${view.turn}">${head}${notes}${table}${trail.length === 0 ? '' : html`<p class="small"><strong>where the data went</strong></p><ul class="plain small">${trail}</ul>`}${dump}</div>`
}

function criteriaTable(judged: readonly ProfileCriteria[], structured: ReadonlyMap<string, CriteriaTurn>): Html {
  const rows = judged[0]!.criteria.map((c) => html`<tr data-criterion="${c.id}"><th scope="row"><code>${c.id}</code></th><td>${clip(c.text, 300)}</td>${judged.map((j) => {
    const mine = j.criteria.find((x) => x.id === c.id)
    if (mine === undefined) return html`<td class="muted">—</td>`
    const row = structured.get(j.profile)?.criteria.find((x) => x.id === c.id)
    return html`<td>${mine.verified ? html`<span class="ok mark">✓ verified</span>` : html`<span class="bad mark">✗ rejected</span>`}<br>${row === undefined ? html`<span class="small">${mine.summary}</span>` : criterionCell(row, structured.get(j.profile)!)}</td>`
  })}</tr>`)
  return html`<table class="grid crit-table small"><caption>every criterion on the first 0/N turn, as each profile judged it</caption><thead><tr><th>id</th><th>criterion</th>${judged.map((j) => html`<th>${j.profile}${j.strategy === null ? '' : html`<br><span class="muted">strategy ${j.strategy}</span>`}</th>`)}</tr></thead><tbody>${rows}</tbody></table>`
}

function criterionCell(row: CriterionRow, turn: CriteriaTurn): Html {
  const promise = row.promise === null ? html`` : html`<br>promise: ${String(row.promise.status)}${row.promise.evidenceType == null ? '' : html`, evidence ${String(row.promise.evidenceType)}`}`
  const cl = row.closest
  const closest = cl === null
    ? turn.requirements === null ? html`` : html`<br><span class="muted">closest requirement: ${turn.requirements.source === null ? 'none (the results have no requirements list)' : turn.requirements.values.length === 0 ? `none (${turn.requirements.source} is empty)` : 'none shares a keyword'}</span>`
    : html`<br>closest requirement: “${clip(String(cl.requirement), 160)}” <span class="${cl.meetsRule ? 'ok' : 'bad'}">${Math.round(cl.jaccard * 100)}%${cl.exact ? ', exact' : cl.substring ? ', substring' : ''}</span> <span class="muted">(rule: ${cl.rule})</span>`
  return html`<span class="small">decided by <code>${row.decidedBy}</code>${promise}${closest}</span>`
}
