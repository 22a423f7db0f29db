import {describe, expect, it} from 'vitest'
import {detectCriteriaFindings} from '../../../../src/explain/families/criteria.js'
import type {ArtifactVersion} from '../../../../src/model/run-record.js'
import {eraOf, fact, familyInput, handInput, loadFixture, taskOf, taskRun, turn} from '../helpers.js'

const version = (file: string, json: unknown): ArtifactVersion => ({file, json, schema: 'x.v1', seenAt: null})
const COACH = '.guardkit/autobuild/TASK-X-001/coach_turn_1.json'
const TWR = '.guardkit/autobuild/TASK-X-001/task_work_results.json'

function coachReport(results: {text: string; result: string; evidence: string}[]): ArtifactVersion {
  return version(COACH, {criteria_verification: results.map((r, i) => ({criterion_id: `AC-00${i + 1}`, criterion_text: r.text, result: r.result, evidence: r.evidence}))})
}

describe('ZERO_OF_N_TEXT_MATCH_EMPTY', () => {
  it('is certain from the 0/N dump (ae7e-promise-loss turns 2-4: text strategy, requirements_met: [])', async () => {
    const run = await loadFixture('ae7e-promise-loss')
    const f = detectCriteriaFindings(familyInput(run, taskOf(run, 'TASK-USR-003'))).find((x) => x.code === 'ZERO_OF_N_TEXT_MATCH_EMPTY')
    expect(f!.confidence).toBe('certain')
    expect(f!.turns).toEqual([2, 3, 4])
    const dumps = (f!.detail!['turns'] as {dump: string[]}[]).map((t) => t.dump)
    expect(dumps[0]![0]).toBe('Criteria verification 0/6 - diagnostic dump:')
  })

  it('is inferred on pre-ACR GuardKit, which logs no dump (ac1a-run1-pre-acr), and not on the timeout turn whose criteria stayed pending', async () => {
    const run = await loadFixture('ac1a-run1-pre-acr')
    const f = detectCriteriaFindings(familyInput(run, taskOf(run, 'TASK-SFT-001'))).find((x) => x.code === 'ZERO_OF_N_TEXT_MATCH_EMPTY')
    expect(f!.confidence).toBe('inferred')
    expect(f!.deduction).toMatch(/no 0\/N diagnostic dump/)
    expect(f!.turns).toEqual([1, 3, 4, 5])
  })

  // seed 000's fixes (723e5f4e) carry the agent's promises to the Coach: advice only where the run's era lacks them
  it('advises GuardKit 723e5f4e+ to a run before it, not to a run that had it, and conditionally where the era cannot tell', async () => {
    const advice = /task-work mode on GuardKit 723e5f4e\+/
    const remediation = async (fixture: string, task: string) => {
      const run = await loadFixture(fixture)
      return detectCriteriaFindings(familyInput(run, taskOf(run, task))).find((x) => x.code === 'ZERO_OF_N_TEXT_MATCH_EMPTY')!.remediation
    }
    // its markers end the window before 723e5f4e (stall-error-v1)
    expect(await remediation('ac1a-run1-pre-acr', 'TASK-SFT-001')).toMatch(advice)
    // its markers start the window at ca7c161a, after 723e5f4e
    const had = await remediation('ae7e-promise-loss', 'TASK-USR-003')
    expect(had).not.toMatch(/723e5f4e/)
    expect(had).toMatch(/fix the cause this follows from/)
    const run = await loadFixture('ac1a-run1-pre-acr')
    const input = {...familyInput(run, taskOf(run, 'TASK-SFT-001')), guardkit: () => null}
    expect(detectCriteriaFindings(input).find((x) => x.code === 'ZERO_OF_N_TEXT_MATCH_EMPTY')!.remediation).toMatch(/if this GuardKit predates 723e5f4e \(its era cannot tell\)/)
  })
})

