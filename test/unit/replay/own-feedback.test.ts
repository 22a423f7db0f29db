import {describe, expect, it} from 'vitest'
import {builtinProfile, adjustProfile} from '../../../src/logic/profiles.js'
import {collectTaskInputs, formatReplayOutcome, inferEra, replayTask, type TaskReplay} from '../../../src/replay/index.js'
import {FIXTURES, findTask, load, replay} from './helpers.js'

/**
 * A profile's signature comes from that profile's feedback (docs/counterfactuals.md): when the records cannot
 * rebuild the text a profile would have sent, its signature is not computed from another profile's text, and
 * whether its detector fires is not decided by the recorded text either.
 */
const sig = (r: TaskReplay, n: number) => r.turns.find((t) => t.turn === n)?.signature ?? null

describe('signatures per profile', () => {
  it('legacy on an 8a697b80 run: the test-failure texts are the run\'s (other test detection, D21), so unsigned; the coverage gate\'s text is legacy\'s own, signed', async () => {
    const run = await load(`${FIXTURES}db-003-timeout`)
    const r = replay(run, findTask(run, 'TASK-DB-003'), 'legacy')
    expect([sig(r, 1), sig(r, 2), sig(r, 3)]).toEqual([null, 'f696a94c', null])
    const t3 = r.turns.find((t) => t.turn === 3)!
    expect(t3.detail.feedback).toMatchObject({signatureBasis: 'withheld', rawSignature: null, normalisedSignature: null})
    expect(t3.missingInputs.some((m) => m.startsWith('the feedback legacy would have sent on turn 3'))).toBe(true)
  })

  it('the run\'s own code with normalisation alone words the feedback as the run did: signed, and the stall at turn 5 is definite', async () => {
    const run = await load(`${FIXTURES}db-003-timeout`)
    const asRun = builtinProfile(inferEra(run).profile!)!
    const normalised = adjustProfile(asRun, ['stallNormalize'], [])
    const r = replayTask(collectTaskInputs(run, findTask(run, 'TASK-DB-003')), normalised, asRun)
    expect(r.outcome).toMatchObject({kind: 'replayed', outcome: 'unrecoverable_stall', turn: 5})
    expect([sig(r, 3), sig(r, 4), sig(r, 5)]).toEqual(['82511af6', '82511af6', '82511af6'])
  })

  it('legacy on a direct-mode run of the synthetic-report era (log only): its own feedback is the failed turn\'s "Player report not found", not the recorded 0/4 text; the pollution rule ends it', async () => {
    const run = await load(`${FIXTURES}rk01-003-direct-mode-log-only`)
    const r = replay(run, findTask(run, 'TASK-RK01-003'), 'legacy')
    expect(formatReplayOutcome(r.outcome)).toBe('unrecoverable_stall')
    expect(r.stallTurn).toBeNull()
    for (const t of r.turns) {
      expect(t.feedback).toMatch(new RegExp(`^- Player report not found: .*/player_turn_${t.turn}\\.json$`))
      expect(t.signature).toBeNull()
      expect(t.detail.loop.checkpoint?.testsPassed).toBe(false)
    }
  })
})
