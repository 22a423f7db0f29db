import {fc, test} from '../../../../helpers/prop.js'
import {describe, expect} from 'vitest'
import {matchByPromises, matchByText, validateRequirements} from '../../../../../src/logic/coach/requirements/index.js'
import {coach, flagsOf} from './helpers.js'

const PROFILES = ['pre-acr', 'legacy', 'fixed'] as const
const WORDS = ['Config', 'file', 'exists', 'schema', 'validated', '- [ ] ', '1. ', '* ', '', ' ', '\u00a0', 'docs', 'updated', 'the', 'x']
const textArb = fc.array(fc.constantFrom(...WORDS), {maxLength: 6}).map((ws) => ws.join(' '))
const listArb = fc.array(textArb, {maxLength: 5})
const promiseArb = fc.record({
  criterion_id: fc.constantFrom('AC-001', 'AC-002', 'AC-003', 'ac-001', 'AC-1'),
  status: fc.constantFrom('complete', 'partial', 'incomplete', 'Complete'),
})

// Properties stated by docs/guardkit-logic.md §7.4-7.5: met = total - len(missing), all met iff nothing missing, and
// (both ACR versions) an empty requirement string verifies every criterion by substring.
describe('requirements matching properties (docs/guardkit-logic.md §7.4, §7.5)', () => {
  test.prop([listArb, listArb, fc.constantFrom(...PROFILES)], {numRuns: 300})('text results are consistent', (ac, rm, profile) => {
    const v = matchByText(ac, rm, flagsOf(profile))
    expect(v.criteria_total).toBe(ac.length)
    expect(v.criteria_met).toBe(ac.length - v.missing.length)
    expect(v.all_criteria_met).toBe(v.missing.length === 0)
    expect(v.criteria_results.map((r) => r.criterion_id)).toEqual(ac.map((_, i) => `AC-${String(i + 1).padStart(3, '0')}`))
  })

  test.prop([listArb, listArb], {numRuns: 200})('an empty requirement verifies everything once ACR landed', (ac, rm) => {
    expect(matchByText(ac, [...rm, ''], flagsOf('legacy')).criteria_met).toBe(ac.length)
  })

  test.prop([listArb, fc.array(promiseArb, {maxLength: 4})], {numRuns: 200})('promises never verify more under pre-acr than under legacy', (ac, promises) => {
    expect(matchByPromises(ac, promises, flagsOf('pre-acr')).criteria_met).toBeLessThanOrEqual(matchByPromises(ac, promises, flagsOf('legacy')).criteria_met)
  })

  test.prop([listArb, listArb, fc.array(promiseArb, {maxLength: 4})], {numRuns: 200})('the dump appears exactly when 0 of N > 0 were verified', (ac, rm, promises) => {
    const self = coach('fixed')
    const r = validateRequirements({acceptance_criteria: ac}, {requirements_met: rm, completion_promises: promises}, 1, self)
    if (!r.ok) throw new Error(r.exception)
    const dumped = self.records.some((x) => x.message.startsWith('Criteria verification 0/'))
    expect(dumped).toBe(r.validation.criteria_met === 0 && r.validation.criteria_total > 0)
    expect(r.explanation.dumped).toBe(dumped)
  })
})
