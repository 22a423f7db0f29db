import {pyIterate} from '../../python/builtins.js'
import {criterionResult} from './criterion-result.js'
import type {RequirementsValidation} from './types.js'

export const SYNTHETIC_UNMET_EVIDENCE = 'Synthetic report — no file-existence promises available'

/**
 * `CoachValidator._build_all_unmet(ac)` (docs/guardkit-logic.md §7.7): every criterion rejected. Unlike the matchers,
 * `all_criteria_met` is false even for an empty list, so a criteria-less synthetic turn still fails.
 */
export function buildAllUnmet(ac: unknown): RequirementsValidation {
  const items = pyIterate(ac)
  return {
    criteria_total: items.length,
    criteria_met: 0,
    all_criteria_met: false,
    missing: [...items],
    criteria_results: items.map((text, i) => criterionResult(i, text, 'rejected', SYNTHETIC_UNMET_EVIDENCE)),
  }
}
