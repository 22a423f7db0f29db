import {describe, expect, it} from 'vitest'
import {detectCriteriaFindings} from '../../../../src/explain/families/criteria.js'
import type {ArtifactVersion} from '../../../../src/model/run-record.js'
import {eraOf, fact, familyInput, handInput, loadFixture, taskOf, taskRun, turn} from '../helpers.js'
import {analyse, complete} from '../diagnosis/authored-runs.js'
import {TASK} from '../diagnosis/signal-harness.js'

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

describe('from the log alone (authored runs in GuardKit\'s record shapes)', () => {
  const AB = 'guardkit.orchestrator.autobuild'
  const CV = 'guardkit.orchestrator.quality_gates.coach_validator'
  const AI = 'guardkit.orchestrator.agent_invoker'
  const turnStart = (n: number) => [`INFO:${AB}:Executing turn ${n}/10`, `INFO:guardkit.orchestrator.progress:Started turn ${n}: Player Implementation`, `INFO:${AI}:Invoking Player via task-work delegation for ${TASK} (turn ${n})`]

  it('TEXT_MATCH_MISSED_ALL: 0/N by text against as many reported requirements as criteria is a matching failure, inferred (the records do not show the work)', () => {
    const acs = ['Health endpoint `GET /healthz` returns HTTP 200', 'Readiness endpoint checks the database connection', 'Both endpoints are excluded from request logging']
    const met = ['Added a /healthz route that answers 200', 'Added /readyz which pings Postgres before answering', 'Filtered health and readiness paths out of the access-log middleware']
    const turn = (n: number) => [
      ...turnStart(n),
      '  ✓ 1 files created, 1 modified, 5 tests (passing)',
      `INFO:${CV}:Starting Coach validation for ${TASK} turn ${n}`,
      `WARNING:${CV}:Criteria verification 0/3 - diagnostic dump:`,
      ...acs.map((a) => `WARNING:${CV}:  AC text: ${a}`),
      `WARNING:${CV}:  requirements_met: ['${met.join("', '")}']`,
      `WARNING:${CV}:  completion_promises: (not used)`,
      `WARNING:${CV}:  matching_strategy: text`,
      `WARNING:${CV}:  _synthetic: False`,
      `INFO:${AB}:Criteria Progress (Turn ${n}): 0/3 verified (0%)`,
      `INFO:${AB}:Criteria: 0 verified, 3 rejected, 0 pending`,
      `INFO:${AB}:Coach provided feedback on turn ${n}`,
    ]
    const {task} = analyse([...turn(1), ...turn(2), complete('unrecoverable_stall', 2)])
    const f = task.findings.find((x) => x.code === 'TEXT_MATCH_MISSED_ALL')
    expect(f).toMatchObject({category: 'criteria-matching', confidence: 'inferred', turns: [1, 2]})
    expect(f!.message).toMatch(/the Player's 3 reported requirements/)
    expect(task.diagnosis).toMatchObject({primary: {category: 'criteria-matching'}, confidence: 'inferred'})
    expect(task.findings.map((x) => x.code)).not.toContain('ZERO_OF_N_TEXT_MATCH_EMPTY')
  })

  it('PROMISES_NOT_PASSED_TO_COACH: promises recovered into the report, none used by the Coach — and no claim that the report had none', () => {
    const turn = (n: number) => [
      ...turnStart(n),
      `INFO:${AI}:Created Player report from task_work_results.json for ${TASK} turn ${n}`,
      `INFO:${AI}:Recovered 4 completion_promises from agent-written player report for ${TASK}`,
      '  ✓ 1 files created, 2 modified, 8 tests (passing)',
      `INFO:${CV}:Starting Coach validation for ${TASK} turn ${n}`,
      `WARNING:${CV}:Criteria verification 0/4 - diagnostic dump:`,
      ...['One', 'Two', 'Three', 'Four'].map((a) => `WARNING:${CV}:  AC text: Criterion ${a} holds`),
      `WARNING:${CV}:  requirements_met: []`,
      `WARNING:${CV}:  completion_promises: (not used)`,
      `WARNING:${CV}:  matching_strategy: text`,
      `WARNING:${CV}:  _synthetic: False`,
      `INFO:${AB}:Criteria Progress (Turn ${n}): 0/4 verified (0%)`,
      `INFO:${AB}:Criteria: 0 verified, 4 rejected, 0 pending`,
      `INFO:${AB}:Coach provided feedback on turn ${n}`,
    ]
    const {task} = analyse([...turn(1), ...turn(2), complete('unrecoverable_stall', 2)])
    expect(task.findings.find((x) => x.code === 'PROMISES_NOT_PASSED_TO_COACH')).toMatchObject({category: 'pipeline-data-loss', confidence: 'certain', turns: [1, 2]})
    expect(task.diagnosis?.primary.category).toBe('pipeline-data-loss')
    for (const f of task.findings) expect(f.message).not.toMatch(/carries no completion promises/)
  })

  it('CRITERIA_UNVERIFIABLE: when every criterion left unmet asks for a human judgement or sign-off, the task as written is the cause (inferred)', () => {
    const unmet = ['The onboarding flow feels delightful to first-time users', 'Product owner signs off on the final copy']
    const turn = (n: number, missing: string[]) => [
      ...turnStart(n),
      `INFO:${AI}:Recovered 6 completion_promises from agent-written player report for ${TASK}`,
      '  ✓ 1 files created, 2 modified, 12 tests (passing)',
      `INFO:${CV}:Starting Coach validation for ${TASK} turn ${n}`,
      `INFO:${CV}:Independent tests passed in 2.0s`,
      `INFO:${CV}:Requirements not met for ${TASK}: missing ['${missing.join("', '")}']`,
      `  ⚠ Feedback: - Not all acceptance criteria met:`,
      `INFO:${AB}:Criteria Progress (Turn ${n}): 4/6 verified (66%)`,
      `INFO:${AB}:Criteria: 4 verified, 2 rejected, 0 pending`,
      `INFO:${AB}:Coach provided feedback on turn ${n}`,
    ]
    const {task} = analyse([...turn(1, unmet), ...turn(2, unmet), complete('unrecoverable_stall', 2)])
    expect(task.findings.find((x) => x.code === 'CRITERIA_UNVERIFIABLE')).toMatchObject({category: 'task-spec', confidence: 'inferred', turns: [1, 2]})
    expect(task.diagnosis).toMatchObject({primary: {category: 'task-spec'}, confidence: 'inferred'})
    // one concrete criterion among the unmet ones: the task may just not be done
    const mixed = analyse([...turn(1, [...unmet, 'Tour state persisted per user']), ...turn(2, [...unmet, 'Tour state persisted per user']), complete('unrecoverable_stall', 2)]).task
    expect(mixed.findings.map((x) => x.code)).not.toContain('CRITERIA_UNVERIFIABLE')
  })

  it('PROMISES_LOST_ACROSS_TURNS: fix turns that promise only the criteria they were told to fix, and lose the ones verified before', () => {
    const turn = (n: number, recovered: number, verified: number, notes: string[]) => [
      ...turnStart(n),
      `INFO:${AI}:Created Player report from task_work_results.json for ${TASK} turn ${n}`,
      `INFO:${AI}:Recovered ${recovered} completion_promises from agent-written player report for ${TASK}`,
      '  ✓ 1 files created, 2 modified, 12 tests (passing)',
      `INFO:${CV}:Starting Coach validation for ${TASK} turn ${n}`,
      `INFO:${CV}:Independent tests passed in 2.2s`,
      `INFO:${AB}:Criteria Progress (Turn ${n}): ${verified}/6 verified (${Math.floor((100 * verified) / 6)}%)`,
      `INFO:${AB}:Criteria: ${verified} verified, ${6 - verified} rejected, 0 pending`,
      ...notes.map((x) => `INFO:${AB}:  ${x}`),
      `INFO:${AB}:Coach provided feedback on turn ${n}`,
    ]
    const lost = ['AC-001: No completion promise for AC-001', 'AC-002: No completion promise for AC-002']
    const {task} = analyse([...turn(1, 6, 4, ['AC-005: Promise status: incomplete']), ...turn(2, 2, 2, lost), ...turn(3, 2, 2, lost), complete('max_turns_exceeded', 3)])
    const f = task.findings.find((x) => x.code === 'PROMISES_LOST_ACROSS_TURNS')
    expect(f).toMatchObject({category: 'cross-turn-memory', turns: [2, 3]})
    expect(f!.message).toMatch(/6 completion promises.*4 of the 6 criteria.*only 2/)
    expect(f!.fixedIn).toBeNull()
    expect(task.diagnosis?.primary.category).toBe('cross-turn-memory')
  })
})
