import {describe, expect, it} from 'vitest'
import {combinations, computeWhatIf, outcomeChangeTurn} from '../../../src/explain/whatif.js'
import {FLAG_IDS} from '../../../src/logic/changes.js'
import {builtinProfile, type Profile} from '../../../src/logic/profiles.js'
import type {TaskReplay} from '../../../src/replay/types.js'
import {replayedTurn, taskReplay} from './helpers.js'

const legacy = builtinProfile('legacy')!
const fixed = builtinProfile('fixed')!

/**
 * A replay that stalls at turn 3 unless: stallNormalize alone makes it stall at turn 5 instead of
 * running on (an outcome flip), or recoverAgentPromises together with writeBackResults (neither
 * alone) approves at turn 1. relPathDedup changes the turns but not the outcome.
 */
function fakeReplay(calls: string[]) {
  return (p: Profile): TaskReplay => {
    calls.push(p.name)
    const f = p.flags
    if (f.recoverAgentPromises && f.writeBackResults) return taskReplay(p.name, {kind: 'replayed', outcome: 'approved', turn: 1}, [replayedTurn(1, {decision: 'approve', criteriaMet: 4})])
    const turns = [1, 2, 3, 4, 5].map((n) => replayedTurn(n, {signature: f.relPathDedup ? 'aaaa' : `s${n}`, feedback: 'x', detail: f.recoverAgentPromises || f.writeBackResults ? {player: {source: 'recorded', mode: null, events: [], agentReportKnown: true, coachInputs: {taskWorkResults: null, playerReport: null, promisesInResults: f.writeBackResults ? 0 : null, promisesInReport: f.recoverAgentPromises ? 6 : 0, synthetic: false}}} : {}}))
    if (f.stallNormalize) return taskReplay(p.name, {kind: 'replayed', outcome: 'unrecoverable_stall', turn: 5}, turns.map((t) => (t.turn === 5 ? {...t, stall: {signature: 'n', rawSignature: 'r', normalisedSignature: 'n', count: 0, window: [], threshold: 3, fired: true, reason: 'same'}} : t)), 5)
    return taskReplay(p.name, {kind: 'undetermined', afterTurn: 5}, turns)
  }
}

describe('computeWhatIf', () => {
  it('finds the single flag and the smallest pair that flip the outcome, with the turn each changes it at', () => {
    const calls: string[] = []
    const w = computeWhatIf({baseline: legacy, fixed, replay: fakeReplay(calls)})
    expect(w.baseline).toBe('legacy')
    expect(w.baselineOutcome).toBe('undetermined after turn 5')
    expect(w.flips.map((f) => [f.flags, f.outcome, f.changesAtTurn])).toEqual([
      [['stallNormalize'], 'unrecoverable_stall', 5],
      [['recoverAgentPromises', 'writeBackResults'], 'approved', 1],
    ])
    expect(w.searched).toMatch(/each alone/)
    expect(w.searched).toMatch(/up to 3/)
  })

  it('does not report a superset of a flipping set, and respects the replay bound', () => {
    const calls: string[] = []
    const singles = FLAG_IDS.filter((f) => fixed.flags[f] && !legacy.flags[f]).length
    const w = computeWhatIf({baseline: legacy, fixed, replay: fakeReplay(calls), maxReplays: singles + 1})
    expect(w.flips.every((f) => !(f.flags.includes('stallNormalize') && f.flags.length > 1))).toBe(true)
    // Every single flag is tried; combinations stop at the bound; plus the baseline and fixed themselves.
    expect(calls.length).toBeLessThanOrEqual(singles + 1 + 2)
    expect(w.searched).toMatch(/bound of \d+ replays/)
  })

  it('reduces fixed greedily when nothing within the bound flips but fixed does', () => {
    // Needs three flags at once; with maxSetSize 2 only the greedy reduction can find them.
    const replay = (p: Profile): TaskReplay => {
      const f = p.flags
      const on = f.directSyntheticFlag && f.directSyntheticPromises && f.directReportKeepsSynthetic
      return on
        ? taskReplay(p.name, {kind: 'replayed', outcome: 'approved', turn: 2}, [replayedTurn(1), replayedTurn(2, {decision: 'approve'})])
        : taskReplay(p.name, {kind: 'replayed', outcome: 'unrecoverable_stall', turn: 3}, [1, 2, 3].map((n) => replayedTurn(n)), 3)
    }
    const w = computeWhatIf({baseline: legacy, fixed, replay, maxSetSize: 2})
    expect(w.flips).toHaveLength(1)
    expect([...w.flips[0]!.flags].sort()).toEqual(['directReportKeepsSynthetic', 'directSyntheticFlag', 'directSyntheticPromises'])
    expect(w.flips[0]!.changesAtTurn).toBe(2)
    expect(w.searched).toMatch(/reduced greedily/)
  })

  it('passes the fixed-still-fails reason through', () => {
    const w = computeWhatIf({baseline: legacy, fixed, replay: fakeReplay([]), fixedStillFails: 'non-scaffolding direct task'})
    expect(w.fixedStillFails).toBe('non-scaffolding direct task')
  })
})

