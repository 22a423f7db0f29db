import fc from 'fast-check'
import {unicodeIdentifier} from './pytest.js'

/**
 * Worktree paths as GuardKit handles them (docs/guardkit-logic.md §6.5, §3.11). A **canonical** path has no `.` or `..`
 * segment, no leading `./`, no doubled or trailing slash: `str(Path(p)) == p`. The non-canonical and
 * Windows forms are generated separately, because GuardKit's dedup does not cover them.
 */

const segmentChar = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCXYZ0123456789_-.')
/** One path segment: never empty, `.` or `..`; may hold non-ASCII, astral characters and backslashes. */
export const segment = fc.oneof(
  {weight: 6, arbitrary: fc.array(segmentChar, {minLength: 1, maxLength: 10}).map((cs) => cs.join(''))},
  {weight: 2, arbitrary: unicodeIdentifier},
  {weight: 1, arbitrary: fc.constantFrom('café', 'menü', '\u{1F600}', 'ｆｕｌｌ', 'e\u0301t\u00e9', '\u{1D518}x', 'a\\b', 'with space', '\uff01')},
).filter((s) => s !== '.' && s !== '..' && s !== '' && !s.includes('/'))

/** A segment without whitespace or backslash (for text where paths must stay one token). */
export const tokenSegment = segment.filter((s) => !/[\s\\]/u.test(s))

export const canonicalRelPath = fc.array(segment, {minLength: 1, maxLength: 4}).map((ss) => ss.join('/'))

const FEATURE = fc.tuple(fc.constantFrom('FEAT', 'feat'), fc.stringMatching(/^[A-Z0-9]{2,4}$/)).map(([a, b]) => `${a}-${b}`)

/** `/Users/x/…/.guardkit/worktrees/FEAT-X`: a GuardKit worktree root (canonical, absolute). */
export const guardkitWorktreeRoot = fc
  .tuple(fc.constantFrom('/Users', '/home', '/private/var', '/tmp/ci'), tokenSegment, fc.array(tokenSegment, {maxLength: 2}), FEATURE)
  .filter(([, user, dirs]) => ![user, ...dirs].includes('worktrees'))
  .map(([home, user, dirs, feat]) => [home, user, ...dirs, '.guardkit', 'worktrees', feat].join('/'))

/** Any canonical absolute worktree root, the oracle harness's `/worktree/root` included. */
export const worktreeRoot = fc.oneof(fc.constant('/worktree/root'), guardkitWorktreeRoot, fc.array(segment, {minLength: 1, maxLength: 3}).map((ss) => '/' + ss.join('/')))

/** `test_*.py` or `*_test.py`: the name rule of `_detect_tests_from_results`. */
export const testFileName = fc.oneof(
  unicodeIdentifier.map((n) => `test_${n}.py`),
  unicodeIdentifier.map((n) => `${n}_test.py`),
  fc.constantFrom('test_\u{1F600}.py', 'test_\uff01.py', 'test_caf\u00e9.py', 'test_e\u0301.py'),
)
/** A file the name rule rejects. */
export const otherFileName = fc.constantFrom('conftest.py', 'app.py', 'test_data.json', 'tests.py', 'README.md', 'test_', 'x_test.pyc', '__init__.py', 'test.py')

export const canonicalTestFile = fc.tuple(fc.array(segment, {maxLength: 3}), testFileName).map(([dirs, name]) => ['tests', ...dirs, name].join('/'))
export const canonicalOtherFile = fc.tuple(fc.array(segment, {maxLength: 3}), otherFileName).map(([dirs, name]) => ['src', ...dirs, name].join('/'))

/** Spellings of a path that are not canonical, for the counterexamples of docs/guardkit-logic.md §6.5. */
export function nonCanonicalForms(root: string, rel: string): Record<string, string> {
  return {
    dotSlash: `./${rel}`,
    trailingSlash: `${rel}/`,
    absTrailingSlash: `${root}/${rel}/`,
    absDoubledSlash: `${root}//${rel}`,
    absDotSegment: `${root}/./${rel}`,
    absDotDot: `${root}/../${root.split('/').pop()!}/${rel}`,
    relDotDot: `tests/../${rel}`,
    twoLeadingSlashes: `/${root}/${rel}`,
    windows: rel.replaceAll('/', '\\'),
    windowsAbs: `C:${root.replaceAll('/', '\\')}\\${rel.replaceAll('/', '\\')}`,
  }
}
