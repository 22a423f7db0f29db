import type {Report, ReportTask} from '../json/report.js'
import {PLAIN, type Palette} from './plain-palette.js'

const WIDTH = 100
const MAX_ISSUES = 30
const MAX_LOGGERS = 40

/** `inspect` as text: what was found, per attempt and task, the ingest issues, the grammar coverage, what next. */
export function renderInspectText(report: Report, p: Palette = PLAIN): string {
  const out: string[] = []
  const attempts = report.attempts ?? []
  const logs = report.run.logs
  out.push(p.bold(`RUN ${report.run.path}`) + p.dim(` — ${count(logs.length, 'log')}, ${count(attempts.length, 'attempt')}, ${count(report.tasks.length, 'task')}`))
  for (const a of attempts) {
    out.push('')
    const result = a.featureResult === null ? '' : ` (${a.featureResult})`
    const what = a.kind === 'task' ? 'task run' : `feature ${a.featureId ?? '?'}`
    out.push(p.bold(`Attempt ${a.attempt}`) + `  ${a.file}:${a.startLine}–${a.endLine}  ${what}${result}${a.truncated ? p.yellow('  log ends inside this run') : ''}`)
    if (a.command !== null) out.push(p.dim(`  $ ${a.command}`))
    const tasks = report.tasks.filter((t) => t.attempt === a.attempt)
    if (tasks.length === 0) out.push(p.dim('  no task loop ran'))
    const idWidth = Math.max(0, ...tasks.map((t) => t.taskId.length))
    for (const t of tasks) out.push(...renderTask(t, idWidth, p))
  }
  const issues = report.ingestIssues
  out.push('', p.bold(`Ingest issues (${issues.length})`))
  if (issues.length === 0) out.push(p.dim('  none'))
  for (const i of issues.slice(0, MAX_ISSUES)) {
    const where = `${i.file}${i.line === undefined ? '' : `:${i.line}`}${i.pointer === undefined ? '' : `#${i.pointer}`}`
    const sev = i.severity === 'error' ? p.red('error') : i.severity === 'warning' ? p.yellow('warning') : p.dim(i.severity ?? 'info')
    out.push(`  ${where}  ${sev}  ${i.message}`)
  }
  if (issues.length > MAX_ISSUES) out.push(p.dim(`  … ${issues.length - MAX_ISSUES} more (--json lists them all)`))
  out.push(...renderLoggers(report, p))
  out.push('', p.bold('Next'))
  const run = quote(report.run.path)
  out.push(`  guardkit-replay ${run}${p.dim('                 replay every task and explain each verdict')}`)
  const focus = report.tasks.find((t) => t.recorded.outcome !== null && t.recorded.outcome !== 'approved') ?? report.tasks[0]
  if (focus !== undefined) out.push(`  guardkit-replay explain ${run} --task ${focus.taskId}${p.dim('   every criterion and signature of one task')}`)
  if (report.tasks.some((t) => t.recorded.outcome === null)) {
    out.push(p.dim('  Some runs have no recorded outcome (the log ends early). Next time capture the whole run:'))
    out.push(p.dim('  guardkit-replay live --record DIR -- guardkit autobuild …   or   guardkit autobuild … 2>&1 | tee run.log'))
  }
  return out.join('\n')
}

function renderTask(t: ReportTask, idWidth: number, p: Palette): string[] {
  const r = t.recorded
  const outcome = r.outcome ?? 'no outcome'
  const colour = r.outcome === 'approved' ? p.green : r.outcome === null ? p.dim : p.red
  const turns = r.turnCount ?? r.turns.length
  let line = `  ${t.taskId.padEnd(idWidth)}  ${(t.mode ?? '?').padEnd(9)}  ${colour(outcome.padEnd(24))}  ${count(turns, 'turn')}`
  if (r.stall !== null) line += p.dim(`  stall at turn ${r.stall.turn ?? '?'}${r.stall.signature === null ? ` (${r.stall.kind ?? 'stall'})` : ` sig=${r.stall.signature}`}`)
  const cells = r.turns.map((u) => {
    const crit = u.criteriaMet === null ? '–' : `${u.criteriaMet}/${u.criteriaTotal}`
    const d = u.decision === 'approve' ? p.green('A') : u.decision === 'feedback' ? p.yellow('F') : u.decision === 'error' ? p.red('E') : p.dim('?')
    return {text: `${u.turn}:${crit} ${d}`, width: `${u.turn}:${crit} x`.length}
  })
  const out = [line]
  let row = '    '
  let width = 4
  for (const c of cells) {
    if (width + c.width + 2 > WIDTH && width > 4) {
      out.push(row)
      row = '    '
      width = 4
    }
    row += `${c.text}  `
    width += c.width + 2
  }
  if (cells.length > 0) out.push(row.replace(/\s+$/, ''))
  return out
}

function renderLoggers(report: Report, p: Palette): string[] {
  const stats = report.loggerStats ?? []
  if (stats.length === 0) return []
  const width = Math.min(60, Math.max(...stats.map((s) => s.logger.length)))
  const out = ['', p.bold('Records per logger') + p.dim(' (parsed into typed events / only counted)')]
  for (const s of stats.slice(0, MAX_LOGGERS)) {
    const counted = s.counted > 0 ? p.yellow(String(s.counted).padStart(7)) : String(s.counted).padStart(7)
    out.push(`  ${s.logger.padEnd(width)}  ${String(s.parsed).padStart(7)}  ${counted}`)
  }
  if (stats.length > MAX_LOGGERS) out.push(p.dim(`  … ${stats.length - MAX_LOGGERS} more loggers (--json lists them all)`))
  return out
}

function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`
}

function quote(path: string): string {
  return /^[\w./@:+-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`
}
