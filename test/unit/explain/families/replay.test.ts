import {describe, expect, it} from 'vitest'
import {buildCriteriaTable} from '../../../../src/explain/criteria-table.js'
import {detectReplayFindings} from '../../../../src/explain/families/replay.js'
import {buildStallTable} from '../../../../src/explain/stall-table.js'
import type {RequirementsExplanation} from '../../../../src/logic/coach/requirements/types.js'
import {emptyTurnDetail, type TaskReplay} from '../../../../src/replay/types.js'
import {eraOf, ev, familyInput, loadFixture, replayedTurn, taskOf, taskReplay} from '../helpers.js'

const RK01_CRITERIA = [
  'Config file exists at `installer/global/config/graphiti.yaml`',
  'Graphiti is disabled by default (`enabled: false`)',
  'Group ids follow `{project}__requirements`',
  'Feature id `FEAT-RK-001` is documented',
]

/**
 * Hand-built (the rk01-003 shape, fixtures/runs/rk01-003-direct-mode): a direct task whose fixed synthetic
 * report gets file-existence promises, where only AC-001 names a file; the other criteria get `incomplete` promises.
 */
function fixedRk01Explanation(): RequirementsExplanation {
  return {
    strategy: 'synthetic-promises', synthetic: true, promiseSource: {kind: 'task_work_results'}, promises: [], requirements: null, dumped: false, unknowns: [],
    criteria: RK01_CRITERIA.map((text, index) => ({
      index, criterion_id: `AC-00${index + 1}`, text, verdict: index === 0 ? 'verified' as const : 'rejected' as const,
      decidedBy: index === 0 ? 'promise-complete' as const : 'promise-rejected' as const,
      promise: {promise: {criterion_id: `AC-00${index + 1}`, status: index === 0 ? 'complete' : 'incomplete', evidence_type: 'file_existence'}, ids: ['AC-001', 'AC-002', 'AC-003', 'AC-004']},
      text_match: null,
    })),
  }
}

function fixedRk01(): TaskReplay {
  const turns = [1, 2, 3].map((n) => replayedTurn(n, {
    criteriaMet: 1, criteriaTotal: 4,
    detail: {...emptyTurnDetail(), coach: {...emptyTurnDetail().coach, source: 'validated', step: 'requirements', requirements: fixedRk01Explanation() as unknown as Record<string, unknown>}},
  }))
  return taskReplay('fixed', {kind: 'undetermined', afterTurn: 3}, turns)
}

describe('FIXED_STILL_FAILS', () => {
  it('a fixed replay that still rejects AC-002..AC-004 from file-existence promises; the record\'s explicit direct mode keeps the task there', async () => {
    const run = await loadFixture('rk01-003-direct-mode')
    const [f] = detectReplayFindings(familyInput(run, taskOf(run, 'TASK-RK01-003'), {fixed: fixedRk01()}))
    expect(f!.code).toBe('FIXED_STILL_FAILS')
    expect(f!.confidence).toBe('inferred')
    expect(f!.turns).toEqual([1, 2, 3])
    expect(f!.message).toContain('3 of 4 criteria')
    expect(f!.message).toContain('undetermined after turn 3')
    expect(f!.remediation).toMatch(/implementation_mode: direct to task-work/)
    expect(f!.reproduce).toContain('--profile fixed')
  })

  it('is not reported when fixed approves, or when its rejections come from the work (a failing test)', async () => {
    const run = await loadFixture('rk01-003-direct-mode')
    const task = taskOf(run, 'TASK-RK01-003')
    const approves = taskReplay('fixed', {kind: 'replayed', outcome: 'approved', turn: 1}, [replayedTurn(1, {decision: 'approve'})])
    expect(detectReplayFindings(familyInput(run, task, {fixed: approves}))).toEqual([])
    const testsFail = taskReplay('fixed', {kind: 'replayed', outcome: 'unrecoverable_stall', turn: 3}, [1, 2, 3].map((n) => replayedTurn(n)), 3)
    expect(detectReplayFindings(familyInput(run, task, {fixed: testsFail}))).toEqual([])
  })
})