describe('PROMISES_LOST_ACROSS_TURNS', () => {
  it('names the turn whose promises were not reused (ae7e-promise-loss: turn 1, lost on 2-4)', async () => {
    const run = await loadFixture('ae7e-promise-loss')
    const f = detectCriteriaFindings(familyInput(run, taskOf(run, 'TASK-USR-003'))).find((x) => x.code === 'PROMISES_LOST_ACROSS_TURNS')
    expect(f!.detail).toMatchObject({promisesTurn: 1, promises: 6, lostTurns: [2, 3, 4]})
    expect(f!.fixedIn!.flags).toEqual(['priorTurnPromises'])
  })
})

describe('CRITERIA_COUNT_INFLATED', () => {
  it('counts nested bullets with the legacy parser and top-level ones with the fixed one (6 + 4 = 10)', async () => {
    const run = await loadFixture('ac1a-run1-pre-acr')
    const f = detectCriteriaFindings(familyInput(run, taskOf(run, 'TASK-SFT-001'))).find((x) => x.code === 'CRITERIA_COUNT_INFLATED')
    expect(f!.detail).toMatchObject({counted: 10, topLevel: 6})
    expect(f!.fixedIn).toEqual({flags: ['topLevelCriteriaOnly'], commit: '723e5f4e'})
  })
})

describe('text matching on recorded inputs', () => {
  it('FUZZY_FALSE_POSITIVE: a criterion verified by a substring match with an empty requirement (docs/guardkit-logic.md §7.5)', () => {
    const task = taskRun({turns: [turn(1, {artifacts: {coachReport: coachReport([{text: 'Config file exists', result: 'verified', evidence: "Substring match with ''"}])}})]})
    const [f] = detectCriteriaFindings(handInput(task)).filter((x) => x.code === 'FUZZY_FALSE_POSITIVE')
    expect(f!.turns).toEqual([1])
    expect(f!.evidence).toEqual([{file: COACH, pointer: '/criteria_verification/0'}])
    expect(f!.fixedIn).toBeNull()
  })

  it('TEXT_MATCH_NEAR_MISS: a rejected criterion whose best requirement shares most keywords but stays under 70%', () => {
    // Keywords (len > 3, not stopwords): criterion {users, endpoint, returns, paginated, list} vs requirement {users, endpoint, returns, list, sorted}: 4/6 = 67%.
    const criterion = 'Users endpoint returns paginated list'
    const requirement = 'Users endpoint returns sorted list'
    const task = taskRun({
      turns: [turn(1, {
        coach: {decision: fact('feedback' as const)},
        artifacts: {
          coachReport: coachReport([{text: criterion, result: 'rejected', evidence: 'Not found in Player requirements_met'}]),
          taskWorkResults: [version(TWR, {task_id: 'TASK-X-001', requirements_met: [requirement]})],
        },
      })],
    })
    const [f] = detectCriteriaFindings(handInput(task, {era: eraOf('legacy')})).filter((x) => x.code === 'TEXT_MATCH_NEAR_MISS')
    expect(f!.message).toContain('67%')
    expect(f!.evidence).toContainEqual({file: TWR, pointer: '/requirements_met/0'})
  })

  it('CRITERION_ID_MISMATCH: promises numbered AC-002a leave AC-002 without a promise', () => {
    const report = version('.guardkit/autobuild/TASK-X-001/player_turn_1.json', {completion_promises: [
      {criterion_id: 'AC-001', status: 'complete'}, {criterion_id: 'AC-002a', status: 'complete'},
    ]})
    const task = taskRun({turns: [turn(1, {coach: {criteriaTotal: fact(2)}, artifacts: {playerReport: [report]}})]})
    const [f] = detectCriteriaFindings(handInput(task)).filter((x) => x.code === 'CRITERION_ID_MISMATCH')
    expect(f!.detail).toEqual({turns: [{turn: 1, stray: ['AC-002a'], missing: ['AC-002']}]})
  })
})
