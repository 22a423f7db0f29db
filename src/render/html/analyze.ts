import type {AnalysisReport, FeaturePicture, TaskAnalysis} from '../../explain/analysis.js'
import {timeoutWhen} from '../../explain/feature.js'
import {eraLine, featurePictures, formatEra} from '../text/analyze.js'
import {plural, shellQuote} from '../text/layout.js'
import {formatEvidence} from '../text/text-options.js'
import {formatWaste, shortenCaveat} from '../text/verdict.js'
import {legendLine, MARK_SYMBOL, taskMark, type TaskMark} from '../text/marks.js'
import {SEVERITY_ORDER} from '../../model/finding.js'
import {renderCriteria} from './criteria.js'
import {evidenceInline, indexTurnEvidence, quoted} from './evidence.js'
import {renderFindings} from './findings.js'
import {anchorId, clip, html, join, type Html} from './html.js'
import {renderPage} from './page.js'
import {renderTimeline} from './timeline.js'
import {neutraliseNames} from '../../shared/neutralise.js'

/**
 * `guardkit-replay RUN --format html`: one self-contained page (docs/html-report.md), what matters
 * first: the verdict of every task (failing tasks first, by severity), then the feature, then each
 * task that needs attention in full — its primary cause at the top, what happened and why, the
 * wasted turns, the timeline, the findings (most severe first), the 0/N table — and last the tasks
 * that went well, collapsed. Pure: the report in, the document out.
 */
export function renderAnalyzeHtml(report: AnalysisReport): string {
  report = neutraliseNames(report)
  const run = report.run
  const featureId = report.feature?.featureId ?? run.attempts.find((a) => a.featureId !== null)?.featureId ?? null
  const bases = taskAnchors(report.tasks)
  const profiles = report.profiles.map((p) => p.name)
  const order = taskOrder(report.tasks)
  const attention = order.filter((i) => taskMark(report.tasks[i]!) !== 'ok')
  const fine = order.filter((i) => taskMark(report.tasks[i]!) === 'ok')
  const title = `guardkit-replay${featureId === null ? '' : ` · ${featureId}`} · ${run.path}`
  const body = html`<div id="toolbar" class="noprint" hidden><button type="button" data-act="open">expand all</button><button type="button" data-act="close">collapse all</button></div>
<header>
<h1>guardkit-replay${featureId === null ? '' : html` · ${featureId}`}</h1>
<p class="meta"><code>${run.path}</code> · ${plural(run.logs.length, 'log')}, ${run.worktrees.length === 0 ? 'no worktree' : plural(run.worktrees.length, 'worktree')}</p>
<p class="meta">${report.runEra !== undefined && !report.runEra.replayed ? eraLine(report) : html`GuardKit era ${formatEra(report.era)}${report.runEra?.label == null ? '' : ` (${report.runEra.label}, ${report.runEra.name ?? ''})`}; replayed under ${join(report.profiles.map((p) => html`<span title="${p.description}"><code>${p.name}</code>${p.name === report.era.profile ? ' (the run’s era)' : ''}</span>`), ', ')}`}</p>
</header>
<main>
<section aria-labelledby="verdicts-h">
<h2 id="verdicts-h">verdicts</h2>
${report.tasks.length === 0 ? html`<p>No task loop ran in this run: nothing to replay. <code>guardkit-replay inspect ${shellQuote(run.path)}</code> shows what was found.</p>` : verdictTable(report, bases, order)}
</section>
${featurePictures(report).length === 0 ? '' : html`<section aria-labelledby="feature-h"><h2 id="feature-h">feature</h2>${featurePictures(report).map((f) => renderFeature(f, report.tasks, bases))}</section>`}
${attention.map((i) => renderTask(report, report.tasks[i]!, bases[i]!, profiles, false))}
${fine.length === 0 ? '' : html`<section aria-labelledby="fine-h" class="fine"><h2 id="fine-h">tasks that went well (${fine.length})</h2>${fine.map((i) => renderTask(report, report.tasks[i]!, bases[i]!, profiles, true))}</section>`}
</main>
${renderFooter(report)}`
  return renderPage(title, body)
}

