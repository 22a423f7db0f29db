import {pyStr, pyStrAt, pyStrGet} from '../python/repr.js'
import {pyLen, pySlice, pyTruthy} from '../python/strings.js'
import {asObject, dictGet, type JsonObject} from './turn-outcome.js'

const MAX_ISSUES = 3
const MAX_MISSING = 5
const MAX_CRITERION_CHARS = 100

/**
 * `AutoBuildOrchestrator._extract_feedback(coach_report)` (docs/guardkit-logic.md §8.3, identical in both versions):
 * the text sent to the Player and hashed by the stall detector. The whole test summary is embedded,
 * so every variable token of pytest output (node ids, counts, durations) reaches the signature, which then
 * differs turn by turn while the failure stays the same (docs/guardkit-logic.md §8.4, fixtures/runs/db-003-timeout).
 */
export function extractFeedback(report: JsonObject): string | null {
  const issues = dictGet(report, 'issues', [])
  if (!pyTruthy(issues)) return rationaleOf(report)
  const list = Array.isArray(issues) ? issues : []
  const lines: string[] = []
  for (const raw of list.slice(0, MAX_ISSUES)) {
    const issue = asObject(raw) ?? {}
    const desc = pyStrGet(issue, 'description', '')
    const missing = dictGet(issue, 'missing_criteria', [])
    if (pyTruthy(missing) && Array.isArray(missing)) {
      lines.push(`- ${desc}:`)
      for (const c of missing.slice(0, MAX_MISSING)) lines.push(`  • ${headOf(c, MAX_CRITERION_CHARS)}`)
      if (missing.length > MAX_MISSING) lines.push(`  (${missing.length - MAX_MISSING} more)`)
    } else if (pyTruthy(issue.suggestion)) {
      lines.push(`- ${desc}: ${pyStrAt(issue, 'suggestion')}`)
    } else if (pyTruthy(issue.test_output)) {
      // Only the first line of the test output is indented: the rest is embedded as it is.
      lines.push(`- ${desc}:\n  ${pyStrAt(issue, 'test_output')}`)
    } else {
      lines.push(`- ${desc}`)
    }
  }
  if (list.length > MAX_ISSUES) lines.push(`... and ${list.length - MAX_ISSUES} more issues`)
  return lines.join('\n')
}

function rationaleOf(report: JsonObject): string | null {
  const rationale = dictGet(report, 'rationale', 'No specific feedback provided')
  return rationale === null || rationale === undefined ? null : pyStrGet(report, 'rationale', rationale)
}

/** `c[:n]` for a string; other values are printed first (approximation: Python would slice a list). */
function headOf(value: unknown, n: number): string {
  const s = pyStr(value)
  return pyLen(s) > n ? pySlice(s, 0, n) : s
}
