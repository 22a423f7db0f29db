import {REQUIREMENTS_ADAPTERS} from '../../../src/conformance/adapters/requirements.js'
import {describeAreaVectors} from './area-vectors.js'

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

describeAreaVectors('oracle vectors of the requirements functions (docs/guardkit-logic.md §7, §12)', REQUIREMENTS_ADAPTERS, REQUIREMENTS_FNS)
