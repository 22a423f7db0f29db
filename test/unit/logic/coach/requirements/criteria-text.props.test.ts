import {fc, test} from '../../../../helpers/prop.js'
import {describe, expect, it} from 'vitest'
import type {LogicFlags} from '../../../../../src/logic/changes.js'
import {matchByText, matchByTextTraced} from '../../../../../src/logic/coach/requirements/match-by-text.js'
import {stripCriterionPrefix} from '../../../../../src/logic/coach/requirements/strip-criterion-prefix.js'
import {analyzeRunPath} from '../../../../../src/services/analyze.js'
import {
  codePoints,
  criterionBody,
  flips,
  hardChar,
  hardText,
  KEPT_PREFIXES,
  pyStripRef,
  pyWhitespace,
  recase,
  runs,
  startsWithPrefix,
  STRIPPED_PREFIXES,
  surroundingWhitespace,
  writtenCriterion,
} from '../../../../helpers/arbitraries/index.js'
import {cpythonIsDigit, knownToCpython} from '../../../../helpers/cpython.js'
import {FIXED, LEGACY, PRE_ACR} from '../../../../helpers/flags.js'
import {createMemoryPort, memoryTree} from '../../../../helpers/memory-port.js'

/** `_strip_criterion_prefix` as docs/guardkit-logic.md §7.5 states it, with CPython 3.11's `str.isdigit` and `str.strip`. */
function stripBySpec(text: string): string {
  const c = pyStripRef(text)
  if (c.startsWith('- [ ] ') || c.startsWith('- [x] ')) return pyStripRef(codePoints(c).slice(6).join(''))
  if (c.startsWith('* ')) return pyStripRef(codePoints(c).slice(2).join(''))
  const cps = codePoints(c)
  let i = 0
  while (i < cps.length && cpythonIsDigit(cps[i]!)) i++
  if (i > 0 && i + 2 < cps.length && (cps[i] === '.' || cps[i] === ')') && cps[i + 1] === ' ') return pyStripRef(cps.slice(i + 2).join(''))
  return c
}

/** Texts built from prefix-like pieces, digits of several kinds, and hard Unicode (CPython 3.11 digits only). */
const prefixy = fc
  .array(
    fc.oneof(
      fc.constantFrom(...STRIPPED_PREFIXES, ...KEPT_PREFIXES, '- [ ]', '- [x]', '*', '. ', ') ', '10', '\uff19', '\u00b3', '\u2463', '\u0669', '\u00bd', '\u2160'),
      pyWhitespace,
      hardChar,
    ),
    {maxLength: 8},
  )
  .map((ps) => ps.join(''))

const verdicts = (ac: readonly string[], rm: readonly string[], flags: LogicFlags) => matchByText(ac, rm, flags).criteria_results.map((r) => r.result)

/** A body written with surrounding whitespace, an optional prefix and a case change (what a Player or task author may do). */
const written = fc.record({body: criterionBody, lead: surroundingWhitespace, prefix: fc.constantFrom('', ...STRIPPED_PREFIXES), flips, trail: surroundingWhitespace})
const writeOut = (w: {body: string; lead: string; prefix: string; flips: readonly boolean[]; trail: string}, withPrefix = true) =>
  w.lead + (withPrefix ? w.prefix : '') + recase(w.body, w.flips) + w.trail

const blank = fc.oneof(fc.constant(''), pyWhitespace)

/** Criteria, and requirements that often restate them (exactly, inside a sentence, words reordered). */
const criteriaAndRequirements = fc.array(written, {minLength: 1, maxLength: 4}).chain((ac) => {
  const restated = fc
    .tuple(fc.constantFrom(...ac), written)
    .chain(([c, w]) =>
      fc
        .constantFrom(c.body, `Verified: ${c.body} and it works`, c.body.split(' ').reverse().join(' '))
        .filter((body) => !startsWithPrefix(body) && pyStripRef(body) !== '')
        .map((body) => ({...w, body})),
    )
  return fc.tuple(fc.constant(ac), fc.array(fc.oneof(written, restated), {maxLength: 4}))
})

