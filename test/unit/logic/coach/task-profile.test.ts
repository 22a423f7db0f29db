import {describe, expect, it} from 'vitest'
import {PyException} from '../../../../src/logic/python/builtins.js'
import {profileFields, resolveTaskProfile} from '../../../../src/logic/coach/task-profile.js'
import {FIXED, LEGACY} from './helpers.js'

const ALLOWED =
  'Must be one of: scaffolding, feature, infrastructure, integration, documentation, testing, refactor or valid alias: implementation, bug-fix, bug_fix, benchmark, research'

// The table of docs/guardkit-logic.md §6.2: tests, coverage (threshold), arch (threshold), plan audit, zero-test blocking, seam (fixed).
const TABLE: Array<[string, string, boolean, boolean, number, boolean, number, boolean, boolean, boolean]> = [
  ['scaffolding', 'scaffolding', false, false, 0, false, 0, true, false, false],
  ['feature', 'feature', true, true, 80, true, 60, true, true, true],
  ['implementation', 'feature', true, true, 80, true, 60, true, true, true],
  ['bug-fix', 'feature', true, true, 80, true, 60, true, true, true],
  ['bug_fix', 'feature', true, true, 80, true, 60, true, true, true],
  ['infrastructure', 'infrastructure', true, false, 0, false, 0, true, false, false],
  ['integration', 'integration', true, false, 0, false, 0, true, false, false],
  ['documentation', 'documentation', false, false, 0, false, 0, false, false, false],
  ['research', 'documentation', false, false, 0, false, 0, false, false, false],
  ['testing', 'testing', false, false, 0, false, 0, true, false, false],
  ['benchmark', 'testing', false, false, 0, false, 0, true, false, false],
  ['refactor', 'refactor', true, true, 80, true, 60, true, true, true],
]

describe('task-type profiles (docs/guardkit-logic.md §6.2)', () => {
  it.each(TABLE)('%s resolves to %s with the table thresholds', (raw, resolved, tests, coverage, covT, arch, archT, audit, blocking, seam) => {
    const r = resolveTaskProfile(raw)
    if (!r.ok) throw new Error(r.error)
    expect(r.taskType).toBe(resolved)
    expect(profileFields(r.profile, FIXED)).toEqual({
      arch_review_required: arch,
      arch_review_threshold: archT,
      coverage_required: coverage,
      coverage_threshold: covT,
      tests_required: tests,
      plan_audit_required: audit,
      zero_test_blocking: blocking,
      seam_tests_recommended: seam,
    })
  })

  it('defaults a missing task_type to feature', () => {
    expect(resolveTaskProfile(null)).toMatchObject({ok: true, taskType: 'feature'})
  })

  it('has no seam_tests_recommended field before the seam-test soft gate', () => {
    const r = resolveTaskProfile('feature')
    if (!r.ok) throw new Error(r.error)
    expect(Object.keys(profileFields(r.profile, LEGACY))).not.toContain('seam_tests_recommended')
  })

  it.each(['enhancement', 'declarative', 'bugfix', 'Feature', 'FEATURE', ''])('rejects %j: a guaranteed invalid_task_type stall', (raw) => {
    expect(resolveTaskProfile(raw)).toEqual({ok: false, error: `Invalid task_type value: ${raw}. ${ALLOWED}`})
  })

  it('prints non-string values with str(): a number or a bool is a ValueError, not a crash', () => {
    expect(resolveTaskProfile(5)).toEqual({ok: false, error: `Invalid task_type value: 5. ${ALLOWED}`})
    expect(resolveTaskProfile(true)).toEqual({ok: false, error: `Invalid task_type value: True. ${ALLOWED}`})
  })

  it('raises TypeError for a list or dict task_type (the alias lookup hashes it; docs/guardkit-logic.md §6.1)', () => {
    expect(() => resolveTaskProfile(['feature'])).toThrow(new PyException('TypeError', "unhashable type: 'list'"))
    expect(() => resolveTaskProfile({a: 1})).toThrow(new PyException('TypeError', "unhashable type: 'dict'"))
  })
})
