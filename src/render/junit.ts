import type {GateReport, GateRun, GateTask} from './gate-report.js'
import {decidingReasons, outcomeCell, resultCell, ruleLabel, taskLabel} from './text/gate-lines.js'
import {plural} from './text/layout.js'
import {neutraliseBlock, neutraliseNames} from '../shared/neutralise.js'

/**
 * The gate as JUnit XML (docs/ci.md): one `<testsuite>` per run, one `<testcase>` per task run
 * (classname = the run, name = the task), a `<failure>` for each failing task with the reasons,
 * the findings that explain them and the command that shows the detail, `<skipped>` for tasks
 * that could not be gated. Valid against the Jenkins JUnit schema (test/fixtures/junit/); hand-rolled
 * (a JUnit package would add dependencies and tens of milliseconds of start-up for a few elements), every value escaped, characters XML 1.0 does not allow replaced by U+FFFD.
 */
export function renderJunit(report: GateReport): string {
  report = neutraliseNames(report)
  const s = report.summary
  const name = `guardkit-replay gate ${report.baseline.name} → ${report.candidate.name}`
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name=${attr(name)} tests="${s.tasks + unreadable(report).length}" failures="${s.failing}" errors="0" time="0">`,
  ]
  for (const run of report.runs) out.push(...suite(report, run))
  out.push('</testsuites>', '')
  return out.join('\n')
}

function unreadable(report: GateReport): GateRun[] {
  return report.runs.filter((r) => r.skipReason !== null)
}

function suite(report: GateReport, run: GateRun): string[] {
  const failOnSkipped = report.policy.failOn.includes('skipped')
  const tests = run.tasks.length + (run.skipReason !== null ? 1 : 0)
  const failures = run.tasks.filter((t) => t.failing).length + (run.skipReason !== null && failOnSkipped ? 1 : 0)
  const skipped = run.tasks.filter((t) => t.classification === 'skipped' && !t.failing).length + (run.skipReason !== null && !failOnSkipped ? 1 : 0)
  const out = [`  <testsuite name=${attr(run.path)} tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}" time="0">`]
  out.push('    <properties>')
  for (const [k, v] of [['baseline', report.baseline.name], ['candidate', report.candidate.name], ['era', run.era?.profile ?? 'unknown'], ['policy.failOn', report.policy.failOn.join(',') || 'regressed']] as const) {
    out.push(`      <property name=${attr(k)} value=${attr(v)}/>`)
  }
  out.push('    </properties>')
  if (run.skipReason !== null) {
    const body = `${run.path} was not gated: ${run.skipReason}`
    out.push(`    <testcase name="(run)" classname=${attr(run.path)} time="0">`)
    out.push(failOnSkipped ? `      <failure message=${attr(body)} type="skipped">${text(body)}</failure>` : `      <skipped>${text(body)}</skipped>`)
    out.push('    </testcase>')
  }
  for (const t of run.tasks) out.push(...testcase(report, run, t))
  out.push('  </testsuite>')
  return out
}

function testcase(report: GateReport, run: GateRun, t: GateTask): string[] {
  const attempts = run.tasks.filter((x) => x.taskId === t.taskId).length
  const open = `    <testcase name=${attr(taskLabel(t, attempts))} classname=${attr(run.path)} time="0">`
  const summary = `${report.baseline.name}: ${outcomeCell(t.baseline)}; ${report.candidate.name}: ${outcomeCell(t.candidate)}; ${resultCell(t)}`
  if (t.failing) {
    const message = t.classification === 'skipped' ? `skipped: ${t.skipReason ?? ''}` : decidingReasons(t).map((r) => `${ruleLabel(r.rule)}: ${r.message}`).join('; ')
    return [open, `      <failure message=${attr(message)} type=${attr(t.classification)}>${text(explanation(report, t))}</failure>`, `      <system-out>${text(summary)}</system-out>`, '    </testcase>']
  }
  if (t.classification === 'skipped') return [open, `      <skipped>${text(t.skipReason ?? 'not gated')}</skipped>`, '    </testcase>']
  return [open, `      <system-out>${text(summary)}</system-out>`, '    </testcase>']
}

function explanation(report: GateReport, t: GateTask): string {
  const lines = [
    `${report.baseline.name}: ${outcomeCell(t.baseline)}`,
    `${report.candidate.name}: ${outcomeCell(t.candidate)}`,
    `recorded: ${t.recorded.outcome ?? 'no outcome'} (${plural(t.recorded.turns, 'turn')})`,
    ...t.reasons.filter((r) => !r.waived).map((r) => `${r.effect} ${ruleLabel(r.rule)}${r.turn === null ? '' : ` at turn ${r.turn}`}: ${r.message}${r.approximate ? ' (approximate)' : ''}`),
    ...t.findings.map((f) => `finding ${f.code} (${f.severity}): ${f.message} [${f.why}]`),
    `reproduce: ${t.reproduce}`,
  ]
  return lines.join('\n')
}

/** Element content: `&`, `<`, `>` escaped, characters XML 1.0 forbids replaced. */
export function text(s: string): string {
  return xmlChars(neutraliseBlock(s)).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/** A quoted attribute value; tab and line breaks as character references so a parser keeps them. */
export function attr(s: string): string {
  return `"${text(s).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;')}"`
}

/**
 * XML 1.0 Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]. Anything
 * else (C0 controls, lone surrogates, U+FFFE/U+FFFF) cannot appear even as a character reference.
 */
function xmlChars(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '\ufffd')
}
