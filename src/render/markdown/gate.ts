import {diffLines} from 'diff'
import type {GateReport, GateRun, GateTask} from '../gate-report.js'
import {arrow, decidingReasons, firstFeedbackDifference, outcomeCell, resultCell, ruleLabel, taskLabel, turnDiff, type DiffLine} from '../text/gate-lines.js'
import {plural} from '../text/layout.js'
import {formatEvidence} from '../text/text-options.js'
import {mdBlock, mdCell, mdCode, mdDetails, mdTable, mdText} from './md.js'
import {neutraliseNames, neutraliseOutput} from '../../shared/neutralise.js'

export interface GateMarkdownOptions {
  readonly verbose?: boolean
  /** Leave out the turn diffs and the task table (GitHub's step summary holds at most 1 MiB). */
  readonly compact?: boolean
}

const MAX_TABLE_ROWS = 200

/**
 * `gate --format md` and the GitHub step summary (docs/ci.md): the verdict, the counts, a table of
 * the tasks that are not unchanged, then each failing task in a collapsed block with its reasons,
 * the findings that explain it and the turn diffs. Record text is escaped (md.ts).
 */
export function renderGateMarkdown(report: GateReport, options: GateMarkdownOptions = {}): string {
  report = neutraliseNames(report)
  const s = report.summary
  const B = report.baseline.name
  const C = report.candidate.name
  const icon = report.verdict === 'pass' ? '✅' : '❌'
  const scope = report.shard === null ? '' : ` · shard ${report.shard.index}/${report.shard.count}`
  const merged = report.merged === null ? '' : ` · merged from ${plural(report.merged.shards, 'shard')}`
  const out: string[] = [
    `## ${icon} guardkit-replay gate: ${mdCode(B)} → ${mdCode(C)}`,
    '',
    `${report.verdict === 'pass' ? '**PASS**: no regression' : `**FAIL**: ${plural(s.failing, 'failing task')}`} · ${plural(s.runs, 'run')} · ${plural(s.tasks, 'task')}${scope}${merged}`,
    '',
    ...mdTable(['regressed', 'improved', 'changed', 'unchanged', 'skipped'], [[String(s.regressed), String(s.improved), String(s.changed), String(s.unchanged), String(s.skipped)]]),
    '',
    `<sub>policy: regressions fail${report.policy.failOn.length ? `; also --fail-on ${mdText(report.policy.failOn.join(', '))}` : ''} · \`~\`: classified on approximate values${report.expectations.length ? ` · expectations: ${report.expectations.map((f) => mdCode(f)).join(', ')}` : ''}</sub>`,
  ]
  const rows = report.runs.flatMap((run) => run.tasks.filter((t) => options.verbose || t.classification !== 'unchanged').map((t) => ({run, t})))
  if (rows.length > 0 && !options.compact) {
    const shown = rows.slice(0, MAX_TABLE_ROWS)
    out.push('', ...mdTable(['run', 'task', mdCode(B), mdCode(C), 'result'], shown.map(({run, t}) => [mdCode(run.path), mdCell(label(run, t)), mdCell(outcomeCell(t.baseline)), mdCell(outcomeCell(t.candidate)), mdCell(resultCell(t))])))
    if (rows.length > shown.length) out.push('', `<sub>${rows.length - shown.length} more rows in the JSON report</sub>`)
  }
  const failing = report.runs.flatMap((run) => run.tasks.filter((t) => t.failing).map((t) => ({run, t})))
  if (failing.length > 0) {
    out.push('', `### ${failing.some((f) => f.t.classification === 'regressed') ? 'Regressions' : 'Failing tasks'}`)
    for (const {run, t} of failing) out.push('', ...taskSection(report, run, t, options.compact === true))
  }
  const unreadable = report.problems
  if (unreadable.length > 0) {
    out.push('', '### Inputs', '')
    for (const p of unreadable) out.push(`- ${p.severity === 'error' ? '**error**' : 'warning'}: ${mdCode(p.path)}: ${mdText(p.message)}`)
  }
  out.push('', `<sub>${mdText(`${report.tool.name} ${report.tool.version}`)} · docs/ci.md explains the policy</sub>`)
  return neutraliseOutput(`${out.join('\n')}\n`)
}

