import {COACH_ADAPTERS} from '../../../src/conformance/adapters/coach.js'
import {describeAreaVectors} from './area-vectors.js'

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

describeAreaVectors('oracle vectors of the coach functions (docs/guardkit-logic.md §6, §12)', COACH_ADAPTERS, COACH_FNS)
