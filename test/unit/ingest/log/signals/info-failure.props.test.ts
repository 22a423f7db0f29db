import {describe, expect} from 'vitest'
import {fc, test} from '../../../../helpers/prop.js'
import {INFO_FAILURE_PATHS, INFO_FAILURE_WORDS} from '../../../../../src/ingest/log/signals/capture.js'

/**
 * The INFO failure test was one alternation; it is two regexes now, the words and the path records
 * at the message's start, for speed. This is the single alternation as it stood, written out here: the
 * two must say yes to exactly the messages it said yes to.
 */
const ONE_ALTERNATION =
  /(?<!\w)fail(?:ed|ure|s)?\b(?!=)|\berror\b|exception|timed out|exceeded|exhausted|rejected|not found|no task-specific tests|cancell?(?:ed|ation)|aborted|denied|\binvalid\b|unable to|cannot|refused|unavailable|crash|interrupt|did not (?:write|produce)|no work detected|ALL_PASSED=False|\w=(?:False|None) \(required=True\)|HTTP\/\d(?:\.\d)? [45]\d\d|^Created Player report from|^Recovered [1-9]\d* completion_promises|^Wrote direct mode player report|^(?:\[[^\]]+\] )?Max turns: \d+\s*$|^Running independent tests|^(?:\[[^\]]+\] )?SDK completed|^Using quality gate profile|^Criteria Progress \(Turn \d+\): 0\//i

/** Pieces of the vocabulary, near misses and the characters around them, in any case. */
const PIECES = [
  'fail', 'failed', 'failure', 'fails', 'Failing', 'fail=', '_fail', 'xfail', 'error', 'errors', 'Error:', 'exception', 'timed out', 'exceeded',
  'exhausted', 'rejected', 'not found', 'no task-specific tests', 'cancelled', 'canceled', 'cancellation', 'aborted', 'denied', 'invalid',
  'invalidated', 'unable to', 'cannot', 'refused', 'unavailable', 'crash', 'interrupt', 'did not write', 'did not produce', 'no work detected',
  'ALL_PASSED=False', 'tests=False (required=True)', 'x=None (required=True)', '=None (required=True)', 'HTTP/1.1 502', 'HTTP/2 404', 'HTTP/1.1 200',
  'Created Player report from', 'Recovered 3 completion_promises', 'Recovered 0 completion_promises', 'Wrote direct mode player report',
  'Max turns: 50', 'Max turns: 50 ', '[TASK-A-1] ', '[x]', 'Running independent tests', 'SDK completed', 'Using quality gate profile',
  'Criteria Progress (Turn 2): 0/', 'Criteria Progress (Turn 2): 1/', ' ', '\n', '=', '_', '-', 'a', '7', 'é', 'ſ', 'K', '\u212A',
]
const cased = fc.tuple(fc.constantFrom(...PIECES), fc.constantFrom('as is', 'upper', 'lower')).map(([p, c]) => (c === 'upper' ? p.toUpperCase() : c === 'lower' ? p.toLowerCase() : p))
const message = fc.oneof(fc.array(cased, {maxLength: 6}).map((xs) => xs.join('')), fc.string({maxLength: 40}))

describe('the INFO failure vocabulary, split in two for speed', () => {
  test.prop([message], {numRuns: 3000})('says yes to exactly the messages the single alternation said yes to', (m) => {
    expect(INFO_FAILURE_PATHS.test(m) || INFO_FAILURE_WORDS.test(m)).toBe(ONE_ALTERNATION.test(m))
  })
})
