import {describeSource} from '../text/change-names.js'
import {SEVERITY_ORDER, type Finding} from '../../model/finding.js'
import {stableSortBy} from '../../shared/code-point-order.js'
import {evidenceList, turnLinks, type TurnOfEvidence} from './evidence.js'
import {anchorId, clip, html, join, type Html} from './html.js'

const MAX_DETAIL = 2000

/**
 * A task's findings, most severe first (ties in report order). Each one names the turns it cites
 * (links into the timeline), the findings it follows from and leads to (links), what to do, the
 * GuardKit change that fixes it, the command that shows the detail, and its evidence, each line
 * with an anchor (`#f3-e2`) and a link to the turn it belongs to.
 */
export function renderFindings(findings: readonly Finding[], base: string, turnOf: TurnOfEvidence): Html {
  if (findings.length === 0) return html`<p class="muted">No finding for this task.</p>`
  const sorted = stableSortBy(findings, (a, b) => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity))
  const ids = new Set(findings.map((f) => f.id))
  const effects = new Map<string, Finding[]>()
  for (const f of findings) for (const c of f.causes) if (ids.has(c) && c !== f.id) effects.set(c, [...(effects.get(c) ?? []), f])
  return html`<ol class="findings">${sorted.map((f) => renderFinding(f, base, turnOf, ids, effects.get(f.id) ?? []))}</ol>`
}

function renderFinding(f: Finding, base: string, turnOf: TurnOfEvidence, ids: ReadonlySet<string>, effects: readonly Finding[]): Html {
  const id = anchorId(f.id)
  const causes = f.causes.filter((c) => ids.has(c) && c !== f.id)
  const rows: Html[] = []
  if (f.deduction !== undefined) rows.push(html`<dt>deduced</dt><dd>${f.deduction}</dd>`)
  if (causes.length > 0) rows.push(html`<dt>follows from</dt><dd>${join(causes.map((c) => html`<a href="#${anchorId(c)}">${c}</a>`), ', ')}</dd>`)
  if (effects.length > 0) rows.push(html`<dt>leads to</dt><dd>${join(effects.map((e) => html`<a href="#${anchorId(e.id)}">${e.id} ${e.code}</a>`), ', ')}</dd>`)
  if (f.remediation !== '') rows.push(html`<dt>do now</dt><dd>${f.remediation}</dd>`)
  rows.push(html`<dt>fixed in</dt><dd>${f.fixedIn === null ? html`<span class="muted">no logic change in the modelled range</span>` : html`<code>${f.fixedIn.flags.join(', ')}</code> (${f.fixedIn.commit})`}</dd>`)
  rows.push(html`<dt>reproduce</dt><dd><code>${f.reproduce}</code></dd>`)
  rows.push(html`<dt>source</dt><dd class="small"><code>${f.source.function}</code> · ${describeSource(f.source.spec)}</dd>`)
  const detail = f.detail === undefined || Object.keys(f.detail).length === 0 ? '' : html`<details class="small"><summary>structured detail</summary><pre>${clip(JSON.stringify(f.detail, null, 1), MAX_DETAIL)}</pre></details>`
  return html`<li id="${id}" class="sev-border-${f.severity}" data-finding="${f.code}" data-severity="${f.severity}">
<div class="finding-head"><span class="sev sev-${f.severity}">${f.severity}</span><a class="code" href="#${id}">${f.id} ${f.code}</a>${f.turns.length === 0 ? '' : html`<span>${f.turns.length === 1 ? 'turn' : 'turns'} ${turnLinks(base, f.turns)}</span>`}${f.confidence === 'inferred' ? html`<span class="muted">(inferred)</span>` : ''}</div>
<p>${f.message}</p>
<dl class="kv small">${rows}</dl>
${f.evidence.length === 0 ? html`<p class="small muted">no evidence lines</p>` : html`<div class="small"><strong>evidence</strong> (${f.evidence.length})${evidenceList(f.evidence, base, turnOf, id)}</div>`}
${detail}
</li>`
}
