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
      evidence: [...decision.evidence, ...(task.stall?.evidence ?? []), ...(task.outcome?.evidence ?? [])],
      remediation: `Treat turn ${n}'s work as approved (the Coach's report says so) and merge it by hand; upgrade GuardKit to a version that checks the Coach's approval before its stall checks.`,
      fixedIn: null,
      source: {function: 'AutoBuildOrchestrator._loop_phase (stall checks before the approval check)', spec: 'docs/findings.md'},
    }),
  ]
}
