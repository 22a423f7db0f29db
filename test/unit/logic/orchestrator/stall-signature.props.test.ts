import {createHash} from 'node:crypto'
import {fc, test} from '../../../helpers/prop.js'
import {describe, expect, it} from 'vitest'
import {feedbackSignatures, normalizeFeedbackForStall} from '../../../../src/logic/orchestrator/stall-signature.js'
import {
  anyJsString,
  feedbackPairDifferingInNormalisedTokens,
  feedbackPairDifferingOutsideNormalisation,
  feedbackText,
  hardText,
  pyStripRef,
  runs,
  survivingDifference,
} from '../../../helpers/arbitraries/index.js'
import {FIXED, LEGACY} from '../../../helpers/flags.js'

/** `hashlib.md5(s.encode()).hexdigest()[:8]`, computed here rather than through the model's helper. */
const md5of = (s: string) => createHash('md5').update(Buffer.from(s, 'utf8')).digest('hex').slice(0, 8)
const fixedSig = (f: string) => feedbackSignatures(f, FIXED).used
const legacySig = (f: string) => feedbackSignatures(f, LEGACY).used

const anyFeedback = fc.oneof(
  {weight: 3, arbitrary: feedbackText},
  {weight: 1, arbitrary: survivingDifference.map((d) => d.a)},
  {weight: 1, arbitrary: hardText({maxLength: 60})},
  {weight: 1, arbitrary: fc.string({unit: 'binary', maxLength: 60})},
)

// docs/guardkit-logic.md §8.4: `_normalize_feedback_for_stall` and the signature `md5(text.strip().lower())[:8]`.
describe('feedback normalisation and stall signatures (docs/guardkit-logic.md §8.4, fixed profile)', () => {
  // docs/guardkit-logic.md §8.4 table: every replacement is a fixed point of all six patterns, so normalising twice changes nothing.
  test.prop([fc.oneof(anyFeedback, anyJsString)], runs(500))('normalisation is idempotent', (feedback) => {
    const once = normalizeFeedbackForStall(feedback)
    expect(normalizeFeedbackForStall(once)).toBe(once)
  })

  // docs/guardkit-logic.md §8.4 patterns 1-6 (D27): node ids, `line N`, percentages, `in N.NNs`, counts of the six
  // listed words and `/…/worktrees/…/` prefixes vary between turns; the fixed signature ignores them.
  test.prop([feedbackPairDifferingInNormalisedTokens], runs(500))(
    'feedbacks that differ only in node ids, line numbers, percentages, decimal durations, counts or worktree paths share the fixed signature',
    ({a, b}) => {
      expect(normalizeFeedbackForStall(a)).toBe(normalizeFeedbackForStall(b))
      expect(fixedSig(a)).toBe(fixedSig(b))
    },
  )

  // docs/guardkit-logic.md §8.4 "Consequences" and pytest's formats: anything the six patterns do not rewrite reaches the hash.
  test.prop([feedbackPairDifferingOutsideNormalisation], runs(500))(
    'feedbacks that differ in anything the rules do not normalise keep different signatures, legacy and fixed',
    ({a, b}) => {
      expect(fixedSig(a)).not.toBe(fixedSig(b))
      expect(legacySig(a)).not.toBe(legacySig(b))
    },
  )

  // docs/guardkit-logic.md §8.4 and §3.2-3.4: Python's strip (U+FEFF is not whitespace, \x1c-\x1f and \x85 are), lower(), md5 of UTF-8.
  test.prop([anyFeedback], runs(500))('the legacy signature is md5 of the stripped, lower-cased text; fixed hashes the normalised text the same way', (feedback) => {
    const sigs = feedbackSignatures(feedback, LEGACY)
    expect(sigs.used).toBe(md5of(pyStripRef(feedback).toLowerCase()))
    expect(sigs.used).toMatch(/^[0-9a-f]{8}$/)
    expect(feedbackSignatures(feedback, FIXED).used).toBe(md5of(pyStripRef(normalizeFeedbackForStall(feedback)).toLowerCase()))
  })
})

/**
 * Where GuardKit differs from the naive property "variable test output never changes the signature".
 * Expected texts and signatures computed with CPython 3.11.7 applying the docs/guardkit-logic.md §8.4 table with `re.sub`
 * (the rules of test/fixtures/cpython/cpython_oracle.py); vector ids where the vectors hold the case.
 */
