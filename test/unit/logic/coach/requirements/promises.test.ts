import {describe, expect, it} from 'vitest'
import {loadCompletionPromises, matchByPromises} from '../../../../../src/logic/coach/requirements/index.js'
import {coach, flagsOf} from './helpers.js'

const AC = ['Config file exists', 'Schema validated']

// Expected values: docs/guardkit-logic.md §7.3 and §7.4 (prose, verified there against the pinned commits).
describe('_match_by_promises (docs/guardkit-logic.md §7.4)', () => {
  it('uses a present null as is: evidence null, evidence_type None, status None', () => {
    const v = matchByPromises(AC, [
      {criterion_id: 'AC-001', status: 'complete', evidence: null},
      {criterion_id: 'AC-002', status: 'partial', evidence_type: null},
    ], flagsOf('fixed'))
    expect(v.criteria_results.map((r) => [r.result, r.evidence, r.notes])).toEqual([
      ['verified', null, null],
      ['verified', '[Partial confidence - None] Player partially completed AC-002'],
    ].map(([res, ev]) => [res, ev, ev]))
    const rejected = matchByPromises(AC, [{criterion_id: 'AC-001', status: null}], flagsOf('fixed'))
    expect(rejected.criteria_results[0]!.evidence).toBe('Promise status: None')
  })
  it('ignores promises for ids beyond the criteria and never compares text', () => {
    const v = matchByPromises(['only one'], [{criterion_id: 'AC-002', status: 'complete'}], flagsOf('legacy'))
    expect(v).toMatchObject({criteria_total: 1, criteria_met: 0, missing: ['only one']})
  })
  it('rejects partial promises before ACR-004 (pre-acr)', () => {
    const v = matchByPromises(AC, [{criterion_id: 'AC-001', status: 'partial'}], flagsOf('pre-acr'))
    expect(v.criteria_results[0]).toMatchObject({result: 'rejected', evidence: 'Promise status: partial'})
    expect(matchByPromises(AC, [{criterion_id: 'AC-001', status: 'partial'}], flagsOf('legacy')).criteria_met).toBe(1)
  })
  it('returns all_criteria_met true for no criteria', () => {
    expect(matchByPromises([], [{criterion_id: 'AC-001', status: 'complete'}], flagsOf('legacy')).all_criteria_met).toBe(true)
  })
})

describe('_load_completion_promises (docs/guardkit-logic.md §7.3, D26, seed 004)', () => {
  const promises = [{criterion_id: 'AC-001', status: 'complete'}]

  it('returns the most recent non-empty prior list, whatever its statuses', () => {
    const self = coach('fixed', {reports: {1: {completion_promises: promises}, 2: {completion_promises: [{criterion_id: 'AC-001', status: 'incomplete'}]}}})
    const loaded = loadCompletionPromises({task_id: 'TASK-X'}, 3, self)
    expect(loaded.promises).toEqual([{criterion_id: 'AC-001', status: 'incomplete'}])
    expect(loaded.source).toMatchObject({kind: 'prior-report', turn: 2})
  })
  it('still scans prior turns when the current report exists without promises', () => {
    const self = coach('fixed', {reports: {1: {completion_promises: promises}, 2: {completion_promises: []}}})
    expect(loadCompletionPromises({task_id: 'TASK-X'}, 2, self).promises).toEqual(promises)
    expect(self.records).toEqual([
      {level: 'INFO', logger: 'guardkit.orchestrator.quality_gates.coach_validator', message: 'No completion_promises in current turn — recovered from player_turn_1.json (1 promises)'},
    ])
  })
  it('returns a non-empty non-list value as is (first truthy wins, no type check)', () => {
    const self = coach('fixed')
    expect(loadCompletionPromises({completion_promises: 'yes'}, 1, self).promises).toBe('yes')
  })
  it('reads nothing when turn is None', () => {
    const self = coach('fixed', {reports: {1: {completion_promises: promises}}})
    expect(loadCompletionPromises({task_id: 'TASK-X'}, null, self).promises).toEqual([])
  })
  it('needs a task id in task_work_results before TASK-FIX-AE7E', () => {
    const self = coach('as-run:51222879', {reports: {2: {completion_promises: promises}}})
    expect(loadCompletionPromises({task_id: ''}, 2, self).promises).toEqual([])
    const fixedSelf = coach('fixed', {reports: {2: {completion_promises: promises}}})
    expect(loadCompletionPromises({task_id: ''}, 2, fixedSelf).promises).toEqual(promises)
  })
  it('swallows any error on the current report', () => {
    const self = coach('fixed', {reports: {2: '[1, 2]'}})
    expect(loadCompletionPromises({task_id: 'TASK-X'}, 2, self).promises).toEqual([])
  })
  it('raises AttributeError for a prior report that parses to a JSON array', () => {
    const self = coach('fixed', {reports: {1: '[1, 2]'}})
    expect(() => loadCompletionPromises({task_id: 'TASK-X'}, 2, self)).toThrow("AttributeError: 'list' object has no attribute 'get'")
  })
})
