import {MODE_ADAPTERS} from '../../../src/conformance/adapters/mode.js'
import {describeAreaVectors} from './area-vectors.js'

const MODE_FNS = [
  'auto_detect_direct_mode',
  'parse_task_string',
  'extract_acceptance_criteria',
  'generate_feature_yaml_tasks_json_mode',
  'generate_feature_yaml_task_flag_mode',
]

describeAreaVectors('oracle vectors of the mode functions (docs/guardkit-logic.md §9, §12)', MODE_ADAPTERS, MODE_FNS)
