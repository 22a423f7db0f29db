import {describe, expect, it} from 'vitest'
import {flagsOfProfile, runRecordedStall} from '../../../src/explain/recorded-stall.js'
import {signatureOf} from '../../../src/logic/orchestrator/stall-signature.js'
import {feedbackTurn, taskRun} from './helpers.js'

/**
 * The detector over the recorded feedback is run once per task run and flag record, each text signed
 * once for both: asking under one profile must never hand another profile's signatures or verdict.
 * Three feedback texts that differ only in a test duration, 0 criteria passing: legacy signs the texts
 * as sent (three signatures, no stall); fixed signs them normalised (`2 failed` → `N failed`, `in 1.23s` → `in Ns`: one signature,
 * fires on the third, docs/guardkit-logic.md §8.4).
 */
const TEXTS = ['- 2 failed in 1.23s', '- 2 failed in 4.56s', '- 2 failed in 7.89s']
const task = () => taskRun({turns: TEXTS.map((t, i) => feedbackTurn(i + 1, t, 0))})

describe('runRecordedStall', () => {
  it('keeps legacy and fixed apart on one task run, whichever is asked first', () => {
    expect(flagsOfProfile('legacy').stallNormalize).toBe(false)
    expect(flagsOfProfile('fixed').stallNormalize).toBe(true)
    for (const order of [['legacy', 'fixed'], ['fixed', 'legacy']] as const) {
      const t = task()
      const got = Object.fromEntries(order.map((p) => [p, runRecordedStall(t, flagsOfProfile(p))]))
      expect(got['legacy']!.firedAt).toBeNull()
      expect(got['legacy']!.rows.map((r) => r.check.signatures.used)).toEqual(TEXTS.map((x) => signatureOf(x)))
      expect(got['fixed']!.firedAt).toBe(3)
      expect(got['fixed']!.rows.map((r) => r.check.signatures.used)).toEqual(TEXTS.map(() => signatureOf('- N failed in Ns')))
      // both signatures are reported under either profile
      expect(got['legacy']!.rows.map((r) => r.check.signatures.normalized)).toEqual(got['fixed']!.rows.map((r) => r.check.signatures.used))
    }
  })

  it('gives the same answer when asked again for the same task run', () => {
    const t = task()
    const first = runRecordedStall(t, flagsOfProfile('fixed'))
    expect(runRecordedStall(t, flagsOfProfile('fixed'))).toEqual(first)
    expect(runRecordedStall(task(), flagsOfProfile('fixed'))).toEqual(first)
  })
})
