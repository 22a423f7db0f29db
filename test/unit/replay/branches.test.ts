import {describe, expect, it} from 'vitest'
import {describeBranches} from '../../../src/explain/branch-phrases.js'
import {replayWithBranches, type FoldedReplay} from '../../../src/replay/branches.js'
import {formatReplayOutcome, type ReplayOutcome} from '../../../src/replay/types.js'
import {feedbackRepeatsInput, promiseCoverageInput, promiseWording, type Assumptions, type UnknownInput} from '../../../src/replay/unknown-inputs.js'
import {replayedTurn, taskReplay} from '../explain/helpers.js'

/**
 * "Undetermined is an answer" (docs/counterfactuals.md): the branch machinery over a fold whose outcome is
 * a known function of the values it is given, so that each rule can be checked on its own.
 */
const promises = (turn: number): UnknownInput => promiseCoverageInput('priorPromises', 'what the 6 promises of turn 1 said', promiseWording('the 6 promises recovered on turn 1', 6), 6, turn)
const repeats = (turn: number): UnknownInput => feedbackRepeatsInput('fixed', turn)

/** Seed 004's shape: approved at 2 when all verify, a stall at 4 when none, still running after 4 when some. */
function seed004(assume: Assumptions, calls: Assumptions[] = []): FoldedReplay {
  calls.push(assume)
  const v = assume.priorPromises ?? 'none'
  const t1 = replayedTurn(1, {signature: 'f696a94c'})
  if (v === 'all') return {replay: taskReplay('fixed', {kind: 'replayed', outcome: 'approved', turn: 2}, [t1, replayedTurn(2, {decision: 'approve', criteriaMet: 6, criteriaTotal: 6})]), unknowns: [promises(2)]}
  const later = [2, 3, 4].map((n) => replayedTurn(n, {criteriaMet: v === 'some' ? 5 : 0, criteriaTotal: 6, signature: v === 'some' ? null : '4b645870'}))
  const outcome: ReplayOutcome = v === 'some' ? {kind: 'undetermined', afterTurn: 4} : {kind: 'replayed', outcome: 'unrecoverable_stall', turn: 4}
  return {replay: taskReplay('fixed', outcome, [t1, ...later], v === 'some' ? null : 4), unknowns: [promises(2), promises(3), promises(4)]}
}

describe('replayWithBranches', () => {
  it('returns the single replay as it is when no turn consulted a missing input', () => {
    const only = taskReplay('legacy', {kind: 'replayed', outcome: 'unrecoverable_stall', turn: 3}, [replayedTurn(1)], 3)
    expect(replayWithBranches(() => ({replay: only, unknowns: []}))).toBe(only)
  })

  it('reports one branch per ending, the one under the first values last, with the values and conditions that give each', () => {
    const calls: Assumptions[] = []
    const r = replayWithBranches((a) => seed004(a, calls))
    expect(formatReplayOutcome(r.outcome)).toBe('undetermined')
    expect(calls).toEqual([{}, {priorPromises: 'some'}, {priorPromises: 'all'}])
    const branches = r.outcome.kind === 'branches' ? r.outcome.branches : []
    expect(branches.map((b) => [b.outcome, b.stallTurn, b.endTurn, b.values])).toEqual([
      ['approved', null, 2, {priorPromises: ['all']}],
      ['undetermined after turn 4', null, null, {priorPromises: ['some']}],
      ['unrecoverable_stall', 4, 4, {priorPromises: ['none']}],
    ])
    expect(describeBranches(branches)).toBe(
      'approved at turn 2 if the 6 promises recovered on turn 1 were complete for all 6 criteria; ' +
        'undetermined after turn 4 if they verified only some of them; otherwise a stall at turn 4',
    )
    // the detector fires in one branch only: no stall turn for the replay as a whole
    expect(r.stallTurn).toBeNull()
    expect(r.missingInputs).toContain('what the 6 promises of turn 1 said')
    expect(r.enumerated).toEqual([expect.objectContaining({id: 'priorPromises', turns: [2, 3, 4], changesOutcome: true})])
  })

  it('keeps the turns every branch plays alike and marks the others insufficient, values that disagree null', () => {
    const r = replayWithBranches((a) => seed004(a))
    const t = (n: number) => r.turns.find((x) => x.turn === n)!
    expect([t(1).fidelity, t(1).signature]).toEqual(['exact', 'f696a94c'])
    expect([t(2).fidelity, t(2).decision, t(2).criteriaMet, t(2).criteriaTotal, t(2).signature]).toEqual(['insufficient', null, null, 6, null])
    expect(t(2).missingInputs).toContain('what the 6 promises of turn 1 said')
    expect(t(2).detail.feedback.signatureBasis).toBe('branches')
    // turn 3 exists only where the loop went on
    expect(t(3).assumptions.at(-1)).toMatch(/reached only in some branches/)
  })

  it('a missing input whose every value ends the loop alike is no branch: the replay is definite, the turns it changes approximate', () => {
    const fold = (a: Assumptions): FoldedReplay => {
      const met = a.priorPromises === 'all' ? 6 : a.priorPromises === 'some' ? 3 : 0
      const turns = [1, 2, 3].map((n) => replayedTurn(n, {criteriaMet: n === 1 ? 0 : met, criteriaTotal: 6}))
      return {replay: taskReplay('fixed', {kind: 'replayed', outcome: 'cancelled', turn: 3}, turns), unknowns: [promises(2)]}
    }
    const r = replayWithBranches(fold)
    expect(r.outcome).toEqual({kind: 'replayed', outcome: 'cancelled', turn: 3})
    expect(r.enumerated).toEqual([expect.objectContaining({id: 'priorPromises', changesOutcome: false})])
    expect(r.turns.map((t) => t.fidelity)).toEqual(['exact', 'approximate', 'approximate'])
    expect(r.turns[1]!.missingInputs).toEqual([promises(2).input])
  })

  it('whether a profile\'s own feedback repeats cannot matter when the detector never fired: no other fold is run', () => {
    const calls: Assumptions[] = []
    const fold = (a: Assumptions): FoldedReplay => {
      calls.push(a)
      return {replay: taskReplay('legacy', {kind: 'replayed', outcome: 'cancelled', turn: 18}, [replayedTurn(1)]), unknowns: [repeats(1), repeats(2)]}
    }
    const r = replayWithBranches(fold)
    expect(calls).toEqual([{}])
    expect(r.outcome).toEqual({kind: 'replayed', outcome: 'cancelled', turn: 18})
    expect(r.enumerated).toEqual([expect.objectContaining({id: 'feedbackRepeats', turns: [1, 2], changesOutcome: false})])
  })

  it('names only the inputs that change the ending in the branches, and replays every combination of those it found', () => {
    const calls: Assumptions[] = []
    // the run's feedback stands in for fixed's own and fires the detector in one branch: both inputs are replayed
    const fold = (a: Assumptions): FoldedReplay => {
      const base = seed004(a, calls)
      return {...base, unknowns: [...base.unknowns, repeats(1)]}
    }
    const r = replayWithBranches(fold)
    expect(calls).toHaveLength(6)
    const branches = r.outcome.kind === 'branches' ? r.outcome.branches : []
    expect(branches.map((b) => Object.keys(b.values))).toEqual([['priorPromises'], ['priorPromises'], ['priorPromises']])
    expect(r.enumerated?.map((e) => [e.id, e.changesOutcome])).toEqual([['priorPromises', true], ['feedbackRepeats', false]])
  })
})
