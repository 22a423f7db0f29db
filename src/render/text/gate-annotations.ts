import type {GateReport, GateRun, GateTask} from '../gate-report.js'
import {decidingReasons, ruleLabel, taskLabel} from './gate-lines.js'
import {neutraliseBlock, neutraliseInline, neutraliseNames} from '../../shared/neutralise.js'

/** GitHub shows at most 10 error annotations per step and 50 per job; more only clutter the log. */
const MAX_ANNOTATIONS = 50

/**
 * GitHub Actions workflow commands for a gate (docs/ci.md): one `::error` per failing task, on the
 * file and line of the evidence of the finding that explains it (else on the run), and a `::warning`
 * per input problem. Values are escaped as the runner expects (`%`, CR, LF; in properties also `:`
 * and `,`), so text from the records cannot end a command or start another.
 */
export function renderGateAnnotations(report: GateReport): string[] {
  report = neutraliseNames(report)
  const out: string[] = []
  const failing = report.runs.flatMap((run) => run.tasks.filter((t) => t.failing).map((t) => ({run, t})))
  for (const {run, t} of failing.slice(0, MAX_ANNOTATIONS)) out.push(taskAnnotation(report, run, t))
  if (failing.length > MAX_ANNOTATIONS) out.push(`::error title=${prop('guardkit-replay gate')}::${data(`${failing.length - MAX_ANNOTATIONS} more failing tasks: see the step summary or the JUnit report`)}`)
  for (const p of report.problems) out.push(`::${p.severity === 'error' ? 'error' : 'warning'} file=${prop(p.path)},title=${prop('guardkit-replay gate input')}::${data(p.message)}`)
  return out
}

function taskAnnotation(report: GateReport, run: GateRun, t: GateTask): string {
  const attempts = run.tasks.filter((x) => x.taskId === t.taskId).length
  const title = `gate ${report.baseline.name} → ${report.candidate.name}: ${taskLabel(t, attempts)} ${t.classification}`
  const reasons = t.classification === 'skipped' ? [`skipped: ${t.skipReason ?? ''}`] : decidingReasons(t).map((r) => `${ruleLabel(r.rule)}: ${r.message}`)
  const finding = t.findings[0]
  const message = [
    `${run.path}: ${reasons.join('; ')}`,
    ...(finding ? [`${finding.code}: ${finding.message} (${finding.why})`] : []),
    `reproduce: ${t.reproduce}`,
  ].join('\n')
  const where = location(run, t)
  return `::error ${[where.file ? `file=${prop(where.file)}` : '', where.line ? `line=${where.line}` : '', `title=${prop(title)}`].filter((x) => x !== '').join(',')}::${data(message)}`
}

/** The first evidence line of the explaining findings, as a path from the working directory. */
function location(run: GateRun, t: GateTask): {file: string | null; line: number | null} {
  for (const f of t.findings) {
    for (const e of f.evidence) {
      if (e.line === undefined) continue
      return {file: joinRun(run.path, e.file), line: e.line}
    }
  }
  return {file: run.path, line: null}
}

/** Evidence paths are relative to RUN; a RUN that is one log names the log itself. */
function joinRun(runPath: string, file: string): string {
  const base = runPath.split('/').at(-1)
  if (base === file) return runPath
  return runPath === '.' ? file : `${runPath}/${file}`
}

/** A workflow command's message. */
export function data(s: string): string {
  return neutraliseBlock(s).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
}

/** A workflow command's property value. */
export function prop(s: string): string {
  return data(neutraliseInline(s)).replace(/:/g, '%3A').replace(/,/g, '%2C')
}
