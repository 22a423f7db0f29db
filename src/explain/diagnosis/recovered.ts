import type {Evidence} from '../../model/evidence.js'
import type {TaskRun} from '../../model/run-record.js'
import type {Signal} from '../../model/signal.js'

/**
 * A failure record its turn recovered from, as the records show it: the task's next signal after it is GuardKit
 * falling back (`SDK test execution failed (…), falling back to subprocess.`), and the Coach's own test run of that
 * turn then passed (`Independent tests passed in 4.1s`, a record after the fallback). Such a failure did not end
 * the turn; another record of the same cause may have.
 */
export function recoveredFailure(task: TaskRun, e: Evidence): boolean {
  const line = e.line
  if (line === undefined) return false
  const next = (task.signals ?? [])
    .filter((s) => s.evidence.file === e.file && (s.evidence.line ?? 0) > line)
    .reduce<Signal | null>((best, s) => (best === null || (s.evidence.line ?? 0) < (best.evidence.line ?? 0) ? s : best), null)
  if (next === null || !/\bfalling back to\b/i.test(next.text)) return false
  const at = next.evidence.line ?? 0
  const turn = task.turns.find((t) => t.turn === next.turn)
  const tests = turn?.coach.independentTests
  return tests != null && tests.value.passed && tests.value.skipped !== true && tests.evidence.some((x) => x.file === e.file && (x.line ?? 0) > at)
}

/**
 * The line of the record that ended the task's loop on an error (`Critical error on turn N`, a crash), or null.
 */
function endOfLoop(task: TaskRun): {file: string; line: number} | null {
  for (const ev of task.events) {
    if (ev.kind !== 'critical-error' && ev.kind !== 'orchestration-crash') continue
    const at = ev.evidence.find((x) => x.line !== undefined)
    if (at !== undefined) return {file: at.file, line: at.line!}
  }
  return null
}

/**
 * The finding's lines in the order they are quoted: when its first line is a failure the turn recovered from and
 * another of its lines was not recovered, the record of the failure that ended the loop comes first (the last of
 * its unrecovered lines before the loop's error record; else the first unrecovered one), the recovered ones last.
 * Otherwise the order is the finding's own.
 */
export function unrecoveredFirst(task: TaskRun, evidence: readonly Evidence[]): Evidence[] {
  const recovered = evidence.map((e) => recoveredFailure(task, e))
  if (recovered[0] !== true || recovered.every((r) => r)) return [...evidence]
  const open = evidence.filter((_e, i) => !recovered[i])
  const end = endOfLoop(task)
  const before = end === null ? [] : open.filter((e) => e.file === end.file && e.line !== undefined && e.line <= end.line)
  const ender = before.reduce<Evidence | null>((best, e) => (best === null || e.line! > best.line! ? e : best), null) ?? open[0]!
  return [ender, ...open.filter((e) => e !== ender), ...evidence.filter((_e, i) => recovered[i])]
}
