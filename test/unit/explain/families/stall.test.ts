import {describe, expect, it} from 'vitest'
import {detectStallFindings} from '../../../../src/explain/families/stall.js'
import {notFixedPhrase} from '../../../../src/explain/phrases.js'
import {eraOf, ev, fact, familyInput, feedbackTurn, handInput, loadFixture, taskOf, taskRun, turn} from '../helpers.js'

/**
 * The db-003 incident (fixtures/runs/db-003-timeout, docs/guardkit-logic.md §8.1 `loop_phase#6`): turn 1 a
 * test failure, turn 2 the coverage gate, turns 3… test failures whose pytest node ids and durations vary.
 * Legacy md5 signatures never repeat; normalised signatures do from turn 3, so fixed stops at turn 5.
 */
const testFailure = (cls: string, secs: string) => `- Independent test verification failed:\n  FAILED tests/users/test_users.py::${cls}::test_create_user - OperationalError\n  ==== 1 failed in ${secs}s ====`
const seed002Turns = [
  feedbackTurn(1, testFailure('TestUserCreate', '1.73'), 0, 6),
  feedbackTurn(2, '- Coverage threshold not met', 0, 6),
  feedbackTurn(3, testFailure('TestUserCRUD', '1.71'), 0, 6),
  feedbackTurn(4, testFailure('TestUser', '1.90'), 0, 6),
  feedbackTurn(5, testFailure('TestUserModel', '1.73'), 0, 6),
  feedbackTurn(6, testFailure('TestCreate', '1.72'), 0, 6),
]

describe('STALL_DEFEATED_BY_VARIABLE_OUTPUT', () => {
  it('is certain with the full texts and says normalised signatures would have stopped at turn 5 (seed 002 App. B)', () => {
    const task = taskRun({outcome: fact('cancelled'), turns: seed002Turns})
    const f = detectStallFindings(handInput(task, {era: eraOf('as-run:8a697b80')})).find((x) => x.code === 'STALL_DEFEATED_BY_VARIABLE_OUTPUT')
    expect(f).toBeDefined()
    expect(f!.confidence).toBe('certain')
    expect(f!.turns).toEqual([3, 4, 5, 6])
    expect(f!.message).toContain('at turn 5')
    expect(f!.fixedIn).toEqual({flags: ['stallNormalize'], commit: '5c2b5d82'})
    expect(f!.detail!['fixedWouldStopAt']).toBe(5)
  })

  it('is inferred, with the deduction stated, when only the log excerpts exist (db-003-timeout-log-only)', async () => {
    const run = await loadFixture('db-003-timeout-log-only')
    const f = detectStallFindings(familyInput(run, taskOf(run, 'TASK-DB-003'))).find((x) => x.code === 'STALL_DEFEATED_BY_VARIABLE_OUTPUT')
    expect(f!.confidence).toBe('inferred')
    expect(f!.deduction).toMatch(/80-code-point excerpts/)
    expect(f!.turns).toEqual(expect.arrayContaining([3, 4, 5]))
  })

  it('is not reported when the detector fired', () => {
    const same = [1, 2, 3].map((n) => feedbackTurn(n, '- Not all acceptance criteria met:\n  • a'))
    const task = taskRun({turns: same, stall: {kind: 'feedback', turn: 3, signature: 'x', windowTurns: 3, criteriaPassing: 0, extended: false, errorText: null, evidence: [ev(3)]}})
    expect(detectStallFindings(handInput(task)).map((f) => f.code)).not.toContain('STALL_DEFEATED_BY_VARIABLE_OUTPUT')
  })
})

describe('STALL_WINDOW_BROKEN', () => {
  it('reports the coverage turn between two test-failure turns (seed 002 F5, turn 2)', () => {
    const f = detectStallFindings(handInput(taskRun({turns: seed002Turns}))).find((x) => x.code === 'STALL_WINDOW_BROKEN')
    expect(f!.turns).toEqual([2])
    expect(f!.fixedIn).toBeNull()
  })
})

describe('MAX_TURNS_WITHOUT_STALL', () => {
  it('reports a max_turns_exceeded run that repeated its feedback', () => {
    const task = taskRun({outcome: fact('max_turns_exceeded'), turns: seed002Turns.slice(2), events: [{kind: 'max-turns-exceeded', maxTurns: 4, evidence: [ev(99)]}]})
    const f = detectStallFindings(handInput(task)).find((x) => x.code === 'MAX_TURNS_WITHOUT_STALL')
    expect(f!.turns).toEqual([3, 4, 5, 6])
    expect(f!.evidence).toContainEqual({file: 'run.log', line: 99})
  })
})

describe('STALL_FIRED and CONTEXT_POLLUTION_STALL', () => {
  it('reads the stall record: turn, signature and window (ac1a-run2-sft001: bbaba24c at turn 3)', async () => {
    const run = await loadFixture('ac1a-run2-sft001')
    const f = detectStallFindings(familyInput(run, taskOf(run, 'TASK-SFT-001'))).find((x) => x.code === 'STALL_FIRED')
    expect(f!.turns).toEqual([1, 2, 3])
    expect(f!.message).toContain('bbaba24c')
    expect(f!.reproduce).toBe('guardkit-replay explain ' + run.path + ' --task TASK-SFT-001 --turn 3')
  })

  it('tells a pollution stop from a feedback stall: the failing checkpoints stopped the loop, not repeated feedback', () => {
    const turns = [1, 2, 3].map((n) => feedbackTurn(n, `- Independent test verification failed:\n  FAILED tests/test_a.py::test_${n}`, 0, 6))
    const task = taskRun({
      outcome: fact('unrecoverable_stall'),
      turns,
      stall: {kind: 'context-pollution', turn: 3, signature: null, windowTurns: null, criteriaPassing: null, extended: false, errorText: null, evidence: [ev(90)]},
      events: [{kind: 'context-pollution', turn: 3, failures: 3, turns: [1, 2, 3], evidence: [ev(88)]}],
    })
    const found = detectStallFindings(handInput(task))
    expect(found.map((f) => f.code)).not.toContain('STALL_FIRED')
    const f = found.find((x) => x.code === 'CONTEXT_POLLUTION_STALL')
    expect(f!.turns).toEqual([1, 2, 3])
    expect(f!.confidence).toBe('certain')
    expect(f!.evidence).toEqual([ev(88), ev(90)])
  })
})

