import type {AnalysisReport, TaskAnalysis} from '../../explain/analysis.js'
import {timeoutWhen} from '../../explain/feature.js'
import {eraLine, featurePictures, formatEra} from '../text/analyze.js'
import {orderCauseChain} from '../text/cause-chain.js'
import {describeTurns, firstLine, formatTurns, plural, shellQuote} from '../text/layout.js'
import {buildStallTable, type SignatureCell, type StallTable} from '../text/stall-rows.js'
import {formatEvidence} from '../text/text-options.js'
import {formatWaste} from '../text/verdict.js'
import {buildZeroOfN, type ZeroOfNView} from '../text/zero-of-n.js'
import {taskMark} from '../text/marks.js'
import {mdBlock, mdCell, mdCode, mdDetails, mdEvidenceList, mdTable, mdText} from './md.js'
import {neutraliseNames, neutraliseOutput} from '../../shared/neutralise.js'

/**
 * `guardkit-replay RUN --format md`: the text report's content for a pull request or an issue
 * comment. The verdicts come first as a table a reviewer reads at a glance; per task, the cause
 * chain as a nested list, what to do and what GuardKit fixed; the stall table and the evidence in
 * collapsed `<details>` blocks. No colour codes; record text is escaped.
 */
export function renderAnalyzeMarkdown(report: AnalysisReport, options: {verbose?: boolean} = {}): string {
  report = neutraliseNames(report)
  const run = report.run
  const featureId = report.feature?.featureId ?? run.attempts.find((a) => a.featureId !== null)?.featureId ?? null
  const era = report.era.profile
  const out: string[] = [
    `## guardkit-replay${featureId === null ? '' : `: ${mdText(featureId)}`}`,
    '',
    `${mdCode(run.path)} · ${plural(run.logs.length, 'log')}, ${run.worktrees.length === 0 ? 'no worktree' : plural(run.worktrees.length, 'worktree')} · ${report.runEra !== undefined && !report.runEra.replayed ? mdText(eraLine(report)) : `GuardKit era ${mdText(formatEra(report.era))}${report.runEra?.label == null ? '' : ` (${mdText(report.runEra.label)}, ${mdText(report.runEra.name ?? '')})`} · replayed under ${report.profiles.map((p) => `${mdCode(p.name)}${p.name === era ? ' (the run’s era)' : ''}`).join(', ')}`}`,
    '',
  ]
  out.push(...mdTable(['task', 'recorded', ...report.profiles.map((p) => mdCode(p.name)), 'waste'], report.tasks.map((t) => verdictRow(report, t))))
  if (report.tasks.length > 0) out.push('', `<sub>${mdLegend(report.tasks)}</sub>`)
  for (const f of featurePictures(report)) {
    out.push('', `**Feature ${mdText(f.featureId ?? '(unnamed)')}**${f.attempt === undefined ? '' : ` (attempt ${f.attempt})`}: ${mdText(f.featureResult ?? 'no result in the log')}`, '')
    for (const w of f.waves) out.push(`- wave ${w.wave}: ${w.taskIds.map((id) => `${mdText(id)} ${mdText(w.statuses[id] ?? '?')}`).join(', ')}`)
    for (const x of f.timeouts) out.push(`- timeout: ${mdText(x.taskId)}${timeoutWhen(x) === '' ? '' : ` ${mdText(timeoutWhen(x))}`} (${x.evidence.map((e) => mdCode(formatEvidence(e))).join(', ')})`)
    for (const d of f.disagreements) out.push(`- ${mdText(d.taskId)}: the feature says ${mdText(d.featureSays)}, the task says ${mdText(d.taskSays)}`)
  }
  for (const t of report.tasks) {
    if (t.verdict.ok && t.findings.length === 0 && options.verbose !== true) continue
    out.push('', ...renderTask(report, t, options.verbose === true))
  }
  out.push('', `<sub>${mdText(`${report.tool.name} ${report.tool.version}`)} · ${mdCode(`guardkit-replay explain ${shellQuote(run.path)} --task TASK-ID`)} for the detail of one task</sub>`)
  return neutraliseOutput(out.join('\n'))
}

/** The task's mark as an emoji (docs/cli.md "Marks and cuts"): an approved task is never ❌. */
export function mdMark(t: TaskAnalysis): string {
  const m = taskMark(t)
  return m === 'ok' ? '✅' : m === 'attention' ? '⚠️' : '❌'
}

