import {describe, expect, it} from 'vitest'
import {detectTaskFindings} from '../../../src/explain/detect-findings.js'
import {buildFeaturePictures, mainFeaturePicture} from '../../../src/explain/feature.js'
import {diagnose} from '../../../src/explain/diagnosis/diagnose.js'
import {numberFindings, numberFindingsByKey} from '../../../src/explain/order.js'
import {buildVerdict} from '../../../src/explain/verdict.js'
import type {Finding} from '../../../src/model/finding.js'
import type {TaskReplay} from '../../../src/replay/types.js'
import {fact, familyInput, loadFixture, replayedTurn, taskOf, taskReplay, taskRun, turn} from './helpers.js'

/** Seed 002 / docs/guardkit-logic.md §10: fixed stops TASK-DB-003 at turn 5 (normalised signature 82511af6 on turns 3, 4, 5). */
function fixedStallAt5(): TaskReplay {
  const turns = [1, 2, 3, 4, 5].map((n) => replayedTurn(n, {criteriaTotal: 6, signature: n === 2 ? 'f696a94c' : '82511af6', fidelity: 'approximate', assumptions: ['the recorded independent-test failure verdict stands in']}))
  return taskReplay('fixed', {kind: 'replayed', outcome: 'unrecoverable_stall', turn: 5}, turns, 5)
}

async function db003Verdict(replays: Record<string, TaskReplay>) {
  const run = await loadFixture('db-003-timeout')
  const task = taskOf(run, 'TASK-DB-003')
  const drafts = detectTaskFindings(familyInput(run, task, replays))
  const [{findings, idOf}] = numberFindingsByKey([drafts]) as [{findings: Finding[]; idOf: ReadonlyMap<string, string>}]
  const {diagnosis} = diagnose(task, drafts, findings, idOf)
  return buildVerdict({task, findings, replays, asRun: 'as-run:8a697b80', whatif: null, diagnosis})
}

