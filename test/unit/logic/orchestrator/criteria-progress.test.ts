import {describe, expect, it} from 'vitest'
import {collectingSink} from '../../../../src/logic/log-sink.js'
import {
  checkDisplayCrash,
  completionPromiseFromDict,
  countCriteriaPassed,
  displayCriteriaProgress,
  type JsonObject,
  type TurnOutcome,
} from '../../../../src/logic/orchestrator/index.js'
import {FIXED, LEGACY} from './helpers.js'

function rec(player: JsonObject, coach: JsonObject): TurnOutcome {
  return {decision: 'feedback', feedback: 'x', playerResult: {success: true, report: player, error: null}, coachResult: {success: true, report: coach, error: null}}
}
const promise = (id: string, status: string) => ({criterion_id: id, status})
const verification = (id: string, result: string, notes = 'n') => ({criterion_id: id, result, notes})

// Expected values: docs/guardkit-logic.md §8.6 and §3.10 (banker's rounding of the progress percentage).
describe('_display_criteria_progress (docs/guardkit-logic.md §8.6)', () => {
  it('prints the percentage of promises verified, rounding exact ties to even: 1/8 → 12%', () => {
    const log = collectingSink()
    const promises = Array.from({length: 8}, (_, i) => promise(`AC-00${i + 1}`, 'complete'))
    const progress = displayCriteriaProgress(rec({completion_promises: promises}, {criteria_verification: [verification('AC-001', 'verified')]}), ['a', 'b'], 4, FIXED, log)
    expect(progress).toMatchObject({kind: 'shown', verified: 1, pending: 1, percent: '12%'})
    expect(log.records[0]!.message).toBe('Criteria Progress (Turn 4): 1/2 verified (12%)')
  })

  it('logs at most two rejected criteria (only the first three summary lines)', () => {
    const log = collectingSink()
    const vs = ['AC-001', 'AC-002', 'AC-003'].map((id) => verification(id, 'rejected', `notes of ${id}`))
    displayCriteriaProgress(rec({}, {criteria_verification: vs}), ['a', 'b', 'c'], 1, FIXED, log)
    expect(log.records.filter((r) => r.level === 'INFO').map((r) => r.message)).toEqual([
      'Criteria Progress (Turn 1): 0/3 verified (0%)',
      'Criteria: 0 verified, 3 rejected, 0 pending',
      '  AC-001: notes of AC-001',
      '  AC-002: notes of AC-002',
    ])
  })

  it('is a no-op without acceptance criteria, so even legacy does not crash then', () => {
    const log = collectingSink()
    expect(displayCriteriaProgress(rec({completion_promises: [promise('AC-001', 'partial')]}, {}), [], 1, LEGACY, log)).toEqual({kind: 'skipped'})
    expect(log.records).toEqual([])
  })

  it('shows per-criterion DEBUG icons: legacy claimed/incomplete, fixed promised/partial', () => {
    const promises = [promise('AC-001', 'complete'), promise('AC-002', 'incomplete')]
    const legacy = collectingSink()
    displayCriteriaProgress(rec({completion_promises: promises}, {}), ['first', 'second'], 1, LEGACY, legacy)
    expect(legacy.records.filter((r) => r.level === 'DEBUG').map((r) => r.message)).toEqual(['  [?] AC-001: CLAIMED - first', '  [-] AC-002: INCOMPLETE - second'])
    const fixed = collectingSink()
    displayCriteriaProgress(rec({completion_promises: [promise('AC-001', 'complete'), promise('AC-002', 'partial')]}, {}), ['first', 'second'], 1, FIXED, fixed)
    expect(fixed.records.filter((r) => r.level === 'DEBUG').map((r) => r.message)).toEqual(['  [~] AC-001: PROMISED - first', '  [?] AC-002: PARTIAL - second'])
  })
})

describe('CompletionPromise.from_dict and the legacy crash (D31)', () => {
  it('legacy raises ValueError for any status but complete/incomplete, with Python repr', () => {
    const r = completionPromiseFromDict({status: 'Complete'}, LEGACY, collectingSink())
    expect(r).toEqual({ok: false, exception: {type: 'ValueError', message: "'Complete' is not a valid CriterionStatus"}})
  })
  it('fixed keeps partial and maps unknown statuses to incomplete with a WARNING from schemas', () => {
    const log = collectingSink()
    expect(completionPromiseFromDict({status: 'partial'}, FIXED, log)).toMatchObject({ok: true, value: {status: 'partial'}})
    expect(completionPromiseFromDict({status: 'done'}, FIXED, log)).toMatchObject({ok: true, value: {status: 'incomplete'}})
    expect(log.records).toEqual([{level: 'WARNING', logger: 'guardkit.orchestrator.schemas', message: "Unknown CriterionStatus value 'done', defaulting to INCOMPLETE"}])
  })
  it('the crash fails the task as error with total_turns 0 (docs/guardkit-logic.md §8.7)', () => {
    const check = checkDisplayCrash('TASK-X', [promise('AC-001', 'partial')], LEGACY, collectingSink())
    expect(check).toMatchObject({
      kind: 'crash',
      crash: {
        raises: "OrchestrationError: Orchestration failed: 'partial' is not a valid CriterionStatus",
        featureResult: {final_decision: 'error', total_turns: 0, error: "Orchestration failed: 'partial' is not a valid CriterionStatus"},
      },
    })
    expect(checkDisplayCrash('TASK-X', [promise('AC-001', 'partial')], FIXED, collectingSink())).toMatchObject({kind: 'accepted', sinceCommit: 'c3feae49'})
  })
})

describe('_count_criteria_passed (docs/guardkit-logic.md §8.6)', () => {
  it('counts criteria_results with status exactly "verified"', () => {
    const report = {acceptance_criteria_verification: {criteria_results: [{status: 'verified'}, {status: 'VERIFIED'}, {result: 'verified'}, {status: 'verified'}]}}
    expect(countCriteriaPassed(rec({}, report))).toBe(2)
    expect(countCriteriaPassed({decision: 'error', feedback: null, playerResult: null, coachResult: null})).toBe(0)
  })
})
