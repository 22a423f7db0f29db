import {describe, expect, it} from 'vitest'
import {PIPELINE_ADAPTERS} from '../../../src/conformance/adapters/pipeline.js'
import {areaVectorResults, passing, verdictOf, withoutVectors} from './area-vectors.js'

const PIPELINE_FNS = [
  'parser',
  'is_valid_file_path',
  'write_task_work_results',
  'write_direct_mode_results',
  'write_player_report_for_direct_mode',
  'create_player_report_from_task_work',
  'create_synthetic_direct_mode_report',
  'sr_generate_file_existence_promises',
  'invoker_generate_file_existence_promises',
  'autobuild_generate_file_existence_promises',
  'generate_git_analysis_promises',
  'extract_code_patterns',
  'extract_criterion_keywords',
  'build_synthetic_report',
  'direct_mode_missing_report_flow',
]

describe('oracle vectors of the Player-side functions (docs/guardkit-logic.md §4, §5, §12)', () => {
  const results = areaVectorResults(PIPELINE_FNS)

  it('has an adapter for every pipeline function and vectors for each', () => {
    expect(Object.keys(PIPELINE_ADAPTERS).sort()).toEqual([...PIPELINE_FNS].sort())
    expect(withoutVectors(PIPELINE_FNS, results)).toEqual([])
  })

  it.each(results)('$name', (r) => {
    expect(verdictOf(r)).toEqual(passing(r))
  })
})
