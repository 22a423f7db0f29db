import {describe, expect, it} from 'vitest'
import {ORCHESTRATOR_ADAPTERS} from '../../../src/conformance/adapters/orchestrator.js'
import {areaVectorResults, passing, verdictOf, withoutVectors} from './area-vectors.js'

const ORCHESTRATOR_FNS = [
  'feedback_signature',
  'normalize_feedback_for_stall',
  'is_feedback_stalled_sequence',
  'loop_phase',
  'extract_feedback',
  'count_criteria_passed',
  'display_criteria_progress',
  'build_error_message',
  'build_summary_details',
  'completion_promise_from_dict',
  'orchestrate_display_crash',
  'feature_task_timeout',
]

describe('oracle vectors of the orchestrator functions (docs/guardkit-logic.md §8, §12)', () => {
  const results = areaVectorResults(ORCHESTRATOR_FNS)

  it('has an adapter for every orchestrator function and vectors for each', () => {
    expect(Object.keys(ORCHESTRATOR_ADAPTERS).sort()).toEqual([...ORCHESTRATOR_FNS].sort())
    expect(withoutVectors(ORCHESTRATOR_FNS, results)).toEqual([])
  })

  it.each(results)('$name', (r) => {
    expect(verdictOf(r)).toEqual(passing(r))
  })
})
