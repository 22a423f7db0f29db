import {describe, expect, it} from 'vitest'
import type {CoachTurn} from '../../../../src/model/run-record.js'
import {detectBoundaryFindings} from '../../../../src/explain/families/boundaries.js'
import {ev, fact, familyInput, feedbackTurn, handInput, loadFixture, taskOf, taskRun, turn} from '../helpers.js'

describe('ORCHESTRATION_CRASH', () => {
  it("reports the legacy `'partial' is not a valid CriterionStatus` crash as fixed by partialStatusEnum (c3feae49)", () => {
    const task = taskRun({
      outcome: fact('error'),
      turns: [turn(1)],
      events: [{kind: 'orchestration-crash', turn: 1, message: "ValueError: 'partial' is not a valid CriterionStatus", evidence: [ev(88)]}],
    })
    const [f] = detectBoundaryFindings(handInput(task)).filter((x) => x.code === 'ORCHESTRATION_CRASH')
    expect(f).toBeDefined()
    expect(f!.confidence).toBe('certain')
    expect(f!.fixedIn).toEqual({flags: ['partialStatusEnum'], commit: 'c3feae49'})
    expect(f!.evidence).toContainEqual({file: 'run.log', line: 88})
    expect(f!.source.spec).toBe('§8.6')
  })

  it('is not raised by the asyncio traceback printed at shutdown after the task completed (ac1a-run1-pre-acr)', async () => {
    const run = await loadFixture('ac1a-run1-pre-acr')
    for (const task of run.tasks) expect(detectBoundaryFindings(familyInput(run, task)).map((f) => f.code)).not.toContain('ORCHESTRATION_CRASH')
  })
})

describe('PLAYER_TIMEOUT', () => {
  it('names the timed-out turn and the state recovery that stood in for the Player (ac1a-run1-pre-acr, turn 2)', async () => {
    const run = await loadFixture('ac1a-run1-pre-acr')
    const [f] = detectBoundaryFindings(familyInput(run, taskOf(run, 'TASK-SFT-001'))).filter((x) => x.code === 'PLAYER_TIMEOUT')
    expect(f!.turns).toEqual([2])
    expect(f!.message).toContain('900 s')
    expect(f!.message).toContain('git_only')
    expect(f!.fixedIn).toBeNull()
  })

  it('does not count an SDK turn count above the logged maximum as a ceiling when the turn needed no recovery', () => {
    const task = taskRun({turns: [turn(1, {player: {sdkTurns: fact({used: 63, max: 50, ceilingHit: true})}})]})
    expect(detectBoundaryFindings(handInput(task))).toEqual([])
  })
})

