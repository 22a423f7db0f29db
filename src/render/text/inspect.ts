import type {Report, ReportTask} from '../json/report.js'
import {shellLines, shellQuote, visibleWidth, wrap} from './layout.js'
import {PLAIN, type Palette} from './plain-palette.js'
import {renderTable} from './table.js'
import {DEFAULT_WIDTH} from './text-options.js'
import {neutraliseNames, neutraliseOutput} from '../../shared/neutralise.js'
const MAX_ISSUES = 30
const MAX_LOGGERS = 40

/** `inspect` as text: what was found, per attempt and task, the ingest issues, the grammar coverage, what next. */
export function renderInspectText(given: Report, options: {readonly palette?: Palette; readonly width?: number} = {}): string {
  const report = neutraliseNames(given)
  const p = options.palette ?? PLAIN
  const width = options.width ?? DEFAULT_WIDTH
  const out: string[] = []
  const attempts = report.attempts ?? []
  const logs = report.run.logs
  out.push(p.bold(`RUN ${report.run.path}`) + p.dim(` — ${count(logs.length, 'log')}, ${count(attempts.length, 'attempt')}, ${count(report.tasks.length, 'task')}`))
  for (const a of attempts) {
    out.push('')
    const result = a.featureResult === null ? '' : ` (${a.featureResult})`
    const what = a.kind === 'task' ? 'task run' : `feature ${a.featureId ?? '?'}`
    out.push(p.bold(`Attempt ${a.attempt}`) + `  ${a.file}:${a.startLine}–${a.endLine}  ${what}${result}${a.truncated ? p.yellow('  log ends inside this run') : ''}`)
    if (a.command !== null) out.push(...shellLines('  $ ', a.command, width).map((l) => p.dim(l)))
    const tasks = report.tasks.filter((t) => t.attempt === a.attempt)
    if (tasks.length === 0) out.push(p.dim('  no task loop ran'))
    else out.push(...renderTasks(tasks, width, p))
  }
  const issues = report.ingestIssues
  out.push('', p.bold(`Ingest issues (${issues.length})`))
  if (issues.length === 0) out.push(p.dim('  none'))
  out.push(...renderTable(
    [{header: 'where', flex: 'wrap', min: 16}, {header: 'severity'}, {header: 'what', flex: 'wrap', min: 24}],
    issues.slice(0, MAX_ISSUES).map((i) => {
      const where = `${i.file}${i.line === undefined ? '' : `:${i.line}`}${i.pointer === undefined ? '' : `#${i.pointer}`}`
      const sev = i.severity ?? 'info'
      return [where, {text: sev, style: sev === 'error' ? p.red : sev === 'warning' ? p.yellow : p.dim}, i.message]
    }),
    {width, noHeader: true},
  ))
  if (issues.length > MAX_ISSUES) out.push(p.dim(`  … ${issues.length - MAX_ISSUES} more (--json lists them all)`))
  out.push(...renderLoggers(report, width, p))
  out.push('', p.bold('Next'))
  const run = shellQuote(report.run.path)
  out.push(...shellLines('  ', `guardkit-replay ${run}`, width, 'replay every task and explain each verdict', p.dim))
  const focus = report.tasks.find((t) => t.recorded.outcome !== null && t.recorded.outcome !== 'approved') ?? report.tasks[0]
  if (focus !== undefined) out.push(...shellLines('  ', `guardkit-replay explain ${run} --task ${focus.taskId}`, width, 'every criterion and signature of one task', p.dim))
  if (report.tasks.some((t) => t.recorded.outcome === null)) {
    out.push(...wrap('Some runs have no recorded outcome (the log ends early). Next time capture the whole run: guardkit-replay live --record DIR -- guardkit autobuild …   or   guardkit autobuild … 2>&1 | tee run.log', width - 2).map((l) => p.dim(`  ${l}`)))
  }
  return neutraliseOutput(out.join('\n'), {keepSgr: p.enabled})
}

/** One row per task (id, mode, outcome, turns, stall), each with its turns under it: `turn:met/total decision`. */
function renderTasks(tasks: readonly ReportTask[], width: number, p: Palette): string[] {
  const rows = tasks.map((t) => {
    const r = t.recorded
    const colour = r.outcome === 'approved' ? p.green : r.outcome === null ? p.dim : p.red
    const stall = r.stall === null ? '' : `stall at turn ${r.stall.turn ?? '?'}${r.stall.signature === null ? ` (${r.stall.kind ?? 'stall'})` : ` sig=${r.stall.signature}`}`
    return [t.taskId, t.mode ?? '?', {text: r.outcome ?? 'no outcome', style: colour}, count(r.turnCount ?? r.turns.length, 'turn'), {text: stall, style: p.dim}]
  })
  const after = (i: number): string[] => {
    const cells = tasks[i]!.recorded.turns.map((u) => {
      const crit = u.criteriaMet === null ? '–' : `${u.criteriaMet}/${u.criteriaTotal}`
      const d = u.decision === 'approve' ? p.green('A') : u.decision === 'feedback' ? p.yellow('F') : u.decision === 'error' ? p.red('E') : p.dim('?')
      return `${u.turn}:${crit} ${d}`
    })
    const lines: string[] = []
    let row = ''
    for (const c of cells) {
      if (row !== '' && 4 + visibleWidth(row) + 2 + visibleWidth(c) > width) {
        lines.push(`    ${row}`)
        row = ''
      }
      row = row === '' ? c : `${row}  ${c}`
    }
    if (row !== '') lines.push(`    ${row}`)
    return lines
  }
  return renderTable([{header: 'task'}, {header: 'mode'}, {header: 'outcome'}, {header: 'turns', align: 'right'}, {header: '', flex: 'wrap', min: 16, stack: 1}], rows, {width, noHeader: true, after})
}

function renderLoggers(report: Report, width: number, p: Palette): string[] {
  const stats = report.loggerStats ?? []
  if (stats.length === 0) return []
  const out = ['', p.bold('Records per logger') + p.dim(' (parsed into typed events / only counted)')]
  out.push(...renderTable(
    [{header: 'logger', flex: 'wrap', min: 20}, {header: 'parsed', align: 'right'}, {header: 'counted', align: 'right'}],
    stats.slice(0, MAX_LOGGERS).map((s) => [s.logger, String(s.parsed), s.counted > 0 ? {text: String(s.counted), style: p.yellow} : String(s.counted)]),
    {width, noHeader: true},
  ))
  if (stats.length > MAX_LOGGERS) out.push(p.dim(`  … ${stats.length - MAX_LOGGERS} more loggers (--json lists them all)`))
  return out
}

function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`
}