function label(run: GateRun, t: GateTask): string {
  return taskLabel(t, run.tasks.filter((x) => x.taskId === t.taskId).length)
}

function taskSection(report: GateReport, run: GateRun, t: GateTask, compact: boolean): string[] {
  const B = report.baseline.name
  const C = report.candidate.name
  const out = [`**${mdText(label(run, t))}** in ${mdCode(run.path)}: ${mdText(t.classification)}${t.approximate ? ' (on approximate values)' : ''}`, '']
  out.push(`- ${mdCode(B)}: ${mdText(outcomeCell(t.baseline))} · ${mdCode(C)}: ${mdText(outcomeCell(t.candidate))} · recorded: ${mdText(t.recorded.outcome ?? 'no outcome')} (${plural(t.recorded.turns, 'turn')})`)
  if (t.skipReason) out.push(`- skipped: ${mdText(t.skipReason)}`)
  for (const r of decidingReasons(t)) out.push(`- **${mdText(ruleLabel(r.rule))}**: ${mdText(r.message)}${r.approximate ? ' (approximate)' : ''}${r.note ? ` — ${mdText(r.note)}` : ''}`)
  for (const f of t.findings) {
    out.push(`- finding ${mdCode(f.code)} (${f.severity}${f.confidence === 'inferred' ? ', inferred' : ''}): ${mdText(f.message)} — ${mdText(f.why)}${f.evidence.length ? ` (${f.evidence.map((e) => mdCode(formatEvidence(e))).join(', ')})` : ''}`)
  }
  if (t.expectation) out.push(`- expectations: ${mdCode(t.expectation.key)} in ${mdCode(t.expectation.file)}: ${t.expectation.pins.map((p) => `${mdText(p.subject)} ${mdCode(p.expected)} ${p.met ? 'met' : `not met (${mdText(p.found)})`}`).join('; ')}`)
  out.push(`- reproduce: ${mdCode(t.reproduce)}`)
  if (!compact && t.turns !== null) {
    const body = [`${mdText(`turns ${arrow(B, C)}`)}`, '', ...diffBlock(turnDiff(t.turns, 'baseline', 'candidate'))]
    if (report.candidate.kind !== 'recorded') body.push('', mdText(`turns ${arrow('recorded', C)}`), '', ...diffBlock(turnDiff(t.turns, 'recorded', 'candidate')))
    const fb = firstFeedbackDifference(t.turns, 'baseline', 'candidate')
    if (fb) body.push('', mdText(`feedback at turn ${fb.turn}, ${arrow(B, C)}`), '', ...feedbackDiff(fb.before, fb.after))
    out.push('', ...mdDetails(`turn by turn: ${arrow(B, C)}`, body))
  }
  return out
}

function diffBlock(lines: readonly DiffLine[]): string[] {
  if (lines.length === 0) return ['identical']
  return mdBlock(lines.map((l) => (l.op === '…' ? `  … ${l.text}` : `${l.op} ${l.text}`)).join('\n'), 'diff')
}

const MAX_FEEDBACK_LINES = 30

/** The two feedback texts line by line (the `diff` package), at most 30 lines. */
function feedbackDiff(before: string, after: string): string[] {
  const lines: string[] = []
  for (const part of diffLines(`${before}\n`, `${after}\n`)) {
    const op = part.added ? '+' : part.removed ? '-' : ' '
    for (const l of part.value.replace(/\n$/, '').split('\n')) lines.push(`${op} ${l}`)
  }
  const shown = lines.slice(0, MAX_FEEDBACK_LINES)
  if (lines.length > shown.length) shown.push(`  … ${lines.length - shown.length} more lines`)
  return mdBlock(shown.join('\n'), 'diff')
}