/** Anchors for tasks: the task id; `-a2` for a later attempt; unique within the page. */
export function taskAnchors(tasks: readonly TaskAnalysis[]): string[] {
  const seen = new Set<string>()
  return tasks.map((t) => {
    let id = t.task.attempt > 1 ? `${anchorId(t.task.taskId)}-a${t.task.attempt}` : anchorId(t.task.taskId)
    for (let n = 2; seen.has(id); n++) id = `${anchorId(t.task.taskId)}-a${t.task.attempt}-${n}`
    seen.add(id)
    return id
  })
}

function taskLabel(t: TaskAnalysis, tasks: readonly TaskAnalysis[]): string {
  return tasks.filter((x) => x.task.taskId === t.task.taskId).length > 1 ? `${t.task.taskId} #${t.task.attempt}` : t.task.taskId
}

const MARK_TITLE: Readonly<Record<TaskMark, string>> = {ok: 'approved', attention: 'approved, with findings to read', failed: 'not approved'}
const MARK_CLASS: Readonly<Record<TaskMark, string>> = {ok: 'ok', attention: 'warn', failed: 'bad'}

function verdictMark(t: TaskAnalysis): Html {
  const m = taskMark(t)
  return html`<span class="${MARK_CLASS[m]} mark" title="${MARK_TITLE[m]}">${MARK_SYMBOL[m]}</span>`
}

/**
 * Tasks in the order a reader needs them: not approved first, then approved with findings, then the
 * rest; within each, the most severe finding first, then the most turns wasted, then report order.
 */
export function taskOrder(tasks: readonly TaskAnalysis[]): number[] {
  const markRank: Readonly<Record<TaskMark, number>> = {failed: 0, attention: 1, ok: 2}
  const worst = (t: TaskAnalysis) => Math.min(SEVERITY_ORDER.length, ...t.findings.map((f) => SEVERITY_ORDER.indexOf(f.severity)))
  const wasted = (t: TaskAnalysis) => t.verdict.waste?.turnsWasted ?? 0
  return tasks.map((_, i) => i).sort((a, b) => {
    const x = tasks[a]!
    const y = tasks[b]!
    return markRank[taskMark(x)] - markRank[taskMark(y)] || worst(x) - worst(y) || wasted(y) - wasted(x) || a - b
  })
}