describe('REPLAY_DIVERGES_FROM_RECORD', () => {
  it('is reported when the run\'s own profile, on an exact turn with recorded inputs, gives another verdict than the record', async () => {
    const run = await loadFixture('ae7e-promise-loss')
    const task = taskOf(run, 'TASK-USR-003')
    const diverging = replayedTurn(2, {
      decision: 'approve', diverges: true,
      detail: {...emptyTurnDetail(), differences: [{field: 'decision', recorded: 'feedback', replayed: 'approve', evidence: [ev(170)]}]},
    })
    const asRun = taskReplay('as-run:51222879', {kind: 'replayed', outcome: 'approved', turn: 2}, [replayedTurn(1), diverging])
    const [f] = detectReplayFindings(familyInput(run, task, {'as-run:51222879': asRun}, eraOf('as-run:51222879')))
    expect(f!.code).toBe('REPLAY_DIVERGES_FROM_RECORD')
    expect(f!.turns).toEqual([2])
    expect(f!.evidence).toContainEqual({file: 'run.log', line: 170})
  })

  it('is not reported for an approximate turn, or for a profile other than the run\'s own', async () => {
    const run = await loadFixture('ae7e-promise-loss')
    const task = taskOf(run, 'TASK-USR-003')
    const diff = {...emptyTurnDetail(), differences: [{field: 'decision' as const, recorded: 'feedback', replayed: 'approve', evidence: []}]}
    const approx = taskReplay('as-run:51222879', {kind: 'undetermined', afterTurn: 4}, [replayedTurn(2, {fidelity: 'approximate', detail: diff})])
    expect(detectReplayFindings(familyInput(run, task, {'as-run:51222879': approx}, eraOf('as-run:51222879')))).toEqual([])
    const fixed = taskReplay('fixed', {kind: 'replayed', outcome: 'approved', turn: 2}, [replayedTurn(2, {detail: diff, decision: 'approve'})])
    expect(detectReplayFindings(familyInput(run, task, {fixed}, eraOf('as-run:51222879')))).toEqual([])
  })
})

describe('the stall table', () => {
  it('runs the recorded feedback through the run\'s own detector: bbaba24c three times, fired at turn 3 (ac1a-run2-sft001)', async () => {
    const run = await loadFixture('ac1a-run2-sft001')
    const table = buildStallTable(taskOf(run, 'TASK-SFT-001'), {}, 'legacy')
    expect(table.rows.map((r) => r.recorded.check?.signature)).toEqual(['bbaba24c', 'bbaba24c', 'bbaba24c'])
    const last = table.rows[2]!.recorded.check!
    expect(last.fired).toBe(true)
    expect(last.window.map((w) => w.turn)).toEqual([1, 2, 3])
    expect(last.reason).toMatch(/identical/)
    expect(table.firedAt['recorded']).toBe(3)
    expect(table.fixedVerdict).toBeNull()
  })

  it('shows raw and normalised signatures per turn and when fixed would have fired (db-003-timeout; README signatures)', async () => {
    const run = await loadFixture('db-003-timeout')
    const table = buildStallTable(taskOf(run, 'TASK-DB-003'), {}, 'as-run:8a697b80')
    const raw = Object.fromEntries(table.rows.filter((r) => r.recorded.check).map((r) => [r.turn, r.recorded.check!.rawSignature]))
    const norm = Object.fromEntries(table.rows.filter((r) => r.recorded.check).map((r) => [r.turn, r.recorded.check!.normalisedSignature]))
    expect(raw).toMatchObject({1: 'deaab5ff', 2: 'f696a94c', 3: 'deaab5ff', 4: '7e14c185', 5: '5ebda8f1', 7: 'faddebcf'})
    expect(norm).toMatchObject({1: '82511af6', 2: 'f696a94c', 3: '82511af6', 4: '82511af6', 5: '82511af6'})
    expect(table.rows.find((r) => r.turn === 5)!.recorded.check!.reason).toMatch(/differ/)
    expect(table.fixedVerdict).toBe('fixed would have stopped at turn 5')
  })

  it('carries each replayed profile\'s check beside the recorded one', async () => {
    const run = await loadFixture('db-003-timeout')
    const check = {signature: '82511af6', rawSignature: '5ebda8f1', normalisedSignature: '82511af6', count: 0, threshold: 3, fired: true, reason: 'the last 3 signatures are identical (82511af6) with 0 criteria passing: stall',
      window: [{turn: 3, signature: '82511af6', count: 0}, {turn: 4, signature: '82511af6', count: 0}, {turn: 5, signature: '82511af6', count: 0}]}
    const fixed = taskReplay('fixed', {kind: 'replayed', outcome: 'unrecoverable_stall', turn: 5}, [replayedTurn(5, {stall: check, signature: '82511af6'})], 5)
    const table = buildStallTable(taskOf(run, 'TASK-DB-003'), {fixed}, 'as-run:8a697b80')
    expect(table.rows.find((r) => r.turn === 5)!.profiles['fixed']).toMatchObject({fired: true, window: check.window, count: 0})
    expect(table.firedAt).toMatchObject({recorded: null, fixed: 5})
  })
})

