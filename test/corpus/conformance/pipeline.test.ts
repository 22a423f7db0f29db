import {PIPELINE_ADAPTERS} from '../../../src/conformance/adapters/pipeline.js'
import {describeAreaVectors} from './area-vectors.js'

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

describeAreaVectors('oracle vectors of the Player-side functions (docs/guardkit-logic.md §4, §5, §12)', PIPELINE_ADAPTERS, PIPELINE_FNS)