describe('computeWhatIf over undetermined replays (docs/counterfactuals.md)', () => {
  const stall = (p: Profile) => taskReplay(p.name, {kind: 'replayed', outcome: 'unrecoverable_stall', turn: 4}, [1, 2, 3, 4].map((n) => replayedTurn(n, {signature: 'aaaaaaaa'})), 4)
  const branch = (outcome: string, assume: string, endTurn: number | null, stallTurn: number | null) =>
    ({assume, brief: assume, values: {priorPromises: [assume]}, outcome, stallTurn, endTurn, replay: {outcome: {kind: 'undetermined', afterTurn: 4} as const, turns: []}})
  // Seed 004 from the log alone: with priorTurnPromises the ending depends on what turn 1's promises said.
  const seed004 = (p: Profile): TaskReplay => {
    if (!p.flags.priorTurnPromises) return stall(p)
    return taskReplay(p.name, {kind: 'branches', branches: [
      branch('approved', 'they were complete', 2, null),
      branch('undetermined after turn 4', 'only some verified', null, null),
      branch('unrecoverable_stall', 'none verified', 4, 4),
    ]}, [replayedTurn(1, {signature: 'aaaaaaaa'}), replayedTurn(2, {decision: null, fidelity: 'insufficient'})])
  }

  it('lists a flip that holds under some branches only as such, with each condition and its outcome', () => {
    const base = builtinProfile('as-run:51222879')!
    const w = computeWhatIf({baseline: base, fixed, replay: seed004})
    const flip = w.flips.find((f) => f.flags.length === 1 && f.flags[0] === 'priorTurnPromises')!
    expect(flip.outcome).toBe('undetermined')
    expect(flip.onlyIf).toEqual([
      {assume: 'they were complete', brief: 'they were complete', outcome: 'approved'},
      {assume: 'only some verified', brief: 'only some verified', outcome: 'undetermined after turn 4'},
    ])
  })

  it('reports no flip when every branch ends as the baseline does', () => {
    const same = (p: Profile): TaskReplay => (p.flags.priorTurnPromises
      ? taskReplay(p.name, {kind: 'branches', branches: [branch('unrecoverable_stall', 'x', 4, 4), branch('unrecoverable_stall', 'y', 5, 5)]}, [])
      : stall(p))
    expect(computeWhatIf({baseline: builtinProfile('as-run:51222879')!, fixed, replay: same}).flips).toEqual([])
  })
})

describe('helpers', () => {
  it('enumerates combinations in order', () => {
    expect([...combinations(['a', 'b', 'c'], 2)]).toEqual([['a', 'b'], ['a', 'c'], ['b', 'c']])
  })

  it('ignores signature-only differences when placing the outcome change', () => {
    const a = taskReplay('a', {kind: 'undetermined', afterTurn: 2}, [replayedTurn(1, {signature: 'x'}), replayedTurn(2, {signature: 'x'})])
    const b = taskReplay('b', {kind: 'replayed', outcome: 'unrecoverable_stall', turn: 2}, [replayedTurn(1, {signature: 'y'}), replayedTurn(2, {signature: 'y'})], 2)
    expect(outcomeChangeTurn(a, b)).toBe(2)
  })
})