describe('the criteria table (0/N)', () => {
  it('explains every criterion of a turn that did not verify all, with GuardKit\'s own dump when the log has it', async () => {
    const run = await loadFixture('ac1a-run2-sft001')
    const task = taskOf(run, 'TASK-SFT-001')
    const texts = task.criteria!.texts
    const req: RequirementsExplanation = {
      strategy: 'text', synthetic: false, promiseSource: {kind: 'none', reason: 'player_turn_1.json has no completion_promises'}, promises: [],
      requirements: {source: null, value: []}, dumped: true, unknowns: [],
      criteria: texts.map((text, index) => ({index, criterion_id: `AC-${String(index + 1).padStart(3, '0')}`, text, verdict: 'rejected' as const, decidedBy: 'text-none' as const, promise: null,
        text_match: {source: null, requirements: [], rules: 'acr' as const, stripped: text, normalized: text, keywords: [], step: null, matched: null, closest: null, threshold: 0.7}})),
    }
    const legacy = taskReplay('legacy', {kind: 'replayed', outcome: 'unrecoverable_stall', turn: 3}, [replayedTurn(1, {criteriaTotal: 10,
      detail: {...emptyTurnDetail(), player: {...emptyTurnDetail().player, events: [{step: '_create_player_report_from_task_work', kind: 'overwritten', field: 'completion_promises', message: 'the agent-written report was overwritten', flag: 'recoverAgentPromises'}]},
        coach: {...emptyTurnDetail().coach, requirements: req as unknown as Record<string, unknown>}}})], 3)
    const [row] = buildCriteriaTable(task, {legacy})
    expect(row!.strategy).toBe('text')
    expect(row!.criteria).toHaveLength(10)
    expect(row!.requirements).toEqual({source: null, values: []})
    expect(row!.dump!.basis).toBe('recorded')
    expect(row!.dump!.lines[0]).toBe('Criteria verification 0/10 - diagnostic dump:')
    expect(row!.trail[0]).toMatchObject({what: 'the agent-written report was overwritten', flag: 'recoverAgentPromises'})
    expect(row!.trail.some((t) => /agent-written version/.test(t.stage) && t.what === '6 completion promises')).toBe(true)
  })
})

describe('replay-based variants of record findings', () => {
  it('FUZZY_FALSE_POSITIVE: fixed would verify a criterion through an empty requirements_addressed entry (hybrid fallback, docs/guardkit-logic.md §7.6)', async () => {
    const {detectCriteriaFindings} = await import('../../../../src/explain/families/criteria.js')
    const run = await loadFixture('ok-single-turn-promises')
    const task = run.tasks[0]!
    const req: RequirementsExplanation = {
      strategy: 'hybrid', synthetic: false, promiseSource: {kind: 'task_work_results'}, promises: [], requirements: {source: 'requirements_addressed', value: ['']}, dumped: false, unknowns: [],
      criteria: [{index: 0, criterion_id: 'AC-001', text: 'Logging is configured', verdict: 'verified', decidedBy: 'hybrid-text', promise: null,
        text_match: {source: 'requirements_addressed', requirements: [''], rules: 'acr', stripped: 'Logging is configured', normalized: 'logging is configured', keywords: [], step: 'substring', matched: '', closest: null, threshold: 0.7}}],
    }
    const fixed = taskReplay('fixed', {kind: 'replayed', outcome: 'approved', turn: 1}, [replayedTurn(1, {decision: 'approve', detail: {...emptyTurnDetail(), coach: {...emptyTurnDetail().coach, requirements: req as unknown as Record<string, unknown>}}})])
    const f = detectCriteriaFindings(familyInput(run, task, {fixed})).find((x) => x.code === 'FUZZY_FALSE_POSITIVE')
    expect(f!.confidence).toBe('inferred')
    expect(f!.reproduce).toContain('--profile fixed')
  })

  it('DUPLICATE_TEST_PATHS_UNNORMALISED: the command fixed would run still names ./tests/x.py and tests/x.py', async () => {
    const {detectTestFindings} = await import('../../../../src/explain/families/tests.js')
    const run = await loadFixture('ok-single-turn-promises')
    const fixed = taskReplay('fixed', {kind: 'replayed', outcome: 'approved', turn: 1}, [replayedTurn(1, {
      decision: 'approve', detail: {...emptyTurnDetail(), coach: {...emptyTurnDetail().coach, testCommand: 'pytest ./tests/test_log.py tests/test_log.py -v --tb=short'}},
    })])
    const f = detectTestFindings(familyInput(run, run.tasks[0]!, {fixed})).find((x) => x.code === 'DUPLICATE_TEST_PATHS_UNNORMALISED')
    expect(f!.confidence).toBe('inferred')
    expect(f!.fixedIn).toBeNull()
  })
})
