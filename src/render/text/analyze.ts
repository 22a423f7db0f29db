import type {AnalysisReport, EraInference, FeaturePicture, TaskAnalysis} from '../../explain/analysis.js'
import {renderFeature} from './feature.js'
import {renderCauseChain} from './findings.js'
import {labelled, plural, shellLines, shellQuote, visibleWidth, wrap} from './layout.js'
import {buildStallTable} from './stall-rows.js'
import {renderStallTable} from './stall-table.js'
import {formatEvidence, formatEvidenceList, textOptions, type TextOptions} from './text-options.js'
import {renderTurnSummary} from './turn-detail.js'
import {renderVerdict} from './verdict.js'
import {legendLine, taskMark} from './marks.js'
import {buildZeroOfN, renderZeroOfN} from './zero-of-n.js'
import {neutraliseNames, neutraliseOutput} from '../../shared/neutralise.js'

const MAX_LABEL = 22

/**
 * `guardkit-replay RUN` as text (docs/cli.md "The text report"): the run and its era, a verdict per task (what
 * happened, why, what each profile would have done, the waste), the feature picture, then per
 * task that needs it the cause chain, what to do now, what GuardKit fixed, the stall detector
 * turn by turn, and the command that shows the detail. `verbose` adds evidence and every turn.
 */
export function renderAnalyzeText(report: AnalysisReport, options: Partial<TextOptions> = {}): string {
  report = neutraliseNames(report)
  const o = textOptions(options)
  const p = o.palette
  const out: string[] = [...renderHeader(report, o)]
  const labels = taskLabels(report.tasks)
  const rowWidth = Math.min(MAX_LABEL, Math.max(9, ...report.profiles.map((x) => x.name.length)))
  out.push('')
  if (report.tasks.length === 0) out.push(p.dim('No task loop ran in this run: nothing to replay. `guardkit-replay inspect RUN` shows what was found.'))
  for (const [i, t] of report.tasks.entries()) out.push(...renderVerdict(t, labels[i]!, rowWidth, o))
  // the legend goes under the verdicts, once; what it lists depends on the whole report
  const legendAt = out.length
  for (const f of featurePictures(report)) out.push('', ...renderFeature(f, o))
  for (const [i, t] of report.tasks.entries()) {
    if (t.verdict.ok && t.findings.length === 0 && !o.verbose) continue
    out.push('', ...renderTaskDetail(report, t, labels[i]!, o))
  }
  out.push('', ...renderFooter(report, o))
  if (report.tasks.length > 0) out.splice(legendAt, 0, ...legend(report.tasks, out, o))
  return neutraliseOutput(out.join('\n'), {keepSgr: p.enabled})
}

