import type {TaskRun} from '../../model/run-record.js'
import type {FindingDraft} from '../draft.js'
import type {SignalRule} from './catalogue/rule.js'
import {verifiedOn} from '../record-facts.js'
import {classOf} from './choose-primary.js'

/** The catalogue rules of a wall-clock limit: the feature's per-task timeout, the task's own time budget. */
const LIMIT_RULES: ReadonlySet<string> = new Set(['timeout.feature-task-timeout', 'timeout.task-time-budget'])

/**
 * A wall-clock limit that ended a loop still converging is the primary cause (docs/root-causes.md,
 * "Choosing the primary cause", rule 4): when no finding can be a cause — no turn failed for a reason
 * a record names — and the criteria the Coach verified rose from turn to turn and never fell, the
 * limit's finding becomes a cause, inferred from that shape. Otherwise the findings are unchanged: a
 * limit that ended a loop going nowhere is how it ended, not why.
 */
export function promoteConvergingTimeout(task: TaskRun, drafts: readonly FindingDraft[], rules: readonly SignalRule[]): FindingDraft[] {
  if (task.outcome?.value === 'approved' || drafts.some((d) => classOf(d).role === 'cause')) return [...drafts]
  const limit = drafts.find((d) => d.code === 'LOG_SIGNAL' && LIMIT_RULES.has((d.detail as {ruleId?: string} | undefined)?.ruleId ?? ''))
  if (limit === undefined) return [...drafts]
  const rising = risingCriteria(task)
  if (rising === null) return [...drafts]
  const deduction = `no turn failed for a reason a record names, and the criteria the Coach verified kept rising (${rising}) until the limit ended the task: the loop was still converging`
  const promoted: FindingDraft = {
    ...limit,
    severity: 'high',
    confidence: 'inferred',
    deduction,
    // the rule's own reading, which ends its message ("the cause is why the turns took that long or did not
    // converge"), is what this case is not: it gives way to the converging loop
    message: `${withoutReading(limit.message, rules.find((r) => r.id === (limit.detail as {ruleId?: string} | undefined)?.ruleId)?.means)} The criteria the Coach verified rose ${rising} and no turn failed for a reason a record names: the limit ended a loop that was still converging.`,
    detail: {...(limit.detail ?? {}), role: 'cause', summary: "a wall-clock limit (the feature's task timeout or the task's own time budget) ended the task while it was still converging"},
  }
  return drafts.map((d) => (d === limit ? promoted : d))
}

function withoutReading(message: string, means: string | undefined): string {
  return means !== undefined && message.endsWith(` ${means}`) ? message.slice(0, -(means.length + 1)) : message
}

/**
 * "2 → 3 → 5 of 6" (and "on the 3 turns with a count" when others have none) when the verified counts of the turns
 * that have one never fall and end higher than they start; else null.
 */
function risingCriteria(task: TaskRun): string | null {
  const all = task.turns.map((t) => ({met: verifiedOn(t), total: t.coach.criteriaTotal?.value ?? null}))
  const counts = all.filter((c): c is {met: number; total: number | null} => c.met !== null)
  if (counts.length < 2) return null
  for (let i = 1; i < counts.length; i++) if (counts[i]!.met < counts[i - 1]!.met) return null
  if (counts[counts.length - 1]!.met <= counts[0]!.met) return null
  const total = counts[counts.length - 1]!.total
  const some = counts.length < all.length ? ` on the ${counts.length} turns with a count` : ''
  return `${counts.map((c) => c.met).join(' → ')}${total === null ? '' : ` of ${total}`}${some}`
}
