import {describe, expect, it} from 'vitest'
import {COACH_ADAPTERS} from '../../../src/conformance/adapters/coach.js'
import {areaVectorResults, passing, verdictOf, withoutVectors} from './area-vectors.js'

const COACH_FNS = [
  'resolve_profile',
  'verify_quality_gates',
  'coach_validate',
  'summarize_test_output',
  'classify_test_failure',
  'normalize_to_relative',
  'detect_tests_from_results',
  'detect_test_command',
  'sdk_is_error_none_heuristic',
  'run_independent_tests_dispatch',
  'is_custom_api_base',
  'extract_content_text',
]

describe('oracle vectors of the coach functions (docs/guardkit-logic.md §6, §12)', () => {
  const results = areaVectorResults(COACH_FNS)

  it('has an adapter for every coach function and vectors for each', () => {
    expect(Object.keys(COACH_ADAPTERS).sort()).toEqual([...COACH_FNS].sort())
    expect(withoutVectors(COACH_FNS, results)).toEqual([])
  })

  it.each(results)('$name', (r) => {
    expect(verdictOf(r)).toEqual(passing(r))
  })
})
