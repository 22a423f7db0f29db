import type {AnalysisReport, TaskAnalysis} from '../../explain/analysis.js'
import {eraLine, formatEra, legend} from './analyze.js'
import {renderTurnDeep} from './explain-turn.js'
import {renderDiagnosisExplain} from './diagnosis.js'
import {renderCauseChain} from './findings.js'
import {labelled, shellQuote, wrap} from './layout.js'
import {buildStallTable} from './stall-rows.js'
import {renderStallTable} from './stall-table.js'
import {formatEvidenceList, textOptions, type TextOptions} from './text-options.js'
import {renderVerdict} from './verdict.js'
import {neutraliseNames, neutraliseOutput} from '../../shared/neutralise.js'

export interface ExplainView {
  readonly task: TaskAnalysis
  /** One turn, or every turn of the task. */
  readonly turn: number | null
  /** Whose view: the profiles to show, in order. */
  readonly profiles: readonly string[]
}

/**
 * `explain RUN --task ID [--turn N]` as text: the deep dump. The task's verdict, its criteria, the
 * diagnosis (why the primary cause was chosen, every signal and those no rule classifies),
 * every finding with all its evidence, the stall table, then each turn in full (record, 0/N
 * dump, per profile: pipeline, criteria, feedback with its diff, signatures, window, reason).
 */
export function renderExplainText(report: AnalysisReport, view: ExplainView, options: Partial<TextOptions> = {}): string {
  report = neutraliseNames(report)
  view = neutraliseNames(view)
  const o = {...textOptions(options), verbose: true}
  const p = o.palette
  const t = view.task
  const rowWidth = Math.max(9, ...view.profiles.map((n) => n.length))
  const out = [
    `${p.bold(`explain ${t.task.taskId}`)}${t.task.attempt > 1 ? ` (attempt ${t.task.attempt})` : ''}${view.turn === null ? '' : p.bold(` turn ${view.turn}`)} · ${report.run.path}`,
    ...wrap(report.runEra !== undefined && !report.runEra.replayed ? eraLine(report) : `GuardKit era ${formatEra(report.era)}; showing ${view.profiles.join(', ')}`, o.width).map((l) => p.dim(l)),
    '',
    ...renderVerdict({...t, verdict: {...t.verdict, underProfiles: t.verdict.underProfiles.filter((u) => view.profiles.includes(u.profile))}}, t.task.taskId, rowWidth, o),
  ]
  const legendAt = out.length
  const c = t.task.criteria
  if (c !== null) {
    out.push('', `  ${p.bold(`acceptance criteria (${c.texts.length}, from ${c.source}${c.complete ? '' : ', cut'})`)}${p.dim(`  ${formatEvidenceList(c.evidence)}`)}`)
    c.texts.forEach((text, i) => out.push(...labelled('  ', `AC-${String(i + 1).padStart(3, '0')}`, 7, text, o.width, p.dim)))
  }
  const diagnosis = renderDiagnosisExplain(t, view.turn, o)
  if (diagnosis.length > 0) out.push('', ...diagnosis)
  const findings = view.turn === null ? t.findings : t.findings.filter((f) => f.turns.includes(view.turn!) || f.turns.length === 0)
  if (findings.length > 0) out.push('', ...renderCauseChain(findings, o, '  ', Number.POSITIVE_INFINITY))
  else out.push('', p.dim(`  no finding${view.turn === null ? '' : ` names turn ${view.turn}`}`))
  const table = buildStallTable({...t, replays: pick(t.replays, view.profiles)}, view.profiles)
  if (table !== null && view.turn === null && table.rows.length > 1) out.push('', ...renderStallTable(table, o))
  const turns = view.turn === null ? allTurns(t) : [view.turn]
  for (const turn of turns) out.push('', ...renderTurnDeep(t, turn, view.profiles, o))
  const events = t.task.events.filter((e) => view.turn === null || !('turn' in e) || e.turn === view.turn)
  if (events.length > 0) {
    out.push('', `  ${p.bold('recorded events')}`)
    for (const e of events) out.push(p.dim(`    ${e.kind}${'turn' in e && e.turn !== null ? ` at turn ${e.turn}` : ''}  ${formatEvidenceList(e.evidence, 6)}`))
  }
  out.splice(legendAt, 0, ...legend([t], out, o))
  out.push('', p.dim(`guardkit-replay whatif ${shellQuote(report.run.path)} --task ${t.task.taskId}   which logic changes flip this task`))
  return neutraliseOutput(out.join('\n'), {keepSgr: p.enabled})
}

function allTurns(t: TaskAnalysis): number[] {
  return [...new Set([...t.task.turns.map((u) => u.turn), ...Object.values(t.replays).flatMap((r) => r.turns.map((u) => u.turn))])].sort((a, b) => a - b)
}

function pick<T>(record: Readonly<Record<string, T>>, keys: readonly string[]): Record<string, T> {
  return Object.fromEntries(keys.filter((k) => record[k] !== undefined).map((k) => [k, record[k]!]))
}
