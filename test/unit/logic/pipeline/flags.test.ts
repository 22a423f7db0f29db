import {describe, expect, it} from 'vitest'
import {COMMITS} from '../../../../src/logic/change-registry/commits.js'
import {PIPELINE_CHANGES} from '../../../../src/logic/change-registry/pipeline.js'
import {asRun, FIXED, LEGACY} from './helpers.js'

const byId = Object.fromEntries(PIPELINE_CHANGES.map((c) => [c.id, c]))

describe('pipeline logic changes (docs/guardkit-logic.md §0.2, §1, §11)', () => {
  it('every flag names a modelled commit, its diff rows and the spec section', () => {
    const shas = COMMITS.map((c) => c.sha)
    for (const change of PIPELINE_CHANGES) {
      expect(shas, change.id).toContain(change.commit)
      expect(change.diffs.length, change.id).toBeGreaterThan(0)
      expect(change.spec, change.id).toMatch(/§[45]|§0\.2|§2/)
    }
  })

  it('none is on in legacy (all landed after f86b1bf9), all are on in fixed', () => {
    for (const change of PIPELINE_CHANGES) {
      expect(LEGACY[change.id], change.id).toBe(false)
      expect(FIXED[change.id], change.id).toBe(true)
    }
  })

  it('keeps seed 001 R1 (_synthetic) and R2 (promises) apart although one commit landed both', () => {
    expect([byId.directSyntheticFlag!.commit, byId.directSyntheticPromises!.commit]).toEqual(['71a5fb57', '71a5fb57'])
    expect(byId.directSyntheticFlag!.cause).toContain('R1')
    expect(byId.directSyntheticPromises!.cause).toContain('R2')
  })

  it("separates Fix 5's seed statuses (723e5f4e) from the shared statuses (71a5fb57)", () => {
    expect(byId.fileExistencePromises!.commit).toBe('723e5f4e')
    expect(byId.sharedFileExistence!.commit).toBe('71a5fb57')
    expect(byId.sharedFileExistence!.diffs).toContain('D12')
  })

  it('gives each TASK-FIX-PV01 difference its own flag (D3, D4, D5, D7)', () => {
    const pv01 = PIPELINE_CHANGES.filter((c) => c.commit === 'b2fee34d').map((c) => [c.id, c.diffs.join()])
    expect(pv01).toEqual([['filesPatternStrict', 'D3'], ['validFilePath', 'D4'], ['writerPathFilter', 'D5'], ['gitFilterStrict', 'D7']])
  })

  it('as run for seed 001 (c5a83a15): the first synthetic direct report, none of its seed fixes', () => {
    const flags = asRun('c5a83a15')
    expect([flags.directSyntheticReport, flags.directSyntheticFlag, flags.directSyntheticPromises, flags.parserOutputUnion]).toEqual([true, false, false, true])
  })
})