/** The legend of the marks the table uses, once. */
function mdLegend(tasks: readonly TaskAnalysis[]): string {
  const marks = new Set(tasks.map(taskMark))
  const parts = [marks.has('ok') ? '✅ approved' : '', marks.has('attention') ? '⚠️ approved, with findings to read' : '', marks.has('failed') ? '❌ not approved' : ''].filter((x) => x !== '')
  if (tasks.some((t) => /\((approximate|insufficient)\b/.test(t.verdict.underProfiles.map((u) => u.text).join(' ')))) parts.push('~ approximate: rebuilt from partial records')
  return parts.join(' · ')
}

function verdictRow(report: AnalysisReport, t: TaskAnalysis): string[] {
  const v = t.verdict
  const profiles = report.profiles.map((p) => {
    const u = v.underProfiles.find((x) => x.profile === p.name)
    return u === undefined ? '—' : mdCell(u.text)
  })
  const waste = v.waste === null || v.waste.turnsWasted === 0 ? '—' : mdCell(formatWaste(v.waste))
  return [`${mdMark(t)} ${mdCell(t.task.taskId)}${t.task.attempt > 1 ? ` #${t.task.attempt}` : ''}`, mdCell(v.happened), ...profiles, waste]
}

function renderTask(report: AnalysisReport, t: TaskAnalysis, verbose: boolean): string[] {
  const v = t.verdict
  const out = [`### ${mdMark(t)} ${mdText(t.task.taskId)}: ${mdText(v.happened)}`, '']
  if (v.why !== '') out.push(`**Why.** ${mdText(v.why)}`, '')
  const chain = orderCauseChain(t.findings)
  if (chain.length > 0) {
    out.push('**Cause chain** (each effect under its cause, most severe first)', '')
    for (const e of chain) {
      const f = e.finding
      const turns = formatTurns(f.turns)
      const notes = [f.confidence === 'inferred' ? 'inferred' : null, e.alsoFollows.length > 0 ? `also follows from ${e.alsoFollows.join(', ')}` : null].filter((x) => x !== null)
      out.push(`${'  '.repeat(e.depth)}- ${e.depth === 0 ? '' : '↳ '}**${e.number}** ${mdCode(f.code)} (${f.severity}${turns === '' ? '' : `, ${turns}`}): ${mdText(f.message)}${notes.length === 0 ? '' : ` _(${notes.join('; ')})_`}`)
    }
    out.push('')
  }
  if (v.doNow.length > 0) out.push('**Do now**', '', ...v.doNow.map((d) => `- ${mdText(d)}`), '')
  if (v.fixedIn.length > 0 || v.notFixed.length > 0) {
    out.push(`**Fixed in** ${v.fixedIn.length === 0 ? 'no logic change in the modelled range' : v.fixedIn.map((x) => mdText(x)).join(', ')}${v.notFixed.length === 0 ? '' : `; **not fixed**: ${v.notFixed.map((x) => mdText(x)).join(', ')}`}`, '')
  }
  if (v.waste !== null && v.waste.turnsWasted > 0) out.push(`**Waste** ${mdText(formatWaste(v.waste))}: ${mdText(v.waste.basis)}`, '')
  const zero = buildZeroOfN(t, report.profiles.map((p) => p.name))
  if (zero !== null) out.push(...mdDetails(`0/${zero.total} on ${describeTurns(zero.zeroTurns)}: every criterion`, zeroOfN(zero)), '')
  const table = buildStallTable(t, report.profiles.map((p) => p.name))
  if (table !== null && table.rows.length > 1) out.push(...mdDetails(`Stall detector, turn by turn (window of ${table.windowProfile})`, stallTable(table, verbose)), '')
  const evidence = t.findings.filter((f) => f.evidence.length > 0)
  if (evidence.length > 0) {
    out.push(...mdDetails('Evidence', evidence.flatMap((f) => {
      const list = mdEvidenceList(f.evidence, '  ')
      return [`- **${f.code}** (${f.id}, ${f.confidence}): ${list.inline}${f.deduction === undefined ? '' : ` — deduced: ${mdText(f.deduction)}`}`.replace(/: $/, ':'), ...list.nested]
    })), '')
  }
  const stopping = Object.values(t.replays).filter((r) => r.stallTurn !== null).sort((a, b) => a.stallTurn! - b.stallTurn!)[0]
  const reproduce = stopping === undefined ? t.findings[0]?.reproduce ?? `guardkit-replay explain ${shellQuote(report.run.path)} --task ${t.task.taskId}` : `guardkit-replay explain ${shellQuote(report.run.path)} --task ${t.task.taskId} --turn ${stopping.stallTurn} --profile ${stopping.profile}`
  out.push(`Reproduce: ${mdCode(reproduce)}`)
  return out
}

function zeroOfN(view: ZeroOfNView): string[] {
  const out = view.perProfile.map((x) => `- ${mdCode(x.profile)}: ${x.strategy === null ? '' : `strategy ${mdCode(x.strategy)}; `}${mdText(x.note ?? '')}`)
  const judged = view.perProfile.filter((x) => x.criteria.length > 0)
  if (judged.length > 0) {
    const rows = judged[0]!.criteria.map((c) => [
      mdCode(c.id),
      mdCell(c.text),
      ...judged.map((j) => {
        const mine = j.criteria.find((x) => x.id === c.id)
        return mine === undefined ? '—' : `${mine.verified ? '✅' : '❌'} ${mdCell(mine.summary)}`
      }),
    ])
    out.push('', ...mdTable(['id', 'criterion', ...judged.map((j) => mdCode(j.profile))], rows))
    const trail = judged.flatMap((j) => j.trail.map((t) => `- ${mdCode(j.profile)} ${mdText(t.stage)}: ${mdText(t.what)}${t.flag === undefined ? '' : ` [${mdCode(t.flag)}]`}${t.evidence.length === 0 ? '' : ` (${t.evidence.map((e) => mdCode(formatEvidence(e))).join(', ')})`}`))
    if (trail.length > 0) out.push('', 'Where the data went:', '', ...trail)
  }
  if (view.dump !== null) out.push('', view.dump.basis === 'recorded' ? `GuardKit's own dump (${mdText(view.dump.where)}):` : "GuardKit's dump, rebuilt by the model (not in the log):", '', ...mdBlock(view.dump.lines.join('\n')))
  return out
}

function stallTable(table: StallTable, verbose: boolean): string[] {
  const header = ['turn', 'feedback (first line)', 'count', ...table.columns.map((c) => c.profiles.map((n) => mdCode(n)).join(' = ')), `window (${mdCode(table.windowProfile)})`]
  const rows = table.rows.slice(0, verbose ? table.rows.length : Math.max(8, (table.firstFire ?? 0) + 1)).map((r) => [
    String(r.turn),
    r.feedback === null ? '_(not in log)_' : `${mdCell(firstLine(r.feedback))}${r.feedbackSource === 'replayed-approximate' ? ' ~' : r.feedbackSource === 'recorded-truncated' ? ' …' : ''}`,
    r.count === null ? '' : String(r.count),
    ...r.cells.map(cell),
    r.window === null ? '' : `${windowCell(r.window.signatures)}${r.window.fired ? ' **→ fires**' : ''}`,
  ])
  const out = mdTable(header, rows)
  if (rows.length < table.rows.length) out.push('', `_${table.rows.length - rows.length} more turns: \`--verbose\` lists them._`)
  if (table.hasApproximate && table.assumptions.length === 0) out.push('', '~ approximate: rebuilt from partial inputs')
  if (table.hasApproximate) out.push('', ...table.assumptions.map((a) => `- ~ approximate (${mdCode(a.profile)}): ${mdText(a.assumption)}`))
  return out
}

function windowCell(sigs: readonly string[]): string {
  const same = sigs.length > 1 && sigs.every((s) => s === sigs[0])
  return same ? `${mdCode(sigs[0]!)} ×${sigs.length}` : sigs.map((s) => mdCode(s)).join(' ')
}

function cell(c: SignatureCell): string {
  switch (c.kind) {
    case 'signature':
      return `${c.fired ? '**' : ''}${mdCode(c.signature)}${c.approximate ? ' ~' : ''}${c.fired ? '**' : ''}`
    case 'not-in-log':
      return '_(not in log)_'
    case 'not-rebuildable':
      return '_(own text not in the records)_'
    case 'depends':
      return '_(depends on the branch)_'
    case 'none':
      return '—'
    case 'stopped':
      return '_stopped_'
  }
}
