import type {FindingCode, Severity} from '../../model/finding.js'
import type {TaskRun} from '../../model/run-record.js'
import type {FindingDraft} from '../draft.js'
import {lastTurn} from '../record-facts.js'

/** Findings that say the approval itself may be wrong: they keep their severity on an approved task. */
const APPROVAL_DOUBTS: ReadonlySet<FindingCode> = new Set(['FUZZY_FALSE_POSITIVE'])

/**
 * On an approved task nothing is critical or high unless the approval itself was wrong: what went
 * wrong on the way cost turns (medium at most), it did not fail the task. A signal finding on the
 * approving turn alone cost nothing (low); one on earlier turns says they were wasted.
 */
export function capApprovedSeverity(task: TaskRun, drafts: readonly FindingDraft[]): FindingDraft[] {
  if (task.outcome?.value !== 'approved') return [...drafts]
  // the approving turn: the recorded turn count when the capture lost that turn's records (as the verdict reads it)
  const last = lastTurn(task)
  return drafts.map((d) => {
    if (d.code === 'LOG_SIGNAL') {
      const wasted = d.turns.filter((t) => t < last)
      if (wasted.length === 0) return {...d, severity: 'low'}
      const which = wasted.length === 1 ? `Turn ${wasted[0]} was wasted` : `Turns ${wasted.join(', ')} were wasted`
      return {...d, severity: serious(d.severity) ? 'medium' : d.severity, message: `${which} (the task was approved on turn ${last}): ${lowerFirst(d.message)}`}
    }
    return APPROVAL_DOUBTS.has(d.code) || !serious(d.severity) ? d : {...d, severity: 'medium'}
  })
}

function lowerFirst(s: string): string {
  return s.length === 0 ? s : `${s[0]!.toLowerCase()}${s.slice(1)}`
}

function serious(s: Severity): boolean {
  return s === 'critical' || s === 'high'
}
