import {describeBranches} from '../../explain/branch-phrases.js'
import type {GateReport, GateRun, GateTask} from '../gate-report.js'
import {renderTextDiff} from './feedback-diff.js'
import {arrow, decidingReasons, firstFeedbackDifference, outcomeCell, resultCell, ruleLabel, taskLabel, turnDiff, type DiffLine} from './gate-lines.js'
import {formatTurns, labelled, padEnd, plural, shellLines, wrap} from './layout.js'
import {renderTable, type Cell, type Column, type TableLine} from './table.js'
import type {Palette} from './plain-palette.js'
import {colourSeverity, formatEvidenceList, textOptions, type TextOptions} from './text-options.js'
import {neutraliseNames, neutraliseOutput} from '../../shared/neutralise.js'

const LABEL = 10
const MAX_FEEDBACK_DIFF = 14

/**
 * `guardkit-replay gate` for a terminal (docs/ci.md): the verdict and counts, a table of every task
 * that is not unchanged (all of them with --verbose), then each failing task with its reasons, the
 * findings that explain it, the turns baseline → candidate and recorded → candidate as diffs, the
 * first feedback that differs, and the command that shows the detail.
 */
export function renderGateText(report: GateReport, options: Partial<TextOptions> = {}): string {
  report = neutraliseNames(report)
  const o = textOptions(options)
  const p = o.palette
  const out: string[] = [...header(report, p), '', ...counts(report, p), '', ...table(report, o)]
  const failing = report.runs.flatMap((run) => run.tasks.filter((t) => t.failing).map((t) => ({run, t})))
  if (failing.length > 0) {
    out.push('', p.bold(failing.some((f) => f.t.classification === 'regressed') ? 'Regressions' : 'Failing tasks'))
    for (const {run, t} of failing) out.push('', ...taskBlock(report, run, t, o))
  }
  const problems = report.problems
  if (problems.length > 0) {
    out.push('', p.bold('Inputs'))
    for (const x of problems) out.push(...labelled('  ', x.severity === 'error' ? p.red('error') : p.yellow('warning'), 8, `${x.path}: ${x.message}`, o.width))
  }
  out.push('', verdictLine(report, p))
  return neutraliseOutput(out.join('\n'), {keepSgr: p.enabled})
}

function header(r: GateReport, p: Palette): string[] {
  const shard = r.shard === null ? '' : ` · shard ${r.shard.index}/${r.shard.count}`
  const merged = r.merged === null ? '' : ` · merged from ${plural(r.merged.shards, 'shard')}`
  const lines = [`${p.bold('guardkit-replay gate')}: ${r.baseline.name} → ${r.candidate.name} · ${plural(r.summary.runs, 'run')} · ${plural(r.summary.tasks, 'task')}${shard}${merged}`]
  lines.push(p.dim(`policy: regressions fail${r.policy.failOn.length ? `; also --fail-on ${r.policy.failOn.join(', ')}` : ''} (docs/ci.md)${r.expectations.length ? ` · expectations: ${r.expectations.join(', ')}` : ''}`))
  return lines
}

function counts(r: GateReport, p: Palette): string[] {
  const s = r.summary
  const row = (label: string, n: number, colour: (x: string) => string): string => `  ${padEnd(label, 10)} ${n === 0 ? p.dim(String(n).padStart(4)) : colour(String(n).padStart(4))}`
  return [
    row('regressed', s.regressed, (x) => p.bold(p.red(x))),
    row('improved', s.improved, p.green),
    row('changed', s.changed, p.yellow),
    row('unchanged', s.unchanged, (x) => x),
    row('skipped', s.skipped, p.dim),
    ...(s.approximate > 0 ? [p.dim(`  (${plural(s.approximate, 'task')} classified on approximate values, marked ~)`)] : []),
  ]
}

/**
 * Tasks grouped under their run (the runs' common folder said once in the heading), one line
 * each: task, baseline outcome, candidate outcome, result.
 */
