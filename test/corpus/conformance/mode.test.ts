import {describe, expect, it} from 'vitest'
import {MODE_ADAPTERS} from '../../../src/conformance/adapters/mode.js'
import {areaVectorResults, passing, verdictOf, withoutVectors} from './area-vectors.js'

const MODE_FNS = [
  'auto_detect_direct_mode',
  'parse_task_string',
  'extract_acceptance_criteria',
  'generate_feature_yaml_tasks_json_mode',
  'generate_feature_yaml_task_flag_mode',
]

describe('oracle vectors of the mode functions (docs/guardkit-logic.md §9, §12)', () => {
  const results = areaVectorResults(MODE_FNS)

  it('has an adapter for every mode function and vectors for each', () => {
    expect(Object.keys(MODE_ADAPTERS).sort()).toEqual([...MODE_FNS].sort())
    expect(withoutVectors(MODE_FNS, results)).toEqual([])
  })

  it.each(results)('$name', (r) => {
    expect(verdictOf(r)).toEqual(passing(r))
  })
})