/** The legend of the marks the report uses, wrapped, dim. */
export function legend(tasks: readonly TaskAnalysis[], lines: readonly string[], o: TextOptions): string[] {
  const body = lines.join('\n')
  const text = legendLine({marks: tasks.map(taskMark), approximate: /[0-9a-f]{8}~|\((approximate|insufficient)\b|~ approximate/.test(body), cut: !o.verbose && body.includes('…')})
  return ['', ...wrap(text, o.width).map((l) => o.palette.dim(l))]
}

function renderHeader(report: AnalysisReport, o: TextOptions): string[] {
  const p = o.palette
  const run = report.run
  const featureId = report.feature?.featureId ?? run.attempts.find((a) => a.featureId !== null)?.featureId ?? null
  const parts = [p.bold('guardkit-replay'), featureId, run.path, `${plural(run.logs.length, 'log')}, ${run.worktrees.length === 0 ? 'no worktree' : plural(run.worktrees.length, 'worktree')}`]
  const out = hanging(parts.filter((x) => x !== null).join(' · '), o.width)
  out.push(...hanging(eraLine(report), o.width).map((l) => p.dim(l)))
  if (o.verbose) {
    for (const b of report.runEra?.basis ?? []) out.push(...labelled('  ', 'placed by', 10, b, o.width, p.dim))
    out.push(...labelled('  ', 'era', 8, report.era.reason, o.width, p.dim))
    for (const e of report.era.evidence.slice(0, 12)) out.push(p.dim(`            at ${formatEvidence(e)}`))
    for (const x of report.profiles) out.push(...labelled('  ', x.name, Math.max(8, ...report.profiles.map((y) => y.name.length)), x.description, o.width, p.cyan))
  }
  return out
}

/**
 * The run's era, once (docs/era-markers.md): outside the modelled window the statement alone, with
 * the records that place the run; inside it, also the commit window and the profiles replayed.
 */
export function eraLine(report: AnalysisReport): string {
  const runEra = report.runEra
  if (runEra !== undefined && !runEra.replayed) return `${runEra.statement} (${runEra.basis.length === 0 ? 'no marker places it on the timeline' : runEra.basis.slice(0, 3).join('; ')})`
  const era = report.era.profile
  const profiles = report.profiles.map((x) => (x.name === era ? `${x.name} (the run's era)` : x.name)).join(', ')
  const of = runEra?.label == null ? 'GuardKit era' : `GuardKit of ${runEra.label} (${runEra.name}), commit`
  return `${of} ${formatEra(report.era)}; replayed under ${profiles}`
}

/** Every feature run captured (a log may hold several attempts), else the main picture. */
export function featurePictures(report: AnalysisReport): FeaturePicture[] {
  const all = report.features ?? []
  return all.length > 1 ? [...all] : report.feature === null ? [] : [report.feature]
}

/** Wrapped with every continuation line indented by two. */
function hanging(text: string, width: number): string[] {
  const [first = '', ...rest] = wrap(text, width)
  return [first, ...wrap(rest.join(' '), width - 2).filter((l) => l !== '').map((l) => `  ${l}`)]
}

/** The era in a few words: the commit window and how sure the markers make it. */
export function formatEra(era: EraInference): string {
  if (!era.modelled) return `outside the modelled range (${era.reason})`
  const {from, to} = era.window
  const window = from !== null && era.openAbove === true ? `from ${from} on, ${to !== null && to !== from ? `${to} the newest modelled` : 'the newest modelled'}`
    : from !== null && to !== null ? (from === to ? `at ${from}` : `between ${from} and ${to}`) : from !== null ? `at or after ${from}` : to !== null ? `before ${to}` : 'unknown'
  if (era.evidence.length === 0) return window === 'unknown' ? `unknown (${era.reason})` : window
  return `${window} (${era.confidence} confidence, from ${plural(era.evidence.length, 'record')})`
}

/** Task ids, with the attempt when a task ran more than once. */
function taskLabels(tasks: readonly TaskAnalysis[]): string[] {
  const counts = new Map<string, number>()
  for (const t of tasks) counts.set(t.task.taskId, (counts.get(t.task.taskId) ?? 0) + 1)
  return tasks.map((t) => ((counts.get(t.task.taskId) ?? 0) > 1 ? `${t.task.taskId} #${t.task.attempt}` : t.task.taskId))
}

function renderTaskDetail(report: AnalysisReport, t: TaskAnalysis, label: string, o: TextOptions): string[] {
  const p = o.palette
  const rule = '─'.repeat(Math.max(0, Math.min(o.width, 100) - visibleWidth(label) - 4))
  const out = [p.bold(`── ${label} ${rule}`)]
  const v = t.verdict
  out.push(...renderCauseChain(t.findings, o))
  if (v.doNow.length === 1) out.push('', ...labelled('  ', 'do now', 10, v.doNow[0]!, o.width, p.bold))
  if (v.doNow.length > 1) {
    out.push('')
    v.doNow.forEach((d, i) => out.push(...labelled('  ', i === 0 ? 'do now' : '', 10, `• ${d}`, o.width - 2, p.bold).map((l, k) => (k === 0 ? l : `  ${l}`))))
  }
  if (v.fixedIn.length > 0 || v.notFixed.length > 0) {
    const fixed = v.fixedIn.length === 0 ? 'no logic change in the modelled range' : v.fixedIn.join(', ')
    const not = v.notFixed.length === 0 ? '' : `; not fixed: ${v.notFixed.join(', ')}`
    out.push(...labelled('  ', 'fixed in', 10, `${fixed}${not}`, o.width, p.bold))
  }
  const profileNames = report.profiles.map((x) => x.name)
  const zero = buildZeroOfN(t, profileNames)
  if (zero !== null) out.push('', ...renderZeroOfN(zero, o))
  const table = buildStallTable(t, profileNames)
  if (table !== null && table.rows.length > 1) out.push('', ...renderStallTable(table, o))
  if (o.verbose) {
    const turns = [...new Set([...t.task.turns.map((u) => u.turn), ...Object.values(t.replays).flatMap((r) => r.turns.map((u) => u.turn))])].sort((a, b) => a - b)
    out.push('', `  ${p.bold('turn by turn')}`)
    for (const turn of turns) out.push(...renderTurnSummary(t, turn, profileNames, o, '  '))
    for (const e of t.task.events) out.push(p.dim(`  event ${e.kind}${'turn' in e && e.turn !== null ? ` at turn ${e.turn}` : ''}  (${formatEvidenceList(e.evidence)})`))
  }
  out.push('', ...shellLines(`  ${p.dim('reproduce:')} `, reproduceCommand(report, t, table?.firstFire ?? null), o.width))
  return out
}

/** The explain command for the turn that matters most: where the first profile stops, else the top finding's. */
function reproduceCommand(report: AnalysisReport, t: TaskAnalysis, firstFire: number | null): string {
  const stopping = Object.values(t.replays).filter((r) => r.stallTurn !== null).sort((a, b) => a.stallTurn! - b.stallTurn!)[0]
  const base = `guardkit-replay explain ${shellQuote(report.run.path)} --task ${t.task.taskId}`
  if (stopping !== undefined && firstFire !== null) return `${base} --turn ${stopping.stallTurn} --profile ${stopping.profile}`
  return t.findings[0]?.reproduce ?? base
}

function renderFooter(report: AnalysisReport, o: TextOptions): string[] {
  const p = o.palette
  const run = shellQuote(report.run.path)
  const issues = report.run.ingestIssues
  const out: string[] = []
  if (issues.length > 0) {
    const first = issues[0]!
    out.push(...hanging(`${plural(issues.length, 'ingest issue')}: ${formatEvidence(first)} ${first.message}${issues.length > 1 ? `; \`guardkit-replay inspect ${run}\` lists them all` : ''}`, o.width).map((l, i) => (i === 0 ? l.replace(/^\d+ ingest issues?/, (m) => p.yellow(m)) : l)))
  }
  const focus = report.tasks.find((t) => !t.verdict.ok) ?? report.tasks[0]
  out.push(p.bold('next'))
  const next = (command: string, note: string) => out.push(...shellLines('  ', command, o.width, note, p.dim))
  if (focus !== undefined) {
    next(`guardkit-replay explain ${run} --task ${focus.task.taskId}`, 'every criterion, signature and piece of evidence')
    next(`guardkit-replay whatif ${run} --task ${focus.task.taskId}`, 'which logic changes flip the outcome')
  }
  if (!o.verbose) next(`guardkit-replay ${run} --verbose`, 'every turn, with evidence lines')
  next(`guardkit-replay ${run} --format md`, 'this report for a pull request or an issue')
  return out
}