describe('PLAYER_TIMEOUT after a completed SDK session, with no Coach run', () => {
  const recovery = fact({reason: 'SDK timeout after 2340s', method: 'player_report', files: 2, tests: 0, testsPassing: true}, 426)
  const timedOut = (extra: Partial<Parameters<typeof taskRun>[0]> = {}, coach: Partial<CoachTurn> = {}) =>
    taskRun({
      outcome: fact('cancelled'),
      turns: [turn(1, {player: {sdkTurns: fact({used: 33, max: 100, ceilingHit: false}, 335)}, stateRecovery: recovery, coach})],
      events: [
        {kind: 'player-timeout', turn: 1, seconds: 2340, evidence: [ev(397)]},
        {kind: 'cancelled', turn: 1, where: 'between-player-and-coach', evidence: [ev(434)]},
      ],
      ...extra,
    })

  it('says the session completed before the timeout, advises no more SDK time, and does not say the Coach saw the report', () => {
    const [f] = detectBoundaryFindings(handInput(timedOut())).filter((x) => x.code === 'PLAYER_TIMEOUT')
    expect(f!.message).toMatch(/turn 1's SDK session completed \(33 SDK turns\) and its invocation still timed out after 2340 s/)
    expect(f!.message).not.toMatch(/did not finish on its own|the Coach saw/)
    expect(f!.message).toMatch(/cancelled between the Player and the Coach on turn 1, so no Coach validation ran/)
    expect(f!.remediation).toMatch(/^Do not raise --sdk-timeout/)
    expect(f!.evidence).toEqual(expect.arrayContaining([ev(335), ev(434)]))
  })

  it('says the recovered report is the one the Coach saw when a Coach decision of the turn is recorded', () => {
    const [f] = detectBoundaryFindings(handInput(timedOut({events: [{kind: 'player-timeout', turn: 1, seconds: 2340, evidence: [ev(397)]}]}, {decision: fact('feedback' as const, 450)})))
      .filter((x) => x.code === 'PLAYER_TIMEOUT')
    expect(f!.message).toMatch(/built the report the Coach saw/)
  })

  it('still advises more time for a session the log does not show completing', () => {
    const task = taskRun({turns: [turn(1, {stateRecovery: recovery})], events: [{kind: 'player-timeout', turn: 1, seconds: 900, evidence: [ev(397)]}]})
    const [f] = detectBoundaryFindings(handInput(task)).filter((x) => x.code === 'PLAYER_TIMEOUT')
    expect(f!.message).toMatch(/^The Player did not finish on its own: turn 1 timed out after 900 s/)
    expect(f!.remediation).toMatch(/^Raise --sdk-timeout above the 900 s/)
  })
})

describe('PLAYER_TIMEOUT whose recovered report the Coach did not find', () => {
  const coachPath = '/home/dev/proj/.guardkit/worktrees/TASK-ABC-001/.guardkit/autobuild/TASK-ABC-001/task_work_results.json'
  const playerPath = '/home/dev/proj/.guardkit/worktrees/FEAT-1A2B/.guardkit/autobuild/TASK-ABC-001/player_turn_1.json'
  const signal = (line: number, text: string) => ({source: 'record' as const, level: 'WARNING', logger: 'guardkit.orchestrator.quality_gates.coach_validator', text, turn: 1, evidence: ev(line), repeats: 0})
  const task = (reason: string) =>
    taskRun({
      turns: [turn(1, {stateRecovery: fact({reason, method: 'git_only', files: 1, tests: 0, testsPassing: false}, 121), coach: {decision: fact('feedback' as const, 141)}})],
      events: [{kind: 'player-timeout', turn: 1, seconds: 300, evidence: [ev(115)]}],
      signals: [signal(129, `Task-work results not found at ${coachPath}`), signal(131, 'Task-work results not found for TASK-ABC-001')],
    })

  it('does not say the Coach saw the recovered report when it logged that it found no task-work results, and quotes that line', () => {
    const [f] = detectBoundaryFindings(handInput(task('SDK timeout after 300s'))).filter((x) => x.code === 'PLAYER_TIMEOUT')
    expect(f!.message).not.toMatch(/the Coach saw/)
    expect(f!.message).toContain(`the Coach found none where it looked: on turn 1 it logged "Task-work results not found at ${coachPath}"`)
    expect(f!.evidence).toContainEqual(ev(129))
  })

  it('names both worktrees when the recovery\'s record names another one than the Coach looked in', () => {
    const [f] = detectBoundaryFindings(handInput(task(`Player report not found: ${playerPath}`))).filter((x) => x.code === 'PLAYER_TIMEOUT')
    expect(f!.message).toContain(`the recovery's record names a path in another worktree, /home/dev/proj/.guardkit/worktrees/FEAT-1A2B (${playerPath}), than the one the Coach looked in, /home/dev/proj/.guardkit/worktrees/TASK-ABC-001`)
  })
})

describe('ENDED_BY_TIMEOUT_NOT_STALL', () => {
  const repeated = [1, 2, 3, 4].map((n) => feedbackTurn(n, `- Independent test verification failed:\n  FAILED tests/test_a.py::T::t${n}`))

  it('reports a feature timeout that ended a loop repeating one feedback (seed 002)', () => {
    const task = taskRun({
      outcome: fact('cancelled'),
      turns: [...repeated, turn(5)],
      events: [{kind: 'feature-timeout', turn: 5, seconds: 2400, evidence: [ev(500)]}, {kind: 'cancelled', turn: 5, where: 'between-player-and-coach', evidence: [ev(501)]}],
    })
    const [f] = detectBoundaryFindings(handInput(task))
    expect(f!.code).toBe('ENDED_BY_TIMEOUT_NOT_STALL')
    expect(f!.turns).toEqual([5])
    expect(f!.message).toContain('2400 s')
    expect(f!.evidence).toContainEqual({file: 'run.log', line: 500})
  })

  it('says nothing when the loop was making different feedback before the timeout', () => {
    const varied = ['- Coverage threshold not met', '- Not all acceptance criteria met:\n  • a', '- Independent test verification failed:\n  x'].map((t, i) => feedbackTurn(i + 1, t))
    const task = taskRun({outcome: fact('cancelled'), turns: varied, events: [{kind: 'feature-timeout', turn: 3, seconds: 2400, evidence: [ev(9)]}]})
    expect(detectBoundaryFindings(handInput(task))).toEqual([])
  })
})
