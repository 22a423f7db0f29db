import type {GateClass, GateReport, GateRun, GateSide, GateTask, GateTurnCell, GateTurnRow} from '../gate-report.js'
import {evidenceInline} from './evidence.js'
import {anchorId, clip, html, join, type Html} from './html.js'
import {renderPage} from './page.js'
import {signatureColour} from './signature-colour.js'
import {neutraliseNames} from '../../shared/neutralise.js'

/** Classes in the order a reader needs them: what fails the gate first. */
const CLASS_ORDER: readonly GateClass[] = ['regressed', 'changed', 'improved', 'skipped', 'unchanged']
const CLASS_LABEL: Readonly<Record<GateClass, string>> = {regressed: 'regressed', changed: 'changed', improved: 'improved', skipped: 'skipped', unchanged: 'unchanged'}
const CLASS_COLOUR: Readonly<Record<GateClass, string>> = {regressed: '#b42318', changed: '#8a5a00', improved: '#1a7f37', skipped: '#57606a', unchanged: '#afb8c1'}

interface Placed {
  readonly run: GateRun
  readonly task: GateTask
  readonly anchor: string
}

/**
 * `gate --html FILE`: the gate's verdict over a whole corpus as one self-contained page. The
 * verdict and the counts first, then every task that regressed (failing ones first), then the
 * changed, improved and skipped ones, each with its reasons, the findings that explain it and its
 * turns side by side (recorded, baseline, candidate); the unchanged ones last, in one table.
 * Pure: the report in, the document out.
 */
export function renderGateHtml(report: GateReport): string {
  report = neutraliseNames(report)
  const placed = placeTasks(report.runs)
  const fail = report.verdict === 'fail'
  const title = `guardkit-replay gate: ${fail ? 'FAIL' : 'PASS'} · ${report.baseline.name} → ${report.candidate.name}`
  const sections = CLASS_ORDER.filter((c) => c !== 'unchanged').map((c) => {
    const tasks = placed.filter((p) => p.task.classification === c).sort((a, b) => Number(b.task.failing) - Number(a.task.failing))
    return tasks.length === 0 ? html`` : html`<section class="gate-class" id="class-${c}" data-class="${c}"><h2>${CLASS_LABEL[c]} (${tasks.length})</h2>${tasks.map((p) => renderTask(p, report))}</section>`
  })
  const body = html`<div id="toolbar" class="noprint" hidden><button type="button" data-act="open">expand all</button><button type="button" data-act="close">collapse all</button></div>
<header>
<h1>guardkit-replay gate: <span class="${fail ? 'bad' : 'ok'}" data-verdict="${report.verdict}">${fail ? '✗ FAIL' : '✓ PASS'}</span></h1>
<p class="meta">baseline ${subject(report.baseline)} → candidate ${subject(report.candidate)}</p>
<p class="meta">fails on regressions${report.policy.failOn.length === 0 ? '' : html`, and on: ${report.policy.failOn.join(', ')}`}${report.shard === null ? '' : ` · shard ${report.shard.index} of ${report.shard.count}`}${report.merged === null ? '' : ` · merged from ${report.merged.shards} shards`}</p>
<p class="meta small">inputs: ${join(report.inputs.map((i) => html`<code>${i}</code>`), ' ')}${report.expectations.length === 0 ? '' : html` · expectations: ${join(report.expectations.map((e) => html`<code>${e}</code>`), ' ')}`}</p>
</header>
<main>
${renderSummary(report)}
${renderContents(report, placed)}
${report.problems.length === 0 ? '' : html`<section id="problems" aria-labelledby="problems-h"><h2 id="problems-h">problems (${report.problems.length})</h2><ul class="plain">${report.problems.map((p) => html`<li class="${p.severity === 'error' ? 'bad' : 'warn'}">${p.severity}: <code>${p.path}</code> ${p.message}</li>`)}</ul></section>`}
${sections}
${renderSkippedRuns(report.runs)}
${renderUnchanged(placed.filter((p) => p.task.classification === 'unchanged'))}
</main>
<footer><p class="small muted">${report.tool.name} ${report.tool.version} · schema ${report.schemaVersion} · a self-contained page: no script is needed to read it, nothing is loaded from anywhere.</p></footer>`
  return renderPage(title, body)
}

