import type {LogicFlags} from '../../changes.js'
import {pyIterate, requirePyStr} from '../../python/builtins.js'
import {pyFormatPercent} from '../../python/format.js'
import {pyLower, pyStrip} from '../../python/strings.js'
import {criterionResult, validationFrom} from './criterion-result.js'
import {extractKeywords, jaccard} from './extract-keywords.js'
import {stripCriterionPrefix} from './strip-criterion-prefix.js'
import type {CriterionResult, RequirementScore, RequirementsValidation, TextTrace} from './types.js'

/** Keyword-overlap threshold of `_match_by_text` (docs/guardkit-logic.md §7.5). */
export const KEYWORD_THRESHOLD = 0.7

const NOT_FOUND = 'Not found in Player requirements_met'

export interface TextMatch {
  readonly validation: RequirementsValidation
  /** One per criterion, for the explainer. */
  readonly traces: readonly TextTrace[]
}

/**
 * `CoachValidator._match_by_text(ac, requirements_met)` (docs/guardkit-logic.md §7.5).
 * Raises (as PyException) where GuardKit does: a non-iterable list, a non-str item.
 */
export function matchByText(ac: unknown, requirementsMet: unknown, flags: LogicFlags): RequirementsValidation {
  return matchByTextTraced(ac, requirementsMet, flags, 'requirements_met').validation
}

/** `_match_by_text` with the per-criterion trace; `source` names the twr key the list came from. */
export function matchByTextTraced(ac: unknown, requirementsMet: unknown, flags: LogicFlags, source: string | null): TextMatch {
  // acrFuzzyText (pre-acr vs legacy, docs/guardkit-logic.md §7.5): before ACR-002 only exact lower/strip matches counted.
  return flags.acrFuzzyText ? matchFuzzy(ac, requirementsMet, source) : matchExact(ac, requirementsMet, source)
}

function matchFuzzy(ac: unknown, rm: unknown, source: string | null): TextMatch {
  const requirements = pyIterate(rm)
  const strippedMet = requirements.map((r) => stripCriterionPrefix(r))
  const normMet = new Set(strippedMet.map((s) => pyStrip(pyLower(s))))
  const results: CriterionResult[] = []
  const traces: TextTrace[] = []
  pyIterate(ac).forEach((text, i) => {
    const sc = stripCriterionPrefix(text)
    const n = pyStrip(pyLower(sc))
    const ck = extractKeywords(sc)
    const scores = strippedMet.map((m, index): RequirementScore => {
      const ml = pyStrip(pyLower(m))
      const mk = extractKeywords(m)
      // Python's `in` on str: "" is in everything, the source of the empty-requirement false positive.
      const exact = ml === n
      const substring = ml.includes(n) || n.includes(ml)
      const score = ck.length > 0 && mk.length > 0 ? jaccard(ck, mk) : 0
      return {index, requirement: requirements[index], stripped: m, exact, substring, keywords: mk, jaccard: score,
        meetsRule: exact || substring || score >= KEYWORD_THRESHOLD}
    })
    const base = {source, requirements, rules: 'acr' as const, stripped: sc, normalized: n, keywords: ck, threshold: KEYWORD_THRESHOLD}
    if (normMet.has(n)) {
      results.push(criterionResult(i, text, 'verified', `Matched in Player requirements_met: '${text as string}'`))
      const hit = scores.find((s) => s.exact)!
      traces.push({...base, step: 'exact', matched: hit.stripped, closest: hit})
      return
    }
    const sub = scores.find((s) => s.substring)
    if (sub) {
      results.push(criterionResult(i, text, 'verified', `Substring match with '${sub.stripped}'`))
      traces.push({...base, step: 'substring', matched: sub.stripped, closest: sub})
      return
    }
    // Strictly greater wins, so the first of equal best scores is kept.
    let best: RequirementScore | null = null
    for (const s of scores) if (best === null || s.jaccard > best.jaccard) best = s
    if (ck.length > 0 && best !== null && best.jaccard > 0 && best.jaccard >= KEYWORD_THRESHOLD) {
      const evidence = `Keyword overlap match (${pyFormatPercent(best.jaccard, 0)} similarity) with '${best.stripped}'`
      results.push(criterionResult(i, text, 'verified', evidence))
      traces.push({...base, step: 'keywords', matched: best.stripped, closest: best})
      return
    }
    results.push(criterionResult(i, text, 'rejected', NOT_FOUND))
    traces.push({...base, step: null, matched: null, closest: best})
  })
  return {validation: validationFrom(results), traces}
}

function matchExact(ac: unknown, rm: unknown, source: string | null): TextMatch {
  const requirements = pyIterate(rm)
  const normMet = requirements.map((r) => pyStrip(pyLower(requirePyStr(r, 'lower'))))
  const normSet = new Set(normMet)
  const results: CriterionResult[] = []
  const traces: TextTrace[] = []
  pyIterate(ac).forEach((text, i) => {
    const n = pyStrip(pyLower(requirePyStr(text, 'lower')))
    const ck = extractKeywords(n)
    const scores = normMet.map((ml, index): RequirementScore => {
      const mk = extractKeywords(ml)
      return {index, requirement: requirements[index], stripped: ml, exact: ml === n, substring: ml.includes(n) || n.includes(ml),
        keywords: mk, jaccard: ck.length > 0 && mk.length > 0 ? jaccard(ck, mk) : 0, meetsRule: ml === n}
    })
    const base = {source, requirements, rules: 'pre-acr' as const, stripped: n, normalized: n, keywords: ck, threshold: 1}
    if (normSet.has(n)) {
      results.push(criterionResult(i, text, 'verified', `Matched in Player requirements_met: '${text as string}'`))
      const hit = scores.find((s) => s.exact)!
      traces.push({...base, step: 'exact', matched: hit.stripped, closest: hit})
      return
    }
    let best: RequirementScore | null = null
    for (const s of scores) if (best === null || s.jaccard > best.jaccard) best = s
    results.push(criterionResult(i, text, 'rejected', NOT_FOUND))
    traces.push({...base, step: null, matched: null, closest: best})
  })
  return {validation: validationFrom(results), traces}
}