function verdictTable(report: AnalysisReport, bases: readonly string[], order: readonly number[]): Html {
  const rows = order.map((i) => {
    const t = report.tasks[i]!
    const v = t.verdict
    const cells = report.profiles.map((p) => {
      const u = v.underProfiles.find((x) => x.profile === p.name)
      return html`<td data-label="${p.name}">${u === undefined ? '—' : clip(shortenCaveat(u.text), 400)}</td>`
    })
    const waste = v.waste === null || v.waste.turnsWasted === 0 ? html`<td class="muted" data-label="waste">—</td>` : html`<td class="bad" data-label="waste">${formatWaste(v.waste)}</td>`
    return html`<tr data-verdict="${taskMark(t) === 'ok' ? 'ok' : 'attention'}" data-mark="${taskMark(t)}"><th scope="row">${verdictMark(t)} <a href="#${bases[i]!}">${taskLabel(t, report.tasks)}</a></th><td class="outcome" data-label="recorded">${v.happened}</td>${cells}${waste}</tr>`
  })
  const legend = legendLine({marks: report.tasks.map(taskMark), approximate: report.tasks.some((t) => /\((approximate|insufficient)\b/.test(t.verdict.underProfiles.map((u) => u.text).join(' '))), cut: false})
  return html`<table class="grid verdicts stack"><caption>What each task did, and what each profile would have done; tasks that need attention first. <span class="muted small">${legend}</span></caption><thead><tr><th scope="col">task</th><th scope="col">recorded</th>${report.profiles.map((p) => html`<th scope="col"><code>${p.name}</code></th>`)}<th scope="col">waste</th></tr></thead><tbody>${rows}</tbody></table>`
}

function renderFeature(f: FeaturePicture, tasks: readonly TaskAnalysis[], bases: readonly string[]): Html {
  const link = (taskId: string) => {
    const i = tasks.findIndex((t) => t.task.taskId === taskId && (f.attempt === undefined || t.task.attempt === f.attempt))
    return i < 0 ? html`${taskId}` : html`<a href="#${bases[i]!}">${taskId}</a>`
  }
  const items: Html[] = [
    ...f.waves.map((w) => html`<dt>wave ${w.wave}</dt><dd>${join(w.taskIds.map((id) => html`${link(id)} <span class="${/SUCCESS|APPROVED/i.test(w.statuses[id] ?? '') ? 'ok' : 'bad'}">${w.statuses[id] ?? '?'}</span>`), ' · ')}</dd>`),
    ...f.timeouts.map((x) => html`<dt>timeout</dt><dd>${link(x.taskId)}${timeoutWhen(x) === '' ? '' : ` ${timeoutWhen(x)}`} <span class="muted small">(${evidenceInline(x.evidence)})</span></dd>`),
    ...f.disagreements.map((d) => html`<dt>disagrees</dt><dd>${link(d.taskId)}: the feature says ${d.featureSays}, the task says ${d.taskSays}${d.note === undefined ? '' : `; ${d.note}`} <span class="muted small">(${evidenceInline(d.evidence)})</span></dd>`),
  ]
  return html`<div class="feature"><h3>feature ${f.featureId ?? '(unnamed)'}${f.attempt === undefined ? '' : ` (attempt ${f.attempt})`}: <span class="${f.featureResult !== null && /success|completed|approved/i.test(f.featureResult) ? 'ok' : 'bad'}">${f.featureResult ?? 'no result in the log'}</span></h3><dl class="kv">${items}</dl></div>`
}

function renderTask(report: AnalysisReport, t: TaskAnalysis, base: string, profiles: readonly string[], collapsed: boolean): Html {
  const v = t.verdict
  const label = taskLabel(t, report.tasks)
  const rows: Html[] = []
  // a task that needs attention says why in its primary-cause block, above
  if (v.why !== '' && taskMark(t) === 'ok') rows.push(html`<dt>why</dt><dd>${v.why}</dd>`)
  for (const u of v.underProfiles) rows.push(html`<dt><code>${u.profile}</code></dt><dd>${u.text}</dd>`)
  if (v.doNow.length > 0) rows.push(html`<dt>do now</dt><dd>${v.doNow.length === 1 ? v.doNow[0]! : html`<ul class="plain">${v.doNow.map((d) => html`<li>${d}</li>`)}</ul>`}</dd>`)
  if (v.fixedIn.length > 0 || v.notFixed.length > 0) rows.push(html`<dt>fixed in</dt><dd>${v.fixedIn.length === 0 ? 'no logic change in the modelled range' : v.fixedIn.join(', ')}${v.notFixed.length === 0 ? '' : `; not fixed: ${v.notFixed.join(', ')}`}</dd>`)
  if (t.whatif !== null) {
    const w = t.whatif
    rows.push(html`<dt>what if</dt><dd>baseline <code>${w.baseline}</code> → ${w.baselineOutcome}${w.flips.length === 0 ? '; no single change or pair flips it' : html`<ul class="plain">${w.flips.map((x) => html`<li><code>${x.flags.join(' + ')}</code> → ${x.onlyIf ? `only ${x.onlyIf.map((c) => `${c.outcome} if ${c.assume}`).join('; ')}` : x.outcome}${x.changesAtTurn === null ? '' : ` from turn ${x.changesAtTurn}`} (${x.fidelity})</li>`)}</ul>`}${w.fixedStillFails === null ? '' : html`<br><strong>fixed still fails:</strong> ${w.fixedStillFails}`}<br><span class="muted small">${w.searched}</span></dd>`)
  }
  const criteria = renderCriteria(t, profiles, base)
  const stopping = Object.values(t.replays).filter((r) => r.stallTurn !== null).sort((a, b) => a.stallTurn! - b.stallTurn!)[0]
  const reproduce = `guardkit-replay explain ${shellQuote(report.run.path)} --task ${shellQuote(t.task.taskId)}${stopping === undefined ? '' : ` --turn ${stopping.stallTurn} --profile ${stopping.profile}`}`
  const heading = html`<h2 id="${base}-h">${verdictMark(t)} ${label}: ${v.happened}</h2>`
  const body = html`${primaryCause(t, base)}
${wasteBand(t, base)}
<dl class="kv">${rows}</dl>
<h3 id="${base}-timeline">timeline</h3>
${renderTimeline({task: t, base, profiles, runPath: report.run.path})}
<h3 id="${base}-findings">findings${t.findings.length === 0 ? '' : ` (${t.findings.length}, most severe first)`}</h3>
${renderFindings(t.findings, base, indexTurnEvidence(t.task))}
${criteria === null ? '' : html`<h3>criteria</h3>${criteria}`}
<p class="small">reproduce: <code>${reproduce}</code></p>`
  const attrs = html`id="${base}" data-task="${t.task.taskId}" data-attempt="${t.task.attempt}" data-mark="${taskMark(t)}"`
  // a task that went well is one line until opened (native details: keyboard and screen readers know it)
  return collapsed
    ? html`<details class="task" ${attrs}><summary>${heading}</summary>${body}</details>`
    : html`<section class="task" ${attrs} aria-labelledby="${base}-h">${heading}${body}</section>`
}

/**
 * The primary cause, first thing in the task (docs/root-causes.md): its category and sentence, the
 * deciding log line quoted, a link to the finding. Without a diagnosis, the verdict's `why`, said
 * to be drawn from the findings.
 */
function primaryCause(t: TaskAnalysis, base: string): Html {
  const d = t.diagnosis ?? null
  if (d !== null) {
    const p = d.primary
    const evidence = p.evidence.slice(0, 3)
    return html`<div class="primary" data-primary="${p.category}"><p><strong>primary cause</strong> <span class="chip chip-cause">${p.category}</span>${d.confidence === 'inferred' ? html` <span class="muted small">(inferred)</span>` : ''} ${p.summary} <a href="#${anchorId(p.findingId)}" class="small">${p.findingId}</a></p>${evidence.length === 0 ? '' : html`<ul class="plain evidence small">${evidence.map((e) => html`<li><code>${formatEvidence({...e, note: undefined})}</code>${quoted(e)}</li>`)}</ul>`}${d.contributing.length === 0 ? '' : html`<p class="small">made worse by: ${join(d.contributing.map((c) => html`<span class="chip chip-cause">${c.category}</span> ${join(c.findingIds.map((f) => html`<a href="#${anchorId(f)}">${f}</a>`), ', ')}`), ' · ')}</p>`}</div>`
  }
  if (t.verdict.why === '' || taskMark(t) === 'ok') return html``
  return html`<div class="primary" data-primary="why"><p><strong>why</strong> ${t.verdict.why} <span class="muted small">(drawn from the findings below: <a href="#${base}-findings">findings</a>)</span></p></div>`
}

/** The turns run after the loop should have stopped, as a band above the timeline (each of those rows is banded too). */
function wasteBand(t: TaskAnalysis, base: string): Html {
  const w = t.verdict.waste
  if (w === null || w.turnsWasted === 0) return html``
  return html`<p class="waste-band" data-wasted-turns="${w.turnsWasted}"><strong>${formatWaste(w)}</strong> — ${w.basis} <a href="#${base}-timeline" class="small">timeline</a></p>`
}


function renderFooter(report: AnalysisReport): Html {
  const run = shellQuote(report.run.path)
  const issues = report.run.ingestIssues
  const focus = report.tasks.find((t) => !t.verdict.ok) ?? report.tasks[0]
  return html`<footer>
<h2>about this report</h2>
${issues.length === 0 ? '' : html`<details><summary>${plural(issues.length, 'ingest issue')}</summary><ul class="plain small">${issues.slice(0, 200).map((i) => html`<li><code>${formatEvidence(i)}</code> ${i.message}</li>`)}${issues.length > 200 ? html`<li class="muted">+${issues.length - 200} more: <code>guardkit-replay inspect ${run}</code></li>` : ''}</ul></details>`}
<ul class="plain small">
${focus === undefined ? '' : html`<li><code>guardkit-replay explain ${run} --task ${shellQuote(focus.task.taskId)}</code> every criterion, signature and piece of evidence</li><li><code>guardkit-replay whatif ${run} --task ${shellQuote(focus.task.taskId)}</code> which logic changes flip the outcome</li>`}
<li><code>guardkit-replay ${run} --json</code> the same analysis as one JSON document</li>
</ul>
<p class="small muted">${report.tool.name} ${report.tool.version} · a self-contained page: no script is needed to read it, nothing is loaded from anywhere.</p>
</footer>`
}