function placeTasks(runs: readonly GateRun[]): Placed[] {
  const seen = new Set<string>()
  return runs.flatMap((run, i) => run.tasks.map((task) => {
    let anchor = `r${i + 1}-${anchorId(task.taskId)}${task.attempt > 1 ? `-a${task.attempt}` : ''}`
    for (let n = 2; seen.has(anchor); n++) anchor = `r${i + 1}-${anchorId(task.taskId)}-a${task.attempt}-${n}`
    seen.add(anchor)
    return {run, task, anchor}
  }))
}

function subject(s: GateReport['baseline']): Html {
  return html`<code title="${s.description}">${s.name}</code>${s.flags === null || s.flags.length === 0 ? '' : html` <span class="muted small">(${s.flags.length} logic changes)</span>`}`
}

const BAR_WIDTH = 480

/** The counts, and the same as one bar: each class a segment with its name and number beside. */
function renderSummary(report: GateReport): Html {
  const s = report.summary
  const counts: [GateClass, number][] = [['regressed', s.regressed], ['changed', s.changed], ['improved', s.improved], ['skipped', s.skipped], ['unchanged', s.unchanged]]
  let x = 0
  const segments = counts.filter(([, n]) => n > 0).map(([c, n]) => {
    const w = s.tasks === 0 ? 0 : (n / s.tasks) * BAR_WIDTH
    const seg = html`<rect x="${x.toFixed(1)}" width="${w.toFixed(1)}" height="14" fill="${CLASS_COLOUR[c]}"><title>${c}: ${n}</title></rect>`
    x += w
    return seg
  })
  return html`<section aria-labelledby="summary-h" class="gate-summary">
<h2 id="summary-h">summary</h2>
<p>${s.tasks} tasks in ${s.runs} runs: ${join(counts.map(([c, n]) => countChip(c, n)), ' ')}${s.failing === 0 ? '' : html` · <strong class="bad">${s.failing} failing</strong>`}${s.approximate === 0 ? '' : html` · <span class="muted">${s.approximate} approximate</span>`}</p>
<svg class="gate-bar" width="${BAR_WIDTH}" height="14" viewBox="0 0 ${BAR_WIDTH} 14" preserveAspectRatio="none" role="img" aria-label="${counts.map(([c, n]) => `${n} ${c}`).join(', ')}">${segments}</svg>
</section>`
}

/** How many tasks of a class the contents name one by one; the rest are counted. */
const CONTENTS_PER_CLASS = 30

/**
 * The table of contents, under the summary: each class's section, and in it each task by name, the
 * failing ones first — a long gate page is read from here (docs/html-report.md "The gate page").
 */
