import {compareCodePoints} from '../../../shared/code-point-order.js'
import {pyLen, pyLower, pySplitWhitespace} from '../../python/strings.js'

/** `CoachValidator.STOPWORDS` (docs/guardkit-logic.md §7.5; identical in both versions). */
export const STOPWORDS: ReadonlySet<string> = new Set(
  ('the and is or a an for with to in of from by on at that this are be do have has as if can will would could should ' +
    'may must was were been but not no all some any more most only than then there their who which when where how').split(' '),
)

const ALPHA = /\p{L}/u

/**
 * `CoachValidator._extract_keywords(text)` (docs/guardkit-logic.md §7.5): the set of lower-cased words split on Python
 * whitespace, longer than 3 code points, not stopwords, holding at least one letter (`str.isalpha`).
 * Punctuation stays attached (`tests:`). Returned sorted by code point, as a set has no order.
 */
export function extractKeywords(text: string): string[] {
  const words = new Set<string>()
  for (const w of pySplitWhitespace(pyLower(text))) {
    if (pyLen(w) > 3 && !STOPWORDS.has(w) && ALPHA.test(w)) words.add(w)
  }
  return [...words].sort(compareCodePoints)
}

/** `len(a & b) / len(a | b)` of two keyword sets. */
export function jaccard(a: readonly string[], b: readonly string[]): number {
  const sa = new Set(a)
  const sb = new Set(b)
  let inter = 0
  for (const w of sa) if (sb.has(w)) inter++
  const union = sa.size + sb.size - inter
  return union === 0 ? 0 : inter / union
}