function table(r: GateReport, o: TextOptions): string[] {
  const p = o.palette
  const runs = r.runs.map((run) => ({run, tasks: run.tasks.filter((t) => o.verbose || t.classification !== 'unchanged')})).filter((x) => x.tasks.length > 0)
  const out: string[] = []
  if (runs.length > 0) {
    const prefix = commonFolder(r.runs.map((x) => x.path))
    out.push(p.dim(`${prefix === '' ? 'RUN' : `RUN (in ${prefix})`}`))
    const rows: (Cell[] | TableLine)[] = []
    for (const {run, tasks} of runs) {
      rows.push({line: run.path.slice(prefix.length) || run.path})
      const reasons = new Set(tasks.map((t) => t.skipReason))
      if (tasks.length > 1 && tasks.every((t) => t.classification === 'skipped') && reasons.size === 1) {
        // a run skipped whole (its era is not modelled): one line, not one per task
        for (const l of wrap(`${plural(tasks.length, 'task')} skipped: ${tasks[0]!.skipReason ?? ''}`, o.width - 2)) rows.push({line: `  ${colourClass(p, tasks[0]!, l)}`})
        continue
      }
      for (const t of tasks) {
        const attempts = run.tasks.filter((x) => x.taskId === t.taskId).length
        rows.push([taskLabel(t, attempts), outcomeCell(t.baseline, true), outcomeCell(t.candidate, true), {text: resultCell(t, 2), style: (l) => colourClass(p, t, l)}])
      }
    }
    const columns: Column[] = [
      {header: 'TASK', flex: 'cut', min: 12},
      {header: r.baseline.name.toUpperCase(), flex: 'wrap', min: 16},
      {header: r.candidate.name.toUpperCase(), flex: 'wrap', min: 16},
      {header: 'RESULT', flex: 'wrap', min: 20, stack: 1, stackLabel: 'result'},
    ]
    out.push(...renderTable(columns, rows, {width: o.width, headerStyle: p.dim}))
  }
  const hidden = o.verbose ? 0 : r.summary.unchanged
  if (hidden > 0) out.push(p.dim(`${runs.length > 0 ? '' : 'every task is unchanged: '}${plural(hidden, 'unchanged task')} not listed (--verbose lists them)`))
  for (const run of r.runs.filter((x) => x.skipReason !== null)) out.push(p.dim(`${run.path}: not gated, ${run.skipReason}`))
  return out
}

/** The folder all runs share (`fixtures/runs/`), or '' (a single run keeps its full path). */
function commonFolder(paths: readonly string[]): string {
  if (paths.length < 2) return ''
  const split = paths.map((x) => x.split('/'))
  const first = split[0]!
  let n = 0
  while (n < first.length - 1 && split.every((s) => s.length - 1 > n && s[n] === first[n])) n++
  return n === 0 ? '' : `${first.slice(0, n).join('/')}/`
}

function colourClass(p: Palette, t: GateTask, text: string): string {
  switch (t.classification) {
    case 'regressed':
      return p.bold(p.red(text))
    case 'improved':
      return p.green(text)
    case 'changed':
      return t.failing ? p.red(text) : p.yellow(text)
    case 'skipped':
      return t.failing ? p.red(text) : p.dim(text)
    case 'unchanged':
      return p.dim(text)
  }
}

