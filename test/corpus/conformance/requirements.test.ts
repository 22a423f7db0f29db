import {describe, expect, it} from 'vitest'
import {REQUIREMENTS_ADAPTERS} from '../../../src/conformance/adapters/requirements.js'
import {areaVectorResults, passing, verdictOf, withoutVectors} from './area-vectors.js'

const REQUIREMENTS_FNS = [
  'strip_criterion_prefix',
  'extract_keywords',
  'match_by_text',
  'match_by_promises',
  'hybrid_fallback',
  'build_all_unmet',
  'load_completion_promises',
  'validate_requirements',
]

describe('oracle vectors of the requirements functions (docs/guardkit-logic.md §7, §12)', () => {
  const results = areaVectorResults(REQUIREMENTS_FNS)

  it('has an adapter for every requirements function and vectors for each', () => {
    expect(Object.keys(REQUIREMENTS_ADAPTERS).sort()).toEqual([...REQUIREMENTS_FNS].sort())
    expect(withoutVectors(REQUIREMENTS_FNS, results)).toEqual([])
  })

  it.each(results)('$name', (r) => {
    expect(verdictOf(r)).toEqual(passing(r))
  })
})
