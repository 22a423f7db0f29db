import {pyLen} from '../python/strings.js'
import {SKIPPED_COMMAND, type IndependentTestResult} from './independent-test-result.js'
import type {QualityGateProfile} from './task-profile.js'

const CONDITIONAL_APPROVAL =
  'Independent tests failed due to high-confidence infrastructure dependency (Docker unavailable). ' +
  'Task declares required infrastructure. Conditionally approved \u2014 independent tests skipped.'

/**
 * The approval rationale (docs/guardkit-logic.md §6.8): the gates, one sentence about the independent tests, the
 * criteria, and the architecture context's length in code points when one was given.
 */
export function approvalRationale(profile: QualityGateProfile, tests: IndependentTestResult, conditional: boolean, context: string | null): string {
  const parts = ['All quality gates passed.']
  if (conditional) parts.push(CONDITIONAL_APPROVAL)
  else if (!profile.tests_required) parts.push('Tests not required for this task type.')
  else if (tests.test_command === SKIPPED_COMMAND) parts.push('Independent verification skipped: no task-specific tests found.')
  else parts.push('Independent verification confirmed.')
  parts.push('All acceptance criteria met.')
  if (context) parts.push(`Architecture context: ${pyLen(context)} chars provided.`)
  return parts.join(' ')
}