describe('what the fixed normalisation does not absorb (named counterexamples, docs/guardkit-logic.md §8.4)', () => {
  const cases: readonly {name: string; a: string; b: string; normA: string; normB: string; sigA: string; sigB: string}[] = [
    {name: 'capital `Line 42` survives (feedback_signature#13, normalize_feedback_for_stall#13)', a: 'error at Line 42 of module', b: 'error at Line 42 of module',
      normA: 'error at Line 42 of module', normB: 'error at Line 42 of module', sigA: 'aa4955d8', sigB: 'aa4955d8'},
    {name: 'a percentage right after `line` is only half rewritten: `line 7.5%` → `line N.N%`', a: 'coverage at line 7.5% of module', b: 'coverage at line 50% of module',
      normA: 'coverage at line N.N% of module', normB: 'coverage at line N% of module', sigA: '37b5b747', sigB: '215bf473'},
    {name: 'pytest pluralises errors: `1 error` and `2 errors` stay different', a: '==== 1 failed, 1 error in 0.31s ====', b: '==== 1 failed, 2 errors in 0.31s ====',
      normA: '==== N failed, N error in Ns ====', normB: '==== N failed, N errors in Ns ====', sigA: '61429371', sigB: '076227dd'},
    {name: 'a session of a minute or more keeps its `(h:mm:ss)`', a: '==== 1 failed in 75.31s (0:01:15) ====', b: '==== 1 failed in 80.02s (0:01:20) ====',
      normA: '==== N failed in Ns (0:01:15) ====', normB: '==== N failed in Ns (0:01:20) ====', sigA: 'd729520d', sigB: 'f14527e8'},
    {name: 'counts of deselected (also xfailed, xpassed, rerun) are not listed', a: '==== 2 passed, 1 deselected in 0.12s ====', b: '==== 2 passed, 3 deselected in 0.12s ====',
      normA: '==== N passed, 1 deselected in Ns ====', normB: '==== N passed, 3 deselected in Ns ====', sigA: 'bd8e385a', sigB: '73655bb1'},
    {name: 'pytest locations `path.py:12:` are not `line N`', a: 'tests/users/test_users.py:12: OperationalError', b: 'tests/users/test_users.py:14: OperationalError',
      normA: 'tests/users/test_users.py:12: OperationalError', normB: 'tests/users/test_users.py:14: OperationalError', sigA: '447cb180', sigB: '0b92606a'},
    {name: 'a parametrize id with a space is cut at the space', a: 'FAILED tests/test_x.py::test_y[hello world] - AssertionError', b: 'FAILED tests/test_x.py::test_y[hello there] - AssertionError',
      normA: 'FAILED FILE::TEST world] - AssertionError', normB: 'FAILED FILE::TEST there] - AssertionError', sigA: 'cfd36207', sigB: 'df54652f'},
    {name: 'Windows worktree paths have no `/`', a: 'Running: pytest C:\\Users\\rich\\proj\\.guardkit\\worktrees\\FEAT-BA28\\tests\\test_users.py',
      b: 'Running: pytest C:\\Users\\ci\\proj\\.guardkit\\worktrees\\FEAT-BA28\\tests\\test_users.py',
      normA: 'Running: pytest C:\\Users\\rich\\proj\\.guardkit\\worktrees\\FEAT-BA28\\tests\\test_users.py',
      normB: 'Running: pytest C:\\Users\\ci\\proj\\.guardkit\\worktrees\\FEAT-BA28\\tests\\test_users.py', sigA: 'b6117125', sigB: '0c5f7d24'},
    {name: 'a worktree root without a trailing `/` is not rewritten', a: 'cd /Users/rich/proj/.guardkit/worktrees/FEAT-BA28 && pytest', b: 'cd /home/ci/x/.guardkit/worktrees/FEAT-ZZ && pytest',
      normA: 'cd /Users/rich/proj/.guardkit/worktrees/FEAT-BA28 && pytest', normB: 'cd /home/ci/x/.guardkit/worktrees/FEAT-ZZ && pytest', sigA: 'c1002240', sigB: '285b46e8'},
    {name: 'U+FEFF is not whitespace: a BOM changes the signature (feedback_signature#27)', a: '\ufeff- Coverage threshold not met', b: '- Coverage threshold not met',
      normA: '\ufeff- Coverage threshold not met', normB: '- Coverage threshold not met', sigA: 'a406352e', sigB: 'f696a94c'},
    // The other way round: pattern 6 keeps only the basename, so different files of one name collide.
    {name: 'pattern 6 drops the directories: tests/users/test_users.py and tests/admin/test_users.py collide',
      a: 'Running: pytest /Users/rich/proj/.guardkit/worktrees/FEAT-BA28/tests/users/test_users.py', b: 'Running: pytest /Users/rich/proj/.guardkit/worktrees/FEAT-BA28/tests/admin/test_users.py',
      normA: 'Running: pytest /WORKTREE/test_users.py', normB: 'Running: pytest /WORKTREE/test_users.py', sigA: '1a0ea14b', sigB: '1a0ea14b'},
    // Python's `\d` is Unicode: other scripts' digits are numbers too.
    {name: 'Arabic-Indic and fullwidth digits are normalised like ASCII ones', a: 'error at line \u0664\u0662 of module', b: 'ran \uff11\uff12 passed',
      normA: 'error at line N of module', normB: 'ran N passed', sigA: '2d8478c4', sigB: 'e8a9ae92'},
  ]
  for (const c of cases) {
    it(c.name, () => {
      expect([normalizeFeedbackForStall(c.a), normalizeFeedbackForStall(c.b)]).toEqual([c.normA, c.normB])
      expect([fixedSig(c.a), fixedSig(c.b)]).toEqual([c.sigA, c.sigB])
    })
  }
})