// docs/guardkit-logic.md §7.5 `_strip_criterion_prefix`, `_match_by_text` (ACR-002, identical in legacy and fixed); seed 003.
describe('criteria text matching (docs/guardkit-logic.md §7.5)', () => {
  // Code points newer than CPython 3.11's Unicode are left out: their digit-ness depends on the Python (docs/properties.md).
  test.prop([fc.oneof(prefixy, hardText({maxLength: 20}), writtenCriterion.map((c) => c.text)).filter(knownToCpython)], runs(500))(
    'prefix stripping removes what the spec says, for any text',
    (text) => {
      expect(stripCriterionPrefix(text)).toBe(stripBySpec(text))
    },
  )

  // The naive property "stripping is idempotent" is false: only one prefix goes (`10. 20. twice`, below).
  test.prop([writtenCriterion], runs(500))('stripping is idempotent on criteria with at most one prefix', ({body, flips: f}) => {
    const once = stripCriterionPrefix(body)
    expect(once).toBe(pyStripRef(body))
    for (const text of STRIPPED_PREFIXES.map((p) => p + recase(body, f))) {
      const stripped = stripCriterionPrefix(text)
      expect(stripCriterionPrefix(stripped)).toBe(stripped)
    }
  })

  test.prop([prefixy.filter(knownToCpython)], runs(300))('a second strip changes the text exactly when the first left another prefix', (text) => {
    const once = stripCriterionPrefix(text)
    expect(stripCriterionPrefix(once) === once).toBe(stripBySpec(once) === once)
  })

  test.prop([criteriaAndRequirements, fc.constantFrom(LEGACY, FIXED)], runs(400))(
    'matching is unaffected by checkbox markers, case and surrounding whitespace (legacy and fixed)',
    ([ac, rm], flags) => {
      const plain = verdicts(ac.map((c) => c.body), rm.map((r) => r.body), flags)
      expect(verdicts(ac.map((c) => writeOut(c)), rm.map((r) => writeOut(r)), flags)).toEqual(plain)
    },
  )

  // docs/guardkit-logic.md §7.5 "Pre-acr: only step 1 … no prefix stripping": case and whitespace never mattered, markers did.
  test.prop([criteriaAndRequirements], runs(300))(
    'before ACR-002 (pre-acr) matching ignores case and surrounding whitespace, not markers',
    ([ac, rm]) => {
      const plain = verdicts(ac.map((c) => c.body), rm.map((r) => r.body), PRE_ACR)
      expect(verdicts(ac.map((c) => writeOut(c, false)), rm.map((r) => writeOut(r, false)), PRE_ACR)).toEqual(plain)
      const exact = ac.map((c) => rm.some((r) => pyStripRef(r.body).toLowerCase() === pyStripRef(c.body).toLowerCase()))
      expect(plain).toEqual(exact.map((v) => (v ? 'verified' : 'rejected')))
    },
  )

  // docs/guardkit-logic.md §7.5 "False-positive edges" and docs/guardkit-logic.md §3.5 (`"" in s` is always true); vectors match_by_text#4, #21.
  test.prop([fc.array(fc.oneof(criterionBody, hardText({maxLength: 20})), {minLength: 1, maxLength: 5}), fc.array(criterionBody, {maxLength: 3}), blank, fc.nat(), fc.constantFrom(LEGACY, FIXED)], runs(400))(
    'a blank requirement verifies every criterion (the empty-string false positive), and the trace shows it',
    (ac, rm, empty, at, flags) => {
      const requirements = [...rm.slice(0, at % (rm.length + 1)), empty, ...rm.slice(at % (rm.length + 1))]
      const {validation, traces} = matchByTextTraced(ac, requirements, flags, 'requirements_met')
      expect(validation.criteria_met).toBe(ac.length)
      // What the explainer needs to flag FUZZY_FALSE_POSITIVE: the substring step matched the blank requirement.
      const blankAt = requirements.indexOf(empty)
      traces.forEach((t, i) => {
        if (t.step === 'exact') return
        expect(t.step).toBe('substring')
        if (t.closest!.index < blankAt) return // an earlier requirement matched first
        expect([t.matched, validation.criteria_results[i]!.evidence]).toEqual(['', "Substring match with ''"])
      })
    },
  )

  // docs/json-schema.md FUZZY_FALSE_POSITIVE: "a criterion was verified by a text match that cannot support it (e.g. an
  // empty requirement string)". The Coach's own report (coach_turn_1.json, written from the model's result) is
  // read back through ingest, replay and explain, as `guardkit-replay RUN` does.
  test.prop([fc.array(criterionBody, {minLength: 1, maxLength: 4}), fc.array(criterionBody, {maxLength: 2}), blank], runs(200))(
    'a criterion verified by a blank requirement is flagged FUZZY_FALSE_POSITIVE',
    async (ac, rm, empty) => {
      const requirements = [empty, ...rm]
      const v = matchByText(ac, requirements, FIXED)
      const dir = '.guardkit/autobuild/TASK-X-001'
      const files = {
        [`${dir}/player_turn_1.json`]: JSON.stringify({task_id: 'TASK-X-001', turn: 1, files_created: [], files_modified: [], tests_run: true, tests_passed: true, requirements_met: requirements}),
        [`${dir}/task_work_results.json`]: JSON.stringify({task_id: 'TASK-X-001', files_created: [], files_modified: [], requirements_met: requirements}),
        [`${dir}/coach_turn_1.json`]: JSON.stringify({task_id: 'TASK-X-001', turn: 1, decision: 'approve',
          validation_results: {requirements: {criteria_total: v.criteria_total, criteria_met: v.criteria_met, all_criteria_met: v.all_criteria_met, missing: v.missing}},
          criteria_verification: v.criteria_results}),
      }
      const report = await analyzeRunPath('/run', {names: [], with: [], without: [], tool: {name: 'guardkit-replay', version: 'test'},
        progress: {step: () => undefined, done: () => undefined}, port: createMemoryPort(memoryTree('/run', files))})
      const fuzzy = report.tasks.flatMap((t) => t.findings).filter((f) => f.code === 'FUZZY_FALSE_POSITIVE')
      const byBlank = v.criteria_results.some((r) => r.evidence === "Substring match with ''")
      if (byBlank) expect(fuzzy.map((f) => [f.confidence, f.turns])).toEqual([['certain', [1]]])
    },
  )

  test.prop([fc.array(criterionBody, {minLength: 1, maxLength: 5}), blank], runs(300))('before ACR-002 a blank requirement verifies only blank criteria', (ac, empty) => {
    expect(verdicts(ac, [empty], PRE_ACR)).toEqual(ac.map(() => 'rejected'))
  })

  // docs/guardkit-logic.md §3.2: U+FEFF is not whitespace, so a BOM-only requirement is not blank and verifies nothing it does not contain.
  test.prop([fc.array(criterionBody, {minLength: 1, maxLength: 5}), fc.constantFrom(LEGACY, FIXED)], runs(300))(
    'a U+FEFF requirement is not blank: it verifies only criteria that contain U+FEFF',
    (ac, flags) => {
      expect(verdicts(ac, ['\ufeff'], flags)).toEqual(ac.map((c) => (c.includes('\ufeff') ? 'verified' : 'rejected')))
    },
  )
})

