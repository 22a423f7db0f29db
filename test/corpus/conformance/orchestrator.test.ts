import {ORCHESTRATOR_ADAPTERS} from '../../../src/conformance/adapters/orchestrator.js'
import {describeAreaVectors} from './area-vectors.js'

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

describeAreaVectors('oracle vectors of the orchestrator functions (docs/guardkit-logic.md §8, §12)', ORCHESTRATOR_ADAPTERS, ORCHESTRATOR_FNS)
