import type {LogicFlags} from '../../changes.js'
import {LOGGERS, type LogSink} from '../../log-sink.js'
import {criterionResult, validationFrom} from './criterion-result.js'
import {matchByTextTraced, type TextMatch} from './match-by-text.js'
import type {CriterionResult, RequirementsValidation} from './types.js'

export interface HybridMerge {
  readonly validation: RequirementsValidation
  readonly text: TextMatch
  /** Indexes of the criteria the text match upgraded. */
  readonly upgraded: readonly number[]
}

/**
 * `CoachValidator._hybrid_fallback(promise_validation, ac, requirements_addressed)` (docs/guardkit-logic.md §7.6,
 * fixed only): a criterion with **no** promise that the text match verifies is upgraded with
 * evidence `[Text fallback] …`; an explicit promise rejection (e.g. `incomplete`) is never overridden.
 */
export function hybridFallback(
  promiseValidation: RequirementsValidation,
  ac: unknown,
  requirementsAddressed: unknown,
  flags: LogicFlags,
  log: LogSink,
  source: string | null = 'requirements_addressed',
): HybridMerge {
  const text = matchByTextTraced(ac, requirementsAddressed, flags, source)
  const upgraded: number[] = []
  const results: CriterionResult[] = promiseValidation.criteria_results.map((pr, i) => {
    const tr = text.validation.criteria_results[i]
    if (pr.result === 'verified' || tr === undefined) return pr
    if (typeof pr.evidence === 'string' && pr.evidence.includes('No completion promise') && tr.result === 'verified') {
      upgraded.push(i)
      return criterionResult(i, pr.criterion_text, 'verified', `[Text fallback] ${tr.evidence as string}`)
    }
    return pr
  })
  if (upgraded.length > 0) {
    log.emit('INFO', LOGGERS.coach, `Hybrid fallback upgraded ${upgraded.length} criteria via text matching against requirements_addressed`)
  }
  return {validation: validationFrom(results), text, upgraded}
}
