import type {LogicFlags} from '../changes.js'
import {LOGGERS, type LogSink} from '../log-sink.js'
import {pyRepr} from '../python/repr.js'
import {pyLower, pyTruthy} from '../python/strings.js'
import type {CoachIssue} from './coach-result.js'
import {pyGet, pyStr} from './py-values.js'
import type {QualityGateProfile} from './task-profile.js'

const SEAM_KEYWORDS = ['seam', 'contract', 'boundary', 'integration']

const SEAM_RECOMMENDATION =
  'No seam tests detected for cross-boundary feature. Consider adding seam/contract/boundary tests to validate ' +
  'technology boundary interactions. This is a recommendation, not a blocking gate.'

/**
 * `_check_seam_test_recommendation` (fixed, step 5.5, never blocking): the profile recommends seam
 * tests, tests were written, and none of them looks like a seam/contract/boundary/integration test.
 * Whether the keyword test ignores case is not pinned by docs/guardkit-logic.md; it is applied to the
 * lower-cased entry.
 */
export function checkSeamTestRecommendation(twr: unknown, profile: QualityGateProfile, flags: LogicFlags, sink: LogSink): CoachIssue[] {
  // seamTestSoftGate (D34): the soft gate arrived in de1ce9b8.
  if (!flags.seamTestSoftGate || !profile.seam_tests_recommended) return []
  const testsWritten = pyGet(twr, 'tests_written', [])
  if (!Array.isArray(testsWritten) || testsWritten.length === 0) return []
  if (testsWritten.some((t) => SEAM_KEYWORDS.some((k) => pyLower(pyStr(t)).includes(k)))) return []
  sink.emit(
    'INFO',
    LOGGERS.coach,
    `Seam test recommendation: no seam/contract/boundary tests detected for cross-boundary feature. Tests written: ${pyRepr(testsWritten)}`,
  )
  return [{severity: 'consider', category: 'seam_test_recommendation', description: SEAM_RECOMMENDATION}]
}

/**
 * `_validate_consumer_context` (fixed, step 5.6, never blocking) compares the URL tokens of each
 * `consumer_context[].format_note` with values in docker-compose and `.env` files. docs/guardkit-logic.md
 * does not give its matching rules or issue texts, so a non-empty `consumer_context` is reported as an
 * unknown and contributes no issues.
 */
export function checkConsumerContext(task: unknown, flags: LogicFlags, unknowns: string[]): CoachIssue[] {
  // consumerContextSoftGate (D34): the soft gate arrived in c5a83a15.
  if (!flags.consumerContextSoftGate) return []
  if (pyTruthy(pyGet(task, 'consumer_context', null))) unknowns.push('consumer-context format check (not modelled): issues of severity consider may be missing')
  return []
}
