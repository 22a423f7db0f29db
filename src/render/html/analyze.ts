import type {AnalysisReport, FeaturePicture, TaskAnalysis} from '../../explain/analysis.js'
import {eraLine, featurePictures, formatEra} from '../text/analyze.js'
import {plural, shellQuote} from '../text/layout.js'
import {formatEvidence} from '../text/text-options.js'
import {formatWaste, shortenCaveat} from '../text/verdict.js'
import {renderCriteria} from './criteria.js'
import {evidenceInline, indexTurnEvidence} from './evidence.js'
import {renderFindings} from './findings.js'
import {anchorId, clip, html, join, type Html} from './html.js'
import {renderPage} from './page.js'
import {renderTimeline} from './timeline.js'

/**
 * `guardkit-replay RUN --format html`: one self-contained page with the "verdict first" shape of
 * the text report (docs/cli.md "The text report"). The verdict of every task comes first, then the
 * feature, then per task: what happened and why, the timeline of turns, the findings (most severe
 * first), the 0/N table.
 * Pure: the report in, the document out.
 */
export function renderAnalyzeHtml(report: AnalysisReport): string {
  const run = report.run
  const featureId = report.feature?.featureId ?? run.attempts.find((a) => a.featureId !== null)?.featureId ?? null
  const bases = taskAnchors(report.tasks)
  const profiles = report.profiles.map((p) => p.name)
  const title = `guardkit-replay${featureId === null ? '' : ` · ${featureId}`} · ${run.path}`
  const body = html`<div id="toolbar" class="noprint" hidden><button type="button" data-act="open">expand all</button><button type="button" data-act="close">collapse all</button></div>
<header>
<h1>guardkit-replay${featureId === null ? '' : html` · ${featureId}`}</h1>
<p class="meta"><code>${run.path}</code> · ${plural(run.logs.length, 'log')}, ${run.worktrees.length === 0 ? 'no worktree' : plural(run.worktrees.length, 'worktree')}</p>
<p class="meta">${report.runEra !== undefined && !report.runEra.replayed ? eraLine(report) : html`GuardKit era ${formatEra(report.era)}${report.runEra?.label == null ? '' : ` (${report.runEra.label}, ${report.runEra.name ?? ''})`}; replayed under ${join(report.profiles.map((p) => html`<span title="${p.description}"><code>${p.name}</code>${p.name === report.era.profile ? ' (the run’s era)' : ''}</span>`), ', ')}`}</p>
</header>
<main>
<section aria-label="verdicts">
${report.tasks.length === 0 ? html`<p>No task loop ran in this run: nothing to replay. <code>guardkit-replay inspect ${shellQuote(run.path)}</code> shows what was found.</p>` : verdictTable(report, bases)}
</section>
${featurePictures(report).map((f) => renderFeature(f, report.tasks, bases))}
${report.tasks.map((t, i) => renderTask(report, t, bases[i]!, profiles))}
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

function verdictMark(ok: boolean): Html {
  return ok ? html`<span class="ok mark" title="went well">✓</span>` : html`<span class="bad mark" title="needs attention">✗</span>`
}

function verdictTable(report: AnalysisReport, bases: readonly string[]): Html {
  const rows = report.tasks.map((t, i) => {
    const v = t.verdict
    const cells = report.profiles.map((p) => {
      const u = v.underProfiles.find((x) => x.profile === p.name)
      return html`<td>${u === undefined ? '—' : clip(shortenCaveat(u.text), 400)}</td>`
    })
    const waste = v.waste === null || v.waste.turnsWasted === 0 ? html`<td class="muted">—</td>` : html`<td class="bad">${formatWaste(v.waste)}</td>`
    return html`<tr data-verdict="${v.ok ? 'ok' : 'attention'}"><th scope="row">${verdictMark(v.ok)} <a href="#${bases[i]!}">${taskLabel(t, report.tasks)}</a></th><td class="outcome">${v.happened}</td>${cells}${waste}</tr>`
  })
  return html`<table class="grid verdicts"><thead><tr><th>task</th><th>recorded</th>${report.profiles.map((p) => html`<th><code>${p.name}</code></th>`)}<th>waste</th></tr></thead><tbody>${rows}</tbody></table>`
}

function renderFeature(f: FeaturePicture, tasks: readonly TaskAnalysis[], bases: readonly string[]): Html {
  const link = (taskId: string) => {
    const i = tasks.findIndex((t) => t.task.taskId === taskId && (f.attempt === undefined || t.task.attempt === f.attempt))
    return i < 0 ? html`${taskId}` : html`<a href="#${bases[i]!}">${taskId}</a>`
  }
  const items: Html[] = [
    ...f.waves.map((w) => html`<dt>wave ${w.wave}</dt><dd>${join(w.taskIds.map((id) => html`${link(id)} <span class="${/SUCCESS|APPROVED/i.test(w.statuses[id] ?? '') ? 'ok' : 'bad'}">${w.statuses[id] ?? '?'}</span>`), ' · ')}</dd>`),
    ...f.timeouts.map((x) => html`<dt>timeout</dt><dd>${link(x.taskId)}${x.seconds === null ? '' : ` after ${x.seconds} s`}${x.turn === null ? '' : ` during turn ${x.turn}`} <span class="muted small">(${evidenceInline(x.evidence)})</span></dd>`),
    ...f.disagreements.map((d) => html`<dt>disagrees</dt><dd>${link(d.taskId)}: the feature says ${d.featureSays}, the task says ${d.taskSays}${d.note === undefined ? '' : `; ${d.note}`} <span class="muted small">(${evidenceInline(d.evidence)})</span></dd>`),
  ]
  return html`<section class="feature" aria-label="feature"><h3>feature ${f.featureId ?? '(unnamed)'}${f.attempt === undefined ? '' : ` (attempt ${f.attempt})`}: <span class="${f.featureResult !== null && /success|completed|approved/i.test(f.featureResult) ? 'ok' : 'bad'}">${f.featureResult ?? 'no result in the log'}</span></h3><dl class="kv">${items}</dl></section>`
}

function renderTask(report: AnalysisReport, t: TaskAnalysis, base: string, profiles: readonly string[]): Html {
  const v = t.verdict
  const label = taskLabel(t, report.tasks)
  const rows: Html[] = []
  if (v.why !== '') rows.push(html`<dt>why</dt><dd>${v.why}</dd>`)
  for (const u of v.underProfiles) rows.push(html`<dt><code>${u.profile}</code></dt><dd>${u.text}</dd>`)
  if (v.waste !== null && v.waste.turnsWasted > 0) rows.push(html`<dt>waste</dt><dd><span class="bad">${formatWaste(v.waste)}</span>: ${v.waste.basis}</dd>`)
  if (v.doNow.length > 0) rows.push(html`<dt>do now</dt><dd>${v.doNow.length === 1 ? v.doNow[0]! : html`<ul class="plain">${v.doNow.map((d) => html`<li>${d}</li>`)}</ul>`}</dd>`)
  if (v.fixedIn.length > 0 || v.notFixed.length > 0) rows.push(html`<dt>fixed in</dt><dd>${v.fixedIn.length === 0 ? 'no logic change in the modelled range' : v.fixedIn.join(', ')}${v.notFixed.length === 0 ? '' : `; not fixed: ${v.notFixed.join(', ')}`}</dd>`)
  if (t.whatif !== null) {
    const w = t.whatif
    rows.push(html`<dt>what if</dt><dd>baseline <code>${w.baseline}</code> → ${w.baselineOutcome}${w.flips.length === 0 ? '; no single change or pair flips it' : html`<ul class="plain">${w.flips.map((x) => html`<li><code>${x.flags.join(' + ')}</code> → ${x.outcome}${x.changesAtTurn === null ? '' : ` from turn ${x.changesAtTurn}`} (${x.fidelity})</li>`)}</ul>`}${w.fixedStillFails === null ? '' : html`<br><strong>fixed still fails:</strong> ${w.fixedStillFails}`}<br><span class="muted small">${w.searched}</span></dd>`)
  }
  const criteria = renderCriteria(t, profiles, base)
  const stopping = Object.values(t.replays).filter((r) => r.stallTurn !== null).sort((a, b) => a.stallTurn! - b.stallTurn!)[0]
  const reproduce = `guardkit-replay explain ${shellQuote(report.run.path)} --task ${shellQuote(t.task.taskId)}${stopping === undefined ? '' : ` --turn ${stopping.stallTurn} --profile ${stopping.profile}`}`
  return html`<section class="task" id="${base}" data-task="${t.task.taskId}" data-attempt="${t.task.attempt}">
<h2>${verdictMark(v.ok)} ${label}: ${v.happened}</h2>
<dl class="kv">${rows}</dl>
<h3>timeline</h3>
${renderTimeline({task: t, base, profiles, runPath: report.run.path})}
<h3>findings${t.findings.length === 0 ? '' : ` (${t.findings.length}, most severe first)`}</h3>
${renderFindings(t.findings, base, indexTurnEvidence(t.task))}
${criteria === null ? '' : html`<h3>criteria</h3>${criteria}`}
<p class="small">reproduce: <code>${reproduce}</code></p>
</section>`
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
