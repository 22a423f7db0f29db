import {describe, expect, it} from 'vitest'
import {detectApprovalOverridden} from '../../../../src/explain/families/approval-overridden.js'
import {ev, fact, handInput, taskRun, turn} from '../helpers.js'

const stall = {kind: 'context-pollution' as const, turn: 2, signature: null, windowTurns: null, criteriaPassing: null, extended: false, errorText: null, evidence: [ev(90)]}

describe('APPROVAL_OVERRIDDEN', () => {
  it('does not say to merge approved work on the strength of an approval that verified no criterion and ran no test', () => {
    const task = taskRun({
      outcome: fact('unrecoverable_stall', 95),
      stall,
      turns: [
        turn(1),
        turn(2, {coach: {decision: fact('approve' as const, 80), verified: fact(0, 83), criteriaTotal: fact(9, 83), pending: fact(9, 84), independentTests: fact({passed: true, durationSeconds: null, skipped: true}, 81)}}),
      ],
    })
    const [f] = detectApprovalOverridden(handInput(task))
    expect(f!.remediation).toMatch(/approved turn 2 with 0\/9 criteria verified \(9 pending\) and without running its own tests/)
    expect(f!.remediation).toMatch(/check turn 2's work against the criteria before merging it by hand/)
    expect(f!.remediation).not.toMatch(/the Coach's report says so|upgrade GuardKit to a version/i)
    expect(f!.evidence).toContainEqual(ev(83))
  })

  it('advises taking the approved work when the approval verified the criteria, and names no GuardKit version that fixes the order', () => {
    const task = taskRun({outcome: fact('unrecoverable_stall', 95), stall, turns: [turn(1), turn(2, {coach: {decision: fact('approve' as const, 80), verified: fact(3, 83), criteriaTotal: fact(3, 83)}})]})
    const [f] = detectApprovalOverridden(handInput(task))
    expect(f!.remediation).toMatch(/^Take turn 2's approved work/)
    expect(f!.remediation).toMatch(/No GuardKit change in the modelled range/)
  })
})
