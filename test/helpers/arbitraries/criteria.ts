import fc from 'fast-check'
import {hardChar, pyWhitespace, PY_WHITESPACE_CHARS} from './text.js'

/**
 * Acceptance criteria and `requirements_met` as tasks and Players write them (docs/guardkit-logic.md §7.5, §9.3):
 * checkbox and list prefixes, case, surrounding (Python) whitespace.
 */

/** The prefixes `_strip_criterion_prefix` removes (one of them, once). */
export const STRIPPED_PREFIXES = ['- [ ] ', '- [x] ', '* ', '1. ', '2) ', '10. ', '\uff11. ', '\u00b2) ', '\u2460. '] as const
/** Look like prefixes, are kept: capital X, plain dash, bullet, `½` (not `isdigit`), no space after. */
export const KEPT_PREFIXES = ['- [X] ', '- ', '\u2022 ', '\u00bd. ', '1.', '- [ ]\u3000', '\u2160. '] as const

const CRITERIA = [
  'Config file exists',
  'Config file exists at `installer/global/config/graphiti.yaml`',
  'Schema validated',
  'Implement user registration endpoint with email validation',
  'Add logging module configuration',
  'The API must handle all errors',
  'Tests: pass; coverage>=80%',
  'AC-001: Config file exists',
  'Health endpoint returns 200 with {"status": "ok"}',
  'Caf\u00e9 menu renders \u{1F600} and e\u0301',
  '\u0130stanbul \u03a3\u039f\u03a3 handled',
  'Documentation updated',
]

const WS_SET = new Set(PY_WHITESPACE_CHARS)

/** True when `_strip_criterion_prefix` would remove something from the start of `s` (after strip). */
export function startsWithPrefix(s: string): boolean {
  const c = Array.from(s)
  let i = 0
  while (i < c.length && WS_SET.has(c[i]!)) i++
  const rest = c.slice(i).join('')
  if (rest.startsWith('- [ ]') || rest.startsWith('- [x]') || rest.startsWith('*')) return true
  return /^[\p{N}]/u.test(rest)
}

/** A criterion body: non-blank, not itself starting with a prefix (or with a digit, which could become one). */
export const criterionBody = fc
  .oneof(
    {weight: 3, arbitrary: fc.constantFrom(...CRITERIA)},
    {weight: 1, arbitrary: fc.array(hardChar, {minLength: 1, maxLength: 25}).map((cs) => cs.join(''))},
  )
  .filter((b) => Array.from(b).some((ch) => !WS_SET.has(ch)) && !startsWithPrefix(b))

/** Surrounding whitespace, Python's own (U+3000, \x1c, \x85 …) included; never U+FEFF. */
export const surroundingWhitespace = fc.oneof(fc.constant(''), pyWhitespace)

/**
 * A case change that `str.lower()` undoes: each character keeps its case or takes its upper case,
 * but only where `upper(c).lower() == c.lower()` (not `ß` → `SS`, `ı` → `I`, `ŉ` → `ʼN`), and never a sigma.
 */
export function recase(text: string, flips: readonly boolean[]): string {
  return Array.from(text)
    .map((ch, i) => {
      // Sigma lower-cases by context (final `ς`): leave it as written.
      if (!flips[i % Math.max(flips.length, 1)] || /[\u03a3\u03c2\u03c3]/u.test(ch)) return ch
      const up = ch.toUpperCase()
      return up.toLowerCase() === ch.toLowerCase() ? up : ch
    })
    .join('')
}

export const flips = fc.array(fc.boolean(), {minLength: 1, maxLength: 16})

/** A criterion as written: whitespace, at most one prefix, the body in some case, whitespace. */
export const writtenCriterion = fc
  .record({
    lead: surroundingWhitespace,
    prefix: fc.constantFrom('', ...STRIPPED_PREFIXES),
    body: criterionBody,
    flips,
    trail: surroundingWhitespace,
  })
  .map((c) => ({...c, text: c.lead + c.prefix + recase(c.body, c.flips) + c.trail}))