describe('CONTEXT_POLLUTION_STALL: advice and the rule\'s count from the records', () => {
  const gates = (tests: boolean | null) => fact({testsPassed: tests, coverageMet: true, archReviewPassed: true, planAuditPassed: true, allPassed: tests === true, testsRequired: true, coverageRequired: true, archReviewRequired: false}, 60)
  const pollution = (turns: ReturnType<typeof turn>[]) =>
    taskRun({
      outcome: fact('unrecoverable_stall'),
      turns,
      stall: {kind: 'context-pollution', turn: 2, signature: null, windowTurns: null, criteriaPassing: null, extended: false, errorText: null, evidence: [ev(90)]},
      events: [{kind: 'context-pollution', turn: 2, failures: 2, turns: [1, 2], evidence: [ev(88)]}],
    })

  it('does not advise making the Player\'s tests pass when a turn\'s tests gate passed and its checkpoint still failed', () => {
    const task = pollution([
      turn(1, {coach: {gates: gates(null), decision: fact('feedback' as const, 20)}, checkpoint: fact({hash: 'a', testsPassed: false, testCount: 0}, 30)}),
      turn(2, {coach: {gates: gates(true), decision: fact('approve' as const, 61)}, checkpoint: fact({hash: 'b', testsPassed: false, testCount: 0}, 62)}),
    ])
    const f = detectStallFindings(handInput(task)).find((x) => x.code === 'CONTEXT_POLLUTION_STALL')!
    expect(f.remediation).not.toMatch(/make the Player's own test run pass/)
    expect(f.remediation).toMatch(/On t2 the tests gate passed and the checkpoint still recorded failing tests/)
    expect(f.evidence).toContainEqual(ev(62))
  })

  it('on a resumed task, says which counted checkpoints this run made and does not put the others on its turns', () => {
    const task = taskRun({
      outcome: fact('unrecoverable_stall'),
      turns: [turn(1, {coach: {decision: fact('feedback' as const, 20)}, checkpoint: fact({hash: 'a', testsPassed: false, testCount: 0}, 30)})],
      stall: {kind: 'context-pollution', turn: 1, signature: null, windowTurns: null, criteriaPassing: null, extended: false, errorText: null, evidence: [ev(90)]},
      events: [{kind: 'context-pollution', turn: 1, failures: 3, turns: [2, 3, 1], evidence: [ev(88)]}],
    })
    const f = detectStallFindings(handInput(task)).find((x) => x.code === 'CONTEXT_POLLUTION_STALL')!
    expect(f.turns).toEqual([1])
    expect(f.message).toMatch(/this run made the checkpoint of t1, and its records show no t2, t3, so this run did not make the checkpoints of t2, t3/)
    expect(f.message).not.toMatch(/the checkpoints of t1–t3 all recorded/)
  })

  it('counts the failing checkpoints the pollution record names (two here), for the "not fixed" line', () => {
    const task = pollution([turn(1, {coach: {gates: gates(false)}}), turn(2, {coach: {gates: gates(false)}})])
    const f = detectStallFindings(handInput(task)).find((x) => x.code === 'CONTEXT_POLLUTION_STALL')!
    expect(notFixedPhrase({code: f.code, detail: f.detail})).toBe('the pollution rule is unchanged (here it ended the loop on 2 consecutive failing checkpoints with none passing)')
    expect(f.remediation).toMatch(/make the Player's own test run pass/)
  })
})

describe('STALL_ON_CORRECT_WORK', () => {
  it('is certain when an earlier player report promised every criterion complete (ae7e-promise-loss, turn 1)', async () => {
    const run = await loadFixture('ae7e-promise-loss')
    const f = detectStallFindings(familyInput(run, taskOf(run, 'TASK-USR-003'))).find((x) => x.code === 'STALL_ON_CORRECT_WORK')
    expect(f!.confidence).toBe('certain')
    expect(f!.detail!['evidenceTurn']).toBe(1)
    expect(f!.fixedIn!.flags).toEqual(['priorTurnPromises'])
  })

})

describe('STALL_ON_CORRECT_WORK from the Coach\'s own verification', () => {
  it('is certain when an earlier turn had every criterion verified but was rejected for something else (a zero-test anomaly)', () => {
    const zeroTest = '- Zero-test anomaly: no task-specific tests created'
    const task = taskRun({
      turns: [feedbackTurn(1, zeroTest, 6, 6), ...[2, 3, 4, 5].map((n) => feedbackTurn(n, zeroTest, n === 2 ? 6 : 0, 6))],
      stall: {kind: 'feedback', turn: 5, signature: 'x', windowTurns: 3, criteriaPassing: 0, extended: false, errorText: null, evidence: [ev(99)]},
    })
    const f = detectStallFindings(handInput(task)).find((x) => x.code === 'STALL_ON_CORRECT_WORK')
    expect(f!.confidence).toBe('certain')
    expect(f!.turns).toEqual([5])
    expect(f!.detail).toMatchObject({evidenceTurn: 1, verifiedByCoach: true, criteria: 6})
    expect(f!.evidence).toEqual([ev(11), ev(99)])
    expect(f!.fixedIn).toBeNull()
  })
})
