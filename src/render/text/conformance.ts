import type {ConformanceReport} from '../../conformance/run-vectors.js'
import {neutraliseOutput} from '../../shared/neutralise.js'

export function renderConformanceText(report: ConformanceReport): string {
  const lines = [`${report.total} vectors: ${report.passed} passed, ${report.failed} failed, ${report.unsupported} unsupported`]
  const byFn = new Map<string, {pass: number; fail: number; unsupported: number}>()
  for (const r of report.results) {
    const row = byFn.get(r.fn) ?? {pass: 0, fail: 0, unsupported: 0}
    row[r.status]++
    byFn.set(r.fn, row)
  }
  for (const r of report.results.filter((x) => x.status !== 'pass').slice(0, 20)) {
    lines.push(`  line ${r.line} ${r.fn} (${r.version}): ${r.status}${r.reason ? ` (${r.reason})` : ''}`)
    if (r.status === 'fail') {
      lines.push(`    expected ${JSON.stringify(r.expected).slice(0, 300)}`)
      lines.push(`    actual   ${JSON.stringify(r.actual).slice(0, 300)}`)
    }
  }
  const rest = report.results.filter((x) => x.status !== 'pass').length - 20
  if (rest > 0) lines.push(`  … ${rest} more; --json lists them all`)
  return neutraliseOutput(lines.join('\n'))
}
