import type {LogicFlags} from '../../changes.js'
import {PyException, pyDictGet, pyIterate, pyTypeName} from '../../python/builtins.js'
import {pyStrAt} from '../../python/repr.js'
import {pyTruthy} from '../../python/strings.js'
import {criterionId, criterionResult, validationFrom} from './criterion-result.js'
import type {CriterionResult, Decider, PromiseTrace, RequirementsValidation} from './types.js'

export interface PromiseMatch {
  readonly validation: RequirementsValidation
  readonly traces: readonly PromiseTrace[]
  readonly deciders: readonly Decider[]
}

/**
 * `CoachValidator._match_by_promises(ac, promises)` (docs/guardkit-logic.md §7.4): criteria are looked up by id
 * `AC-%03d` (exact, case-sensitive; later duplicates win); the text is never compared. `complete`
 * and (since ACR-004) `partial` verify; anything else rejects. Raises (as PyException) where
 * GuardKit does: promises that are not dicts, an unhashable id.
 */
export function matchByPromises(ac: unknown, promises: unknown, flags: LogicFlags): RequirementsValidation {
  return matchByPromisesTraced(ac, promises, flags).validation
}

export function matchByPromisesTraced(ac: unknown, promises: unknown, flags: LogicFlags): PromiseMatch {
  const pmap = new Map<unknown, unknown>()
  const ids: unknown[] = []
  for (const p of pyIterate(promises)) {
    const id = pyDictGet(p, 'criterion_id', null)
    if (!pyTruthy(id)) continue
    if (Array.isArray(id) || (id !== null && typeof id === 'object')) {
      throw new PyException('TypeError', `unhashable type: '${pyTypeName(id)}'`)
    }
    ids.push(id)
    pmap.set(id, p)
  }
  const results: CriterionResult[] = []
  const traces: PromiseTrace[] = []
  const deciders: Decider[] = []
  pyIterate(ac).forEach((text, i) => {
    const cid = criterionId(i)
    const p = pmap.get(cid) as Record<string, unknown> | undefined
    traces.push({promise: p ?? null, ids})
    if (p === undefined) {
      results.push(criterionResult(i, text, 'rejected', `No completion promise for ${cid}`))
      deciders.push('promise-missing')
      return
    }
    const status = pyDictGet(p, 'status', null)
    if (status === 'complete') {
      results.push(criterionResult(i, text, 'verified', pyDictGet(p, 'evidence', `Player completed ${cid}`)))
      deciders.push('promise-complete')
      // acrPartialVerified (pre-acr vs legacy, TASK-ACR-004): before it, partial fell through to rejected.
    } else if (status === 'partial' && flags.acrPartialVerified) {
      // An f-string: a present None prints as `None` (`[Partial confidence - None] None`), a JSON 1.0 as `1.0`.
      const kind = Object.hasOwn(p, 'evidence_type') ? pyStrAt(p, 'evidence_type') : 'unknown'
      const evidence = Object.hasOwn(p, 'evidence') ? pyStrAt(p, 'evidence') : `Player partially completed ${cid}`
      results.push(criterionResult(i, text, 'verified', `[Partial confidence - ${kind}] ${evidence}`))
      deciders.push('promise-partial')
    } else {
      results.push(criterionResult(i, text, 'rejected', `Promise status: ${Object.hasOwn(p, 'status') ? pyStrAt(p, 'status') : 'unknown'}`))
      deciders.push('promise-rejected')
    }
  })
  return {validation: validationFrom(results), traces, deciders}
}