describe('where GuardKit differs from the naive property (named counterexamples, docs/guardkit-logic.md §7.5)', () => {
  it('only one prefix is removed, so stripping is not idempotent: `10. 20. twice` (strip_criterion_prefix#18)', () => {
    expect(stripCriterionPrefix('10. 20. twice')).toBe('20. twice')
    expect(stripCriterionPrefix('20. twice')).toBe('twice')
    expect(stripCriterionPrefix('- [ ] - [x] Config file exists')).toBe('- [x] Config file exists')
  })

  it('an empty body is not invariant: `- [ ] ` strips to `- [ ]`, not to `` (strip_criterion_prefix#10, match_by_text#5)', () => {
    expect(stripCriterionPrefix('- [ ] ')).toBe('- [ ]')
    expect(verdicts(['Config file exists'], ['- [ ] '], FIXED)).toEqual(['rejected'])
    expect(verdicts(['Config file exists'], [''], FIXED)).toEqual(['verified'])
  })

  it('`str.lower()` does not undo every case change: `STRASSE` is not `Straße`', () => {
    expect(verdicts(['Stra\u00dfe exists'], ['STRASSE EXISTS'], FIXED)).toEqual(['rejected'])
    expect(verdicts(['Stra\u00dfe exists'], ['STRAßE EXISTS'], FIXED)).toEqual(['verified'])
  })
})
