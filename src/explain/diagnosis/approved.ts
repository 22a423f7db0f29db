import type {FindingCode, Severity} from '../../model/finding.js'
import type {TaskRun} from '../../model/run-record.js'
import type {FindingDraft} from '../draft.js'

/** Findings that say the approval itself may be wrong: they keep their severity on an approved task. */
const APPROVAL_DOUBTS: ReadonlySet<FindingCode> = new Set(['FUZZY_FALSE_POSITIVE'])

/**
 * On an approved task nothing is critical or high unless the approval itself was wrong: what went
 * wrong on the way cost turns (medium at most), it did not fail the task.
 */
export function capApprovedSeverity(task: TaskRun, drafts: readonly FindingDraft[]): FindingDraft[] {
  if (task.outcome?.value !== 'approved') return [...drafts]
  return drafts.map((d) => (APPROVAL_DOUBTS.has(d.code) || !serious(d.severity) ? d : {...d, severity: 'medium'}))
}

function serious(s: Severity): boolean {
  return s === 'critical' || s === 'high'
}
