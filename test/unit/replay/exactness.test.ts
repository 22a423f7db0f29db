import {describe, expect, it} from 'vitest'
import type {ReplayedTurn, TaskReplay} from '../../../src/replay/index.js'
import {builtinProfile} from '../../../src/logic/profiles.js'
import {collectTaskInputs, inferEra, replayTask, type TaskInputs} from '../../../src/replay/index.js'
import {FIXTURES, findTask, load, replay} from './helpers.js'

/**
 * "Exact means exact" (docs/counterfactuals.md): a value is approximate only when a missing input could change
 * it. One test per rule, each with a value that is exact although an input unrelated to it is missing or was
 * rebuilt; expected values from the fixtures' hand derivations (their README.md), not from the tool.
 */
const turn = (r: TaskReplay, n: number): ReplayedTurn => r.turns.find((t) => t.turn === n)!

describe('a value is approximate only when a missing input could change it', () => {
  it('the record reproduced: the code that ran, with turn 1-2 results files rebuilt (overwritten), gives the recorded 0/10 and bbaba24c: exact', async () => {
    const run = await load(`${FIXTURES}ac1a-run2-sft001-no-agent-report`)
    const r = replay(run, findTask(run, 'TASK-SFT-001'), 'legacy')
    for (const n of [1, 2]) {
      expect(turn(r, n)).toMatchObject({fidelity: 'exact', decision: 'feedback', criteriaMet: 0, criteriaTotal: 10, signature: 'bbaba24c', missingInputs: []})
      expect(turn(r, n).assumptions.some((a) => a.startsWith(`task_work_results.json of turn ${n} rebuilt`))).toBe(true)
    }
  })

  it('the gates decided: fixed re-runs the Player side without the git lists, but turn 1 stopped at the coverage gate on the recorded quality_gates: exact', async () => {
    const run = await load(`${FIXTURES}ae7e-promise-loss`)
    const t1 = turn(replay(run, findTask(run, 'TASK-USR-003'), 'fixed'), 1)
    expect(t1).toMatchObject({fidelity: 'exact', decision: 'feedback', signature: 'f696a94c', missingInputs: []})
    expect(t1.detail.player.source).toBe('pipeline-task-work')
    expect(t1.assumptions.at(-1)).toMatch(/stopped at the quality gates on the recorded quality_gates/)
  })

  it('the agent\'s report: legacy never reads it (no D9), so its absence on turns 2-4 is no missing input', async () => {
    const run = await load(`${FIXTURES}ae7e-promise-loss`)
    const r = replay(run, findTask(run, 'TASK-USR-003'), 'legacy')
    for (const n of [2, 3, 4]) {
      expect(turn(r, n).fidelity).toBe('exact')
      expect(turn(r, n).missingInputs.some((m) => m.includes('as written by the agent'))).toBe(false)
    }
  })

  it('the git lists: fixed approves turn 2 on turn 1\'s promises with the tests run and passed: the lists cannot reach the verdict, exact', async () => {
    const run = await load(`${FIXTURES}ae7e-promise-loss`)
    const t2 = turn(replay(run, findTask(run, 'TASK-USR-003'), 'fixed'), 2)
    expect(t2).toMatchObject({fidelity: 'exact', decision: 'approve', criteriaMet: 6, criteriaTotal: 6})
    expect(t2.missingInputs.some((m) => m.startsWith('git change lists'))).toBe(false)
    expect(t2.assumptions.some((a) => a.includes('git-detected files not added (they cannot change this turn\'s verdict'))).toBe(true)
  })

  it('the worktree path: not recorded, but fixed\'s approval prints no path (exact); legacy\'s "Player report not found" feedback does (approximate, and says so)', async () => {
    const run = await load(`${FIXTURES}rk01-003-direct-mode`)
    const task = findTask(run, 'TASK-RK01-003')
    const fixed = turn(replay(run, task, 'fixed'), 1)
    expect(fixed).toMatchObject({fidelity: 'exact', decision: 'approve', criteriaMet: 4})
    expect(fixed.assumptions).toContain('worktree path not recorded; /worktree/root stands in')
    const legacy = turn(replay(run, task, 'legacy'), 1)
    expect(legacy.fidelity).toBe('approximate')
    expect(legacy.feedback).toContain('Player report not found: /worktree/root/')
    expect(legacy.missingInputs.some((m) => m.startsWith('the worktree path'))).toBe(true)
  })
})

describe('the record reproduced needs the record to hold what is compared', () => {
  const replayWith = async (edit: (inputs: TaskInputs) => TaskInputs) => {
    const run = await load(`${FIXTURES}ac1a-run2-sft001-no-agent-report`)
    const era = inferEra(run)
    const asRun = builtinProfile(era.profile!)!
    return replayTask(edit(collectTaskInputs(run, findTask(run, 'TASK-SFT-001'))), asRun, asRun)
  }
  const withoutTotal = (inputs: TaskInputs): TaskInputs => ({...inputs, turns: inputs.turns.map((t) => (t.turn === 1 ? {...t, criteriaTotal: null} : t))})

  it('a turn whose criteria total was not recorded, replayed on a criteria list the records do not show complete: approximate', async () => {
    const r = await replayWith((inputs) => withoutTotal({...inputs, taskFile: null, criteria: {texts: inputs.criteria!.texts, source: 'log', complete: false}}))
    const t1 = turn(r, 1)
    expect(t1.fidelity).not.toBe('exact')
    expect(t1.assumptions.some((a) => a.includes('which this same code produced'))).toBe(false)
  })

  it('the same turn with the task file (the criteria list is exact, so the total is determined): still exact', async () => {
    const t1 = turn(await replayWith(withoutTotal), 1)
    expect(t1).toMatchObject({fidelity: 'exact', criteriaMet: 0, criteriaTotal: 10})
  })
})