/** One failing task in full. */
function taskBlock(r: GateReport, run: GateRun, t: GateTask, o: TextOptions): string[] {
  const p = o.palette
  const w = o.width
  const B = r.baseline.name
  const C = r.candidate.name
  const out = [`${p.red('✗')} ${p.bold(`${t.taskId} (attempt ${t.attempt})`)} in ${run.path}: ${p.bold(t.classification)}${t.approximate ? ' (on approximate values)' : ''}`]
  out.push(...labelled('  ', B, LABEL, sideText(t.baseline), w, p.dim))
  out.push(...labelled('  ', C, LABEL, sideText(t.candidate), w, p.dim))
  out.push(...labelled('  ', 'recorded', LABEL, `${t.recorded.outcome ?? 'no outcome (the record ends)'}, ${plural(t.recorded.turns, 'turn')}${t.recorded.stallTurn === null ? '' : `, stall detector fired at turn ${t.recorded.stallTurn}`}`, w, p.dim))
  if (t.skipReason) out.push(...labelled('  ', 'skipped', LABEL, t.skipReason, w, p.dim))
  decidingReasons(t).forEach((reason, i) => {
    out.push(...labelled('  ', i === 0 ? 'why' : '', LABEL, `${ruleLabel(reason.rule)}: ${reason.message}${reason.approximate ? ' (approximate)' : ''}${reason.note ? ` [${reason.note}]` : ''}`, w, p.dim))
  })
  const others = t.reasons.filter((x) => !decidingReasons(t).includes(x))
  if (others.length > 0) out.push(...labelled('  ', 'also', LABEL, others.map((x) => `${ruleLabel(x.rule)}${x.turn === null ? '' : ` (t${x.turn})`}${x.waived ? ' (waived)' : ''}`).join(', '), w, p.dim))
  if (t.expectation) {
    const pins = t.expectation.pins.map((x) => `${x.subject} ${x.expected}: ${x.met ? 'met' : `not met (${x.found})`}`)
    out.push(...labelled('  ', 'expected', LABEL, `${t.expectation.key} in ${t.expectation.file}${pins.length ? `: ${pins.join('; ')}` : ''}${t.expectation.note ? ` (${t.expectation.note})` : ''}`, w, p.dim))
  }
  t.findings.forEach((f, i) => {
    out.push(...labelled('  ', i === 0 ? 'finding' : '', LABEL, `${colourSeverity(p, f.severity, f.code)} (${f.severity}${f.confidence === 'inferred' ? ', inferred' : ''}${f.turns.length ? `, ${formatTurns(f.turns)}` : ''}): ${f.message}`, w, p.dim))
    out.push(...labelled('  ', '', LABEL, `${f.why}${f.evidence.length ? ` · ${formatEvidenceList(f.evidence)}` : ''}`, w, p.dim))
  })
  if (t.turns !== null) {
    out.push(...diffBlock(`turns ${arrow(B, C)}`, turnDiff(t.turns, 'baseline', 'candidate'), p))
    if (r.candidate.kind !== 'recorded') out.push(...diffBlock(`turns ${arrow('recorded', C)}`, turnDiff(t.turns, 'recorded', 'candidate'), p))
    const fb = firstFeedbackDifference(t.turns, 'baseline', 'candidate')
    if (fb) {
      const lines = renderTextDiff(fb.before, fb.after, p, `${' '.repeat(LABEL + 4)}`)
      out.push(`  ${p.dim(padEnd('feedback', LABEL))}  turn ${fb.turn}, ${arrow(B, C)}:`)
      out.push(...lines.slice(0, MAX_FEEDBACK_DIFF))
      if (lines.length > MAX_FEEDBACK_DIFF) out.push(p.dim(`${' '.repeat(LABEL + 4)}… ${lines.length - MAX_FEEDBACK_DIFF} more lines (see explain)`))
    }
  }
  out.push(...shellLines(`  ${p.dim(padEnd('reproduce', LABEL))}  `, t.reproduce, w))
  return out
}

function sideText(s: GateTask['baseline']): string {
  const at = s.branches ? `undetermined: ${describeBranches(s.branches)}` : s.kind === 'undetermined' || s.kind === 'not-modelled' || s.endTurn === null ? s.outcome : `${s.outcome} at turn ${s.endTurn}`
  return `${at}${s.fidelity === 'exact' ? '' : ` (${s.fidelity})`}`
}

const MAX_DIFF_LINES = 24

function diffBlock(title: string, all: readonly DiffLine[], p: Palette): string[] {
  const indent = ' '.repeat(LABEL + 4)
  if (all.length === 0) return [`  ${p.dim(padEnd('', LABEL))}  ${title}: identical`]
  const lines = all.length > MAX_DIFF_LINES ? [...all.slice(0, MAX_DIFF_LINES - 1), {op: '…' as const, text: `${all.length - MAX_DIFF_LINES + 1} more lines (--format md or --json has them all)`}] : all
  return [
    `  ${p.dim(padEnd('', LABEL))}  ${title} (- ${title.split(' ')[1]}, + ${title.split(' → ')[1]}):`,
    ...lines.map((l) => (l.op === '-' ? `${indent}${p.red(`- ${l.text}`)}` : l.op === '+' ? `${indent}${p.green(`+ ${l.text}`)}` : l.op === '…' ? p.dim(`${indent}  … ${l.text}`) : p.dim(`${indent}  ${l.text}`))),
  ]
}

function verdictLine(r: GateReport, p: Palette): string {
  const s = r.summary
  if (r.verdict === 'pass') {
    return `${p.bold(p.green('PASS'))}: no regression (${s.improved} improved, ${s.changed} changed, ${s.unchanged} unchanged${s.skipped ? `, ${s.skipped} skipped` : ''}).`
  }
  const what = [s.regressed ? plural(s.regressed, 'regression') : '', s.failing - s.regressed > 0 ? `${s.failing - s.regressed} more failing under --fail-on` : ''].filter((x) => x !== '')
  return `${p.bold(p.red('FAIL'))}: ${what.join(', ')} (${s.improved} improved, ${s.unchanged} unchanged).`
}