describe('the verdict (docs/cli.md "The text report")', () => {
  it('says what happened, why, and what fixed would have done, for TASK-DB-003', async () => {
    const v = await db003Verdict({fixed: fixedStallAt5()})
    expect(v.happened).toBe('cancelled at turn 18 (feature task timeout, 2400 s)')
    // seed 002: primary test-environment, with the line that shows it; contributing loop-control and the timeout
    expect(v.why).toMatch(/^test-environment: the Coach's own test run failed on an import or environment error/)
    expect(v.why).toMatch(/— "[^"]*OperationalError[^"]*" \(run\.log:\d+\)/)
    expect(v.why).toMatch(/; contributing: .*loop-control, timeout$/)
    expect(v.underProfiles).toEqual([{profile: 'fixed', text: expect.stringMatching(/^stops at turn 5: unrecoverable_stall, signature 82511af6 \(approximate/)}])
    expect(v.ok).toBe(false)
  })

  it('counts the waste from where fixed stops: 18 − 5 = 13 turns (seed 002: "preventing 13 wasted turns"), minutes from the task file\'s turn timestamps', async () => {
    const v = await db003Verdict({fixed: fixedStallAt5()})
    // autobuild_state: turn 5 saved at 14:13:25.140, turn 17 (the last saved) at 14:40:49.235 → 27 min 24 s.
    expect(v.waste).toMatchObject({shouldHaveStoppedAt: 5, turnsWasted: 13, minutesWasted: 27.4})
    expect(v.waste!.basis).toMatch(/to turn 17/)
  })

  it('without a replay, takes the stop from normalised signatures of the recorded feedback', async () => {
    const v = await db003Verdict({})
    expect(v.waste).toMatchObject({shouldHaveStoppedAt: 5, turnsWasted: 13})
    expect(v.waste!.basis).toMatch(/normalised signatures/)
  })

  it('lists what to do now, the logic changes that fix it, and what GuardKit did not fix', async () => {
    const v = await db003Verdict({fixed: fixedStallAt5()})
    expect(v.doNow[0]).toMatch(/conftest\.py/)
    expect(v.fixedIn).toEqual(expect.arrayContaining(['stallNormalize (5c2b5d82)', 'summaryErrorContext (5c2b5d82)', 'relPathDedup (5c2b5d82)', 'sdkTests (5c2b5d82)']))
    expect(v.notFixed.some((n) => /gate short-circuit ordering/.test(n))).toBe(true)
  })

  it('is ok for a task approved without serious findings', async () => {
    const run = await loadFixture('ok-single-turn-promises')
    const task = taskOf(run, 'TASK-LOG-002')
    const [findings] = numberFindings([detectTaskFindings(familyInput(run, task))])
    const v = buildVerdict({task, findings: findings!, replays: {}, asRun: 'fixed', whatif: null})
    expect(v.happened).toBe('approved at turn 1')
    expect(v.ok).toBe(true)
    expect(v.waste).toBeNull()
  })

  it('says what the approving turn records: an approval with every criterion pending is not "verified every criterion"', () => {
    // January 2026's Coach (docs/era-markers.md): approve, 0 of 3 verified, 3 pending
    const approving = turn(1, {coach: {decision: fact('approve' as const, 10), criteriaMet: fact(0, 11), criteriaTotal: fact(3, 11), pending: fact(3, 11)}})
    const task = taskRun({outcome: fact('approved' as const, 12), turns: [approving]})
    const v = buildVerdict({task, findings: [], replays: {}, asRun: null, whatif: null})
    expect(v.why).toBe('the Coach approved with all 3 criteria pending: it verified none')
    const verified = taskRun({outcome: fact('approved' as const, 12), turns: [turn(1, {coach: {decision: fact('approve' as const, 10), criteriaMet: fact(3, 11), criteriaTotal: fact(3, 11)}})]})
    expect(buildVerdict({task: verified, findings: [], replays: {}, asRun: null, whatif: null}).why).toBe('the Coach verified every criterion')
  })
})

describe('the feature picture', () => {
  it('shows the waves, which timeout ended which task, and where the feature\'s summary disagrees with the task (FEAT-BA28)', async () => {
    const run = await loadFixture('db-003-timeout')
    const pictures = buildFeaturePictures(run)
    const p = mainFeaturePicture(run, pictures)!
    expect(p.featureId).toBe('FEAT-BA28')
    expect(p.waves.map((w) => w.taskIds)).toEqual([['TASK-DB-001'], ['TASK-DB-002', 'TASK-DB-003']])
    expect(p.featureResult).toMatch(/fail/i)
    expect(p.timeouts).toEqual([expect.objectContaining({taskId: 'TASK-DB-003', seconds: 2400, turn: 18})])
    // The wave table says TIMEOUT and the feature YAML timeout; the task's own loop logged cancelled (docs/guardkit-logic.md §8.7).
    expect(p.disagreements.map((d) => [d.taskId, d.taskSays])).toEqual([['TASK-DB-003', 'cancelled'], ['TASK-DB-003', 'cancelled']])
    expect(p.disagreements.every((d) => d.note !== undefined)).toBe(true)
  })

  it('has no disagreement when every status matches (ok-parallel-waves)', async () => {
    const run = await loadFixture('ok-parallel-waves')
    const p = mainFeaturePicture(run, buildFeaturePictures(run))!
    expect(p.waves).toHaveLength(2)
    expect(p.timeouts).toEqual([])
    expect(p.disagreements).toEqual([])
  })

  describe('on an approved task, what to do now', () => {
    const noted = (id: string, severity: Finding['severity'], turns: number[], remediation: string): Finding => ({
      id, code: 'LOG_SIGNAL', category: 'agent-budget', severity, confidence: 'certain', taskId: 'TASK-A', attempt: 1, turns,
      message: 'm', evidence: [], reproduce: 'r', remediation, fixedIn: null, causes: [], source: {function: 'f', spec: 's'},
    })
    const approvedAt = (n: number) => taskRun({
      taskId: 'TASK-A',
      outcome: fact('approved' as const),
      turns: Array.from({length: n}, (_, i) => turn(i + 1, {coach: {decision: fact(i + 1 === n ? 'approve' as const : 'feedback' as const)}})),
    })
    const doNow = (task: ReturnType<typeof approvedAt>, findings: Finding[]) => buildVerdict({task, findings, replays: {}, asRun: null, whatif: null, diagnosis: null}).doNow

    it('is nothing for a low note on the approving turn alone (a session at its SDK turn limit that still wrote the report the Coach approved)', () => {
      expect(doNow(approvedAt(1), [noted('f1', 'low', [1], 'Raise the Player\'s SDK max turns.')])).toEqual([])
    })

    it('keeps the action of a low finding on a turn the task wasted before its approval, and of anything medium or above', () => {
      expect(doNow(approvedAt(2), [noted('f1', 'low', [1], 'Raise the Player\'s SDK max turns.')])).toEqual(['Raise the Player\'s SDK max turns.'])
      expect(doNow(approvedAt(1), [noted('f1', 'medium', [1], 'Check what the Coach approved.')])).toEqual(['Check what the Coach approved.'])
    })
  })
})
