import {pyIsDigit, requirePyStr} from '../../python/builtins.js'
import {pySlice, pyStrip} from '../../python/strings.js'

/**
 * `CoachValidator._strip_criterion_prefix(text)` (docs/guardkit-logic.md §7.5, ACR-002): removes one checkbox, `* `
 * or `N. ` / `N) ` prefix after stripping. `- [X] `, `- ` and `•` are not prefixes, and the strip
 * comes first, so `"- [ ] "` stays `"- [ ]"`. Digits are `str.isdigit()` (`１`, `²`, `①`).
 * Raises AttributeError (as PyException) when `text` is not a str.
 */
export function stripCriterionPrefix(text: unknown): string {
  const c = pyStrip(requirePyStr(text, 'strip'))
  if (c.startsWith('- [ ] ') || c.startsWith('- [x] ')) return pyStrip(pySlice(c, 6))
  if (c.startsWith('* ')) return pyStrip(pySlice(c, 2))
  const cps = Array.from(c)
  let i = 0
  while (i < cps.length && pyIsDigit(cps[i]!)) i++
  // A digit run, then `. ` or `) `, then at least one more character.
  if (i > 0 && i + 2 < cps.length && (cps[i] === '.' || cps[i] === ')') && cps[i + 1] === ' ') {
    return pyStrip(cps.slice(i + 2).join(''))
  }
  return c
}
