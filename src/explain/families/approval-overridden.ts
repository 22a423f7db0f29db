import type {Evidence} from '../../model/evidence.js'
import type {TurnRecord} from '../../model/run-record.js'
import {draft, type FamilyInput, type FindingDraft} from '../draft.js'
import {lastTurn, turnOf} from '../record-facts.js'

/**
 * APPROVAL_OVERRIDDEN: the Coach approved the task's last turn, and the loop still ended it as
 * something else on that turn — a stopping rule (the pollution check, a stall detector) ran before
 * the approval was honoured. Certain: both the approval and the outcome are recorded.
 */
export function detectApprovalOverridden(input: FamilyInput): FindingDraft[] {
  const {task} = input
  const outcome = task.outcome?.value ?? null
  if (outcome === null || outcome === 'approved') return []
  const n = lastTurn(task)
  const last = turnOf(task, n)
  const decision = last?.coach.decision
  if (last === null || decision?.value !== 'approve') return []
  const stopper = task.stall?.kind === 'context-pollution' ? 'the context-pollution check' : task.stall !== null ? 'the stall detector' : 'the loop'
  return [
    draft(input, {
      code: 'APPROVAL_OVERRIDDEN',
      severity: 'critical',
      turns: [n],
      message: `The Coach approved turn ${n}, but ${stopper} ended the task as ${outcome} on that same turn: a stopping rule ran before the approval was honoured, so approved work was thrown away.`,
      evidence: [...decision.evidence, ...(task.stall?.evidence ?? []), ...(task.outcome?.evidence ?? []), ...hollowEvidence(last)],
      remediation: `${takeApproved(last, n)} No GuardKit change in the modelled range makes it check the Coach's approval before its stall checks (docs/findings.md, APPROVAL_OVERRIDDEN).`,
      fixedIn: null,
      source: {function: 'AutoBuildOrchestrator._loop_phase (stall checks before the approval check)', spec: 'docs/findings.md'},
    }),
  ]
}

/**
 * "Merge it by hand" only when the approval rested on something: an approval with no criterion verified, or with the
 * Coach's own test run skipped, is no evidence the work is done, so the advice is to check the work first and says why.
 */
function takeApproved(turn: TurnRecord, n: number): string {
  const c = turn.coach
  const verified = c.verified?.value ?? c.criteriaMet?.value ?? null
  const total = c.criteriaTotal?.value ?? null
  const none = verified === 0 && total !== null && total > 0
  const skipped = c.independentTests?.value.skipped === true
  if (!none && !skipped) return `Take turn ${n}'s approved work (the Coach approved it) and merge it by hand.`
  const why = [
    none ? `with ${verified}/${total} criteria verified${c.pending?.value ? ` (${c.pending.value} pending)` : ''}` : null,
    skipped ? 'without running its own tests (it found no tests of the task)' : null,
  ].filter((x): x is string => x !== null)
  return `The Coach approved turn ${n} ${why.join(' and ')}: the approval does not show the work is done, so check turn ${n}'s work against the criteria before merging it by hand.`
}

function hollowEvidence(turn: TurnRecord): Evidence[] {
  const c = turn.coach
  return [...(c.verified?.value === 0 ? c.verified.evidence : []), ...(c.independentTests?.value.skipped === true ? c.independentTests.evidence : [])]
}