function renderContents(report: GateReport, placed: readonly Placed[]): Html {
  const entries = CLASS_ORDER.flatMap((c) => {
    const tasks = placed.filter((p) => p.task.classification === c).sort((a, b) => Number(b.task.failing) - Number(a.task.failing))
    if (tasks.length === 0) return []
    const target = c === 'unchanged' ? 'unchanged' : `class-${c}`
    const shown = c === 'unchanged' ? [] : tasks.slice(0, CONTENTS_PER_CLASS)
    const more = c === 'unchanged' ? 0 : tasks.length - shown.length
    return [html`<li><a href="#${target}">${CLASS_LABEL[c]} (${tasks.length})</a>${shown.length === 0 ? '' : html`<ul class="plain small">${shown.map((p) => html`<li><a href="#${p.anchor}">${p.task.taskId}${p.task.attempt > 1 ? ` #${p.task.attempt}` : ''}</a> <span class="muted">in <code>${p.run.path}</code></span>${p.task.failing ? html` <strong class="bad">fails the gate</strong>` : ''}</li>`)}${more > 0 ? html`<li class="muted">+${more} more in the section</li>` : ''}</ul>`}</li>`]
  })
  const skipped = report.runs.filter((r) => r.skipReason !== null).length
  if (skipped > 0) entries.push(html`<li><a href="#not-gated">runs not gated (${skipped})</a></li>`)
  if (report.problems.length > 0) entries.unshift(html`<li><a href="#problems">problems (${report.problems.length})</a></li>`)
  return html`<nav aria-labelledby="toc-h" class="toc"><h2 id="toc-h">contents</h2><ol>${entries}</ol></nav>`
}

function countChip(c: GateClass, n: number): Html {
  const target = n === 0 ? null : c === 'unchanged' ? 'unchanged' : `class-${c}`
  return target === null ? html`<span class="chip chip-class-${c}" data-count="${c}">${n} ${c}</span>` : html`<a class="chip chip-class-${c}" href="#${target}" data-count="${c}">${n} ${c}</a>`
}

function renderTask(p: Placed, report: GateReport): Html {
  const t = p.task
  const turns = new Set((t.turns ?? []).map((r) => r.turn))
  const turnRef = (turn: number | null) => (turn === null ? '' : turns.has(turn) ? html`<a href="#${p.anchor}-t${turn}">t${turn}</a>` : `t${turn}`)
  const reasons = t.reasons.map((r) => html`<li data-effect="${r.effect}" data-rule="${r.rule}"${r.waived === true ? html` data-waived="true"` : ''}><span class="chip chip-effect-${r.effect}">${r.effect}</span> <code>${r.rule}</code> ${turnRef(r.turn)} ${r.message}${r.approximate ? html` <span class="muted">(approximate)</span>` : ''}${r.waived === true ? html` <span class="muted">(wanted: waived)</span>` : ''}${r.note === undefined ? '' : html` <span class="muted small">${r.note}</span>`}</li>`)
  const heading = html`<h3><span class="chip chip-class-${t.classification}">${t.classification}</span> ${t.taskId}${t.attempt > 1 ? ` #${t.attempt}` : ''} <span class="muted small">in <code>${p.run.path}</code></span>${t.failing ? html` <strong class="bad small">fails the gate</strong>` : ''}${t.approximate ? html` <span class="muted small">(rests on approximate values)</span>` : ''}</h3>`
  // a task that does not fail the gate is one line until opened: the failing ones are what the page is for
  const [open, close] = t.failing ? [heading, html``] : [html`<details><summary>${heading}</summary>`, html`</details>`]
  return html`<article class="gate-task" id="${p.anchor}" data-run="${p.run.path}" data-task="${t.taskId}" data-attempt="${t.attempt}" data-class="${t.classification}" data-failing="${t.failing ? 'true' : 'false'}">
${open}
${t.skipReason === null ? '' : html`<p class="muted">skipped: ${t.skipReason}</p>`}
${sidesTable(t, report)}
${reasons.length === 0 ? '' : html`<ul class="plain reasons">${reasons}</ul>`}
${t.expectation === null ? '' : expectation(t)}
${t.findings.length === 0 ? '' : html`<p><strong>why</strong> (findings of the analysis)</p><ol class="findings">${t.findings.map((f) => html`<li class="sev-border-${f.severity}" data-finding="${f.code}" data-severity="${f.severity}"><div class="finding-head"><span class="sev sev-${f.severity}">${f.severity}</span><span class="code">${f.code}</span>${f.turns.length === 0 ? '' : html`<span>${join(f.turns.map((n) => turnRef(n)), ', ')}</span>`}${f.confidence === 'inferred' ? html`<span class="muted">(inferred)</span>` : ''}</div><p>${f.message}</p><dl class="kv small"><dt>explains</dt><dd>${f.explains.join(', ')}: ${f.why}</dd>${f.fixedIn === null ? '' : html`<dt>fixed in</dt><dd><code>${f.fixedIn.flags.join(', ')}</code> (${f.fixedIn.commit})</dd>`}<dt>evidence</dt><dd>${f.evidence.length === 0 ? 'none' : evidenceInline(f.evidence, 6)}</dd><dt>reproduce</dt><dd><code>${f.reproduce}</code></dd></dl></li>`)}</ol>`}
${t.turns === null || t.turns.length === 0 ? '' : turnTable(p, t.turns)}
<p class="small">reproduce: <code>${t.reproduce}</code></p>
${close}
</article>`
}

function sidesTable(t: GateTask, report: GateReport): Html {
  const row = (role: string, s: GateSide) => html`<tr data-side="${role}"><th scope="row">${role} <code>${s.subject}</code></th><td>${s.outcome}</td><td>${s.endTurn ?? '—'}</td><td>${s.stallTurn ?? '—'}</td><td>${s.fidelity}</td></tr>`
  return html`<table class="grid small sides"><caption>outcome on each side</caption><thead><tr><th></th><th>outcome</th><th>ends at turn</th><th>stall at turn</th><th>fidelity</th></tr></thead><tbody>
<tr data-side="recorded"><th scope="row">recorded</th><td>${t.recorded.outcome ?? '—'}</td><td>${t.recorded.turns}</td><td>${t.recorded.stallTurn ?? '—'}</td><td>exact</td></tr>
${row('baseline', t.baseline)}${row('candidate', t.candidate)}</tbody></table><span class="muted small">${report.baseline.name === t.baseline.subject ? '' : `baseline ran as ${t.baseline.subject}`}</span>`
}

function expectation(t: GateTask): Html {
  const e = t.expectation!
  return html`<p class="small"><strong>expectations</strong> <code>${e.file}</code> · ${e.key}${e.wanted.length === 0 ? '' : ` · wanted: ${e.wanted.join(', ')}`}${e.note === null ? '' : ` · ${e.note}`}</p>
<table class="grid small"><caption>pinned outcomes</caption><thead><tr><th>role</th><th>subject</th><th>expected</th><th>found</th><th>met</th></tr></thead><tbody>${e.pins.map((p) => html`<tr><td>${p.role}</td><td><code>${p.subject}</code></td><td>${p.expected}</td><td>${p.found}</td><td class="${p.met ? 'ok' : 'bad'}">${p.met ? '✓ met' : '✗ not met'}</td></tr>`)}</tbody></table>`
}

/** The turns side by side; a row whose baseline and candidate differ is marked, both stalls and ends too. */
function turnTable(p: Placed, rows: readonly GateTurnRow[]): Html {
  const t = p.task
  const body = rows.map((r) => {
    const differs = r.baseline !== null && r.candidate !== null && (r.baseline.decision !== r.candidate.decision || r.baseline.criteriaMet !== r.candidate.criteriaMet || r.baseline.signature !== r.candidate.signature)
    const markers: Html[] = []
    if (t.baseline.stallTurn === r.turn) markers.push(html`<span class="chip chip-profile-stall" data-marker="baseline-stall">◇ baseline stalls</span>`)
    if (t.candidate.stallTurn === r.turn) markers.push(html`<span class="chip chip-fixed-stall" data-marker="candidate-stall">◆ candidate stalls</span>`)
    if (t.baseline.endTurn === r.turn && t.baseline.stallTurn !== r.turn) markers.push(html`<span class="chip chip-profile-end" data-marker="baseline-end">○ baseline: ${t.baseline.outcome}</span>`)
    if (t.candidate.endTurn === r.turn && t.candidate.stallTurn !== r.turn) markers.push(html`<span class="chip chip-profile-end" data-marker="candidate-end">● candidate: ${t.candidate.outcome}</span>`)
    if (t.recorded.stallTurn === r.turn) markers.push(html`<span class="chip chip-recorded-stall" data-marker="recorded-stall">■ stall (recorded)</span>`)
    if (differs) markers.push(html`<span class="chip chip-recorded-end" data-marker="differs">≠ differs</span>`)
    const sides: [string, GateTurnCell | null][] = [['recorded', r.recorded], ['baseline', r.baseline], ['candidate', r.candidate]]
    const texts = sides.map(([, c]) => c?.feedback ?? null)
    const feedback = texts.every((x) => x === null) ? html`<span class="muted">—</span>` : html`<details><summary>feedback</summary>${sides.map(([role, c]) => (c?.feedback == null ? '' : html`<div class="small"><strong>${role}</strong>${c.feedbackComplete ? '' : ' (excerpt)'}<pre>${clip(c.feedback, 800)}</pre></div>`))}</details>`
    return html`<tr id="${p.anchor}-t${r.turn}" data-turn="${r.turn}"${differs ? html` class="differs"` : ''}><th scope="row">${r.turn}</th>${gateCell(r.recorded)}${gateCell(r.baseline)}${gateCell(r.candidate)}<td>${markers}</td><td>${feedback}</td></tr>`
  })
  return html`<table class="grid small gate-turns" data-task="${t.taskId}" data-turns="${rows.length}"><caption>turns side by side: recorded, baseline, candidate</caption><thead><tr><th>turn</th><th>recorded</th><th>baseline <code>${t.baseline.subject}</code></th><th>candidate <code>${t.candidate.subject}</code></th><th>markers</th><th>feedback</th></tr></thead><tbody>${body}</tbody></table>`
}

function gateCell(c: GateTurnCell | null): Html {
  if (c === null) return html`<td class="muted">—</td>`
  const d = c.decision
  const decision = d === null ? html`<span class="muted">—</span>` : d === 'approve' ? html`<span class="ok">✓ approve</span>` : d === 'feedback' ? html`<span class="warn">↩ feedback</span>` : html`<span class="bad">✗ ${d}</span>`
  const criteria = c.criteriaMet === null || c.criteriaTotal === null ? '' : html` <span class="mono">${c.criteriaMet}/${c.criteriaTotal}</span>`
  const approx = c.fidelity !== 'exact' || c.inferred
  const sig = c.signature === null ? '' : sigBlock(c.signature, approx, c.stallFired)
  const notes = [c.fidelity !== 'exact' ? c.fidelity : null, c.inferred ? 'inferred' : null].filter((x) => x !== null)
  return html`<td>${decision}${criteria} ${sig}${notes.length === 0 ? '' : html` <span class="muted small">(${notes.join(', ')})</span>`}</td>`
}

function sigBlock(signature: string, approximate: boolean, fired: boolean): Html {
  const colour = signatureColour(signature)
  return html`<span class="sig${approximate ? ' approx' : ''}${fired ? ' fired' : ''}" style="background:${colour.background};border-color:${colour.border}" data-sig="${signature}" title="${signature}">${[...signature].slice(0, 8).join('')}${approximate ? '~' : ''}</span>${fired ? html` <strong class="bad small">fires</strong>` : ''}`
}

function renderSkippedRuns(runs: readonly GateRun[]): Html {
  const skipped = runs.filter((r) => r.skipReason !== null)
  if (skipped.length === 0) return html``
  return html`<section id="not-gated" aria-labelledby="not-gated-h"><h2 id="not-gated-h">runs not gated (${skipped.length})</h2><ul class="plain">${skipped.map((r) => html`<li><code>${r.path}</code>: ${r.skipReason}</li>`)}</ul></section>`
}

function renderUnchanged(list: readonly Placed[]): Html {
  if (list.length === 0) return html``
  return html`<section class="gate-class" id="unchanged" data-class="unchanged"><h2>unchanged (${list.length})</h2><details><summary>every task whose baseline and candidate agree</summary><table class="grid small"><caption>unchanged tasks</caption><thead><tr><th>run</th><th>task</th><th>recorded</th><th>both</th></tr></thead><tbody>${list.map((p) => html`<tr id="${p.anchor}" data-task="${p.task.taskId}" data-class="unchanged"><td><code>${p.run.path}</code></td><td>${p.task.taskId}${p.task.attempt > 1 ? ` #${p.task.attempt}` : ''}</td><td>${p.task.recorded.outcome ?? '—'}</td><td>${p.task.candidate.outcome}</td></tr>`)}</tbody></table></details></section>`
}
