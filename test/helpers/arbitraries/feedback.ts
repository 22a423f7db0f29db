import fc from 'fast-check'
import {guardkitWorktreeRoot, tokenSegment} from './paths.js'
import {
  digits,
  exceptionName,
  identifier,
  longSessionDuration,
  nodeId,
  paramIdWithSpace,
  percent,
  shortSeconds,
  testModulePath,
  UNNORMALISED_COUNT_WORDS,
  windowsNodeId,
} from './pytest.js'
import {hardChar, PY_WHITESPACE_CHARS, pyWhitespace} from './text.js'

const PY_WS = new Set(PY_WHITESPACE_CHARS)
const hasPyWhitespace = (s: string) => Array.from(s).some((ch) => PY_WS.has(ch))

/**
 * Coach feedback as `_extract_feedback` builds it (docs/guardkit-logic.md §8.3), made of fixed text and **slots**: the
 * variable tokens `_STALL_NORMALIZE_PATTERNS` (docs/guardkit-logic.md §8.4) are meant to absorb. A template rendered twice
 * with different slot values gives two feedbacks that "differ only in" node ids, line numbers, etc.
 */

export type NormalisedSlot =
  | {readonly kind: 'node-id'}
  | {readonly kind: 'line'}
  | {readonly kind: 'percent'}
  | {readonly kind: 'duration'}
  | {readonly kind: 'count'; readonly word: string}
  | {readonly kind: 'worktree-path'; readonly rel: string}

export type TemplatePart = {readonly text: string} | {readonly slot: NormalisedSlot; readonly before: string; readonly after: string}

export interface FeedbackTemplate {
  readonly parts: readonly TemplatePart[]
  /** Whitespace between parts (`parts.length - 1` entries), plus what surrounds the whole text. */
  readonly separators: readonly string[]
  readonly lead: string
  readonly trail: string
}

const FEEDBACK_FRAGMENTS = [
  '- Independent test verification failed:',
  '- Coverage threshold not met',
  '- Not all acceptance criteria met:',
  '  \u2022 Config file exists',
  'FAILED',
  'ERROR',
  'E   AssertionError: assert 1 == 2',
  'E   sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) could not connect to server: Connection refused',
  '====',
  'Running: pytest',
  '-v --tb=short',
  '... and 2 more issues',
  'Traceback (most recent call last):',
  'short test summary info',
  'Coverage:',
  'at',
  '- Tests did not pass during task-work execution',
  'caf\u00e9 \u{1F600} \u03a3\u039f\u03a3 \u0130stanbul',
]

/** Fixed feedback text: realistic fragments and hard Unicode. Not ending in `line` (see `lineBeforePercent`). */
export const fixedText = fc
  .oneof(
    {weight: 3, arbitrary: fc.constantFrom(...FEEDBACK_FRAGMENTS)},
    {weight: 1, arbitrary: fc.array(hardChar, {minLength: 1, maxLength: 12}).map((cs) => cs.join(''))},
  )
  .filter((t) => !t.endsWith('line'))

/** Punctuation that may stick to a slot's token (`"/path",`, `(85%)`, `[100%]`): no digits, `.`, `/`, `%`. */
const glueBefore = fc.constantFrom('', '', '', '"', '(', '[', "'", '`')
const glueAfter = fc.constantFrom('', '', '', '"', ')', ']', ',', ':', "'", '`', '",', ');')

/** Between parts: a real feedback mostly has one space or a newline with an indent. */
const separator = fc.oneof({weight: 6, arbitrary: fc.constantFrom(' ', '\n', '\n  ', '\n    ')}, {weight: 1, arbitrary: pyWhitespace})

const normalisedSlot: fc.Arbitrary<NormalisedSlot> = fc.oneof(
  fc.constant({kind: 'node-id'} as const),
  fc.constant({kind: 'line'} as const),
  fc.constant({kind: 'percent'} as const),
  fc.constant({kind: 'duration'} as const),
  fc.constantFrom('passed', 'failed', 'error', 'errors', 'skipped', 'warning', 'warnings').map((word) => ({kind: 'count', word}) as const),
  // A path ending in `line` would join a following `7.5%` into `line 7` (see `lineBeforePercent`).
  fc
    .array(tokenSegment, {minLength: 1, maxLength: 3})
    .map((ss) => ss.join('/'))
    .filter((rel) => !rel.endsWith('line'))
    .map((rel) => ({kind: 'worktree-path', rel}) as const),
)

/** One value of a slot. Two draws differ only in what the normalisation is meant to absorb. */
export function slotValue(slot: NormalisedSlot): fc.Arbitrary<string> {
  switch (slot.kind) {
    case 'node-id':
      return fc.oneof({weight: 4, arbitrary: nodeId}, {weight: 1, arbitrary: windowsNodeId})
    case 'line':
      return digits.map((n) => `line ${n}`)
    case 'percent':
      return percent
    case 'duration':
      return shortSeconds.map((s) => `in ${s}s`)
    case 'count':
      return digits.map((n) => `${n} ${slot.word}`)
    case 'worktree-path':
      return guardkitWorktreeRoot.map((root) => `${root}/${slot.rel}`)
  }
}

export const feedbackTemplate: fc.Arbitrary<FeedbackTemplate> = fc
  .array(
    fc.oneof(
      {weight: 2, arbitrary: fixedText.map((text) => ({text}))},
      {weight: 2, arbitrary: fc.record({slot: normalisedSlot, before: glueBefore, after: glueAfter})},
    ),
    {minLength: 1, maxLength: 10},
  )
  .chain((parts) =>
    fc.record({
      parts: fc.constant(parts as TemplatePart[]),
      separators: fc.array(separator, {minLength: parts.length - 1, maxLength: parts.length - 1}),
      lead: fc.constantFrom('', '', '\n', '  ', '\u3000'),
      trail: fc.constantFrom('', '', '\n', ' ', '\x1c'),
    }),
  )

/** Fills every slot of a template with a drawn value. */
export function fillTemplate(t: FeedbackTemplate): fc.Arbitrary<string> {
  const values = t.parts.map((p) => ('slot' in p ? slotValue(p.slot).map((v) => p.before + v + p.after) : fc.constant(p.text)))
  return fc.tuple(...values).map((texts) => render(t, texts))
}

export function render(t: FeedbackTemplate, texts: readonly string[]): string {
  let out = t.lead
  texts.forEach((text, i) => {
    out += text
    if (i < t.separators.length) out += t.separators[i]!
  })
  return out + t.trail
}

/** Two feedbacks from one template that differ only in normalised tokens (and the template itself). */
export const feedbackPairDifferingInNormalisedTokens = feedbackTemplate.chain((t) =>
  fc.record({template: fc.constant(t), a: fillTemplate(t), b: fillTemplate(t)}),
)

/** A realistic feedback text (one filling of a template). */
export const feedbackText = feedbackTemplate.chain(fillTemplate)

// ---------------------------------------------------------------------------------------------
// Differences the rules do not normalise (docs/guardkit-logic.md §8.4 "Consequences", and pytest formats the table misses).

/**
 * A token that no pattern of docs/guardkit-logic.md §8.4 touches or joins to its neighbour: no digit, `/`, `%`, `.py::`
 * or whitespace; not ending in `line`/`in` (patterns 2 and 4 start there); not starting with a count
 * word (pattern 5 ends there).
 */
export function isInertWord(w: string): boolean {
  return (
    w.length > 0 &&
    !/[\p{N}/%]/u.test(w) &&
    !hasPyWhitespace(w) &&
    !w.includes('.py::') &&
    !/(line|in)$/.test(w) &&
    !/^(passed|failed|error|skipped|warning)/.test(w)
  )
}

export const inertWord = fc
  .oneof(
    {weight: 3, arbitrary: fc.constantFrom('-', '\u2022', 'Not', 'all', 'acceptance', 'criteria', 'met:', 'Coverage', 'threshold', 'AssertionError:', 'assert', 'E', 'FAILED', 'Running:', 'pytest', '-v', 'caf\u00e9', '\u{1F600}', '\u03a3\u039f\u03a3', '\u0130stanbul', 'Config', 'file', 'exists', '\ufeff')},
    {weight: 1, arbitrary: fc.array(hardChar, {minLength: 1, maxLength: 8}).map((cs) => cs.join(''))},
  )
  .filter(isInertWord)

export interface DifferingPair {
  /** Which kind of surviving difference this is. */
  readonly kind: string
  readonly a: string
  readonly b: string
}

const distinctAfterLower = <T>(pair: fc.Arbitrary<readonly [T, T]>, show: (v: T) => string) =>
  pair.filter(([x, y]) => show(x).toLowerCase() !== show(y).toLowerCase())

const asciiInt = fc.nat({max: 9999})

/** Pairs of token groups whose difference survives normalisation, as GuardKit really behaves. */
export const survivingDifference: fc.Arbitrary<DifferingPair> = fc.oneof(
  distinctAfterLower(fc.tuple(asciiInt, asciiInt), String).map(([x, y]) => ({kind: 'capital-Line', a: `Line ${x}`, b: `Line ${y}`})),
  distinctAfterLower(fc.tuple(asciiInt, asciiInt), String).map(([x, y]) => ({kind: 'duration-without-decimals', a: `in ${x}s`, b: `in ${y}s`})),
  fc
    .tuple(fc.constantFrom(...UNNORMALISED_COUNT_WORDS), distinctAfterLower(fc.tuple(asciiInt, asciiInt), String))
    .map(([w, [x, y]]) => ({kind: `count-of-${w}`, a: `${x} ${w}`, b: `${y} ${w}`})),
  distinctAfterLower(fc.tuple(longSessionDuration, longSessionDuration), (d) => String(d.seconds)).map(([x, y]) => ({
    kind: 'session-of-a-minute-or-more',
    a: `in ${x.text}`,
    b: `in ${y.text}`,
  })),
  fc
    .tuple(testModulePath, distinctAfterLower(fc.tuple(asciiInt, asciiInt), String), exceptionName)
    .map(([mod, [x, y], exc]) => ({kind: 'pytest-location', a: `${mod}:${x}: ${exc}`, b: `${mod}:${y}: ${exc}`})),
  fc
    .tuple(distinctAfterLower(fc.tuple(guardkitWorktreeRoot, guardkitWorktreeRoot), String), testModulePath)
    .map(([[x, y], rel]) => ({kind: 'windows-worktree-path', a: `C:${x.replaceAll('/', '\\')}\\${rel.replaceAll('/', '\\')}`, b: `C:${y.replaceAll('/', '\\')}\\${rel.replaceAll('/', '\\')}`})),
  distinctAfterLower(fc.tuple(guardkitWorktreeRoot, guardkitWorktreeRoot), String).map(([x, y]) => ({kind: 'worktree-root-without-trailing-slash', a: x, b: y})),
  fc
    .tuple(testModulePath, identifier, distinctAfterLower(fc.tuple(paramIdWithSpace, paramIdWithSpace), (p) => p.split(' ')[1]!))
    .map(([mod, fn, [x, y]]) => ({kind: 'param-id-with-space', a: `${mod}::test_${fn}[${x}]`, b: `${mod}::test_${fn}[${y}]`})),
  fc
    .tuple(fc.constantFrom('error', 'warning'), fc.integer({min: 2, max: 999}))
    .map(([w, n]) => ({kind: `singular-vs-plural-${w}`, a: `1 ${w}`, b: `${n} ${w}s`})),
  distinctAfterLower(fc.tuple(asciiInt, asciiInt), String).map(([x, y]) => ({kind: 'collected-items', a: `collected ${x} items`, b: `collected ${y} items`})),
)

/** A word replaced by a different one (a missing criterion, an error message, a description). */
export const changedWord: fc.Arbitrary<DifferingPair> = distinctAfterLower(fc.tuple(inertWord, inertWord), String).map(([x, y]) => ({kind: 'changed-word', a: x, b: y}))

/**
 * Two feedbacks built from one filled template plus one differing group of tokens, inserted between
 * inert words so that no pattern can reach across to it.
 */
export const feedbackPairDifferingOutsideNormalisation = fc
  .tuple(feedbackTemplate, fc.oneof({weight: 2, arbitrary: survivingDifference}, {weight: 1, arbitrary: changedWord}), inertWord, inertWord)
  .chain(([t, diff, before, after]) =>
    fc.tuple(fillTemplate(t), fc.nat({max: 10})).map(([filled, at]) => {
      // Insert at a separator (or the start/end) of the filled template: always next to whitespace.
      const cut = cutPoints(filled)
      const pos = cut[at % cut.length]!
      const head = filled.slice(0, pos)
      const tail = filled.slice(pos)
      const wrap = (x: string) => `${head} ${before} ${x} ${after} ${tail}`
      return {kind: diff.kind, a: wrap(diff.a), b: wrap(diff.b)}
    }),
  )

/** Offsets where a filled feedback has whitespace (or its ends): safe places to insert whole tokens. */
function cutPoints(s: string): number[] {
  const out = [0, s.length]
  for (let i = 0; i < s.length; i++) if (PY_WS.has(s[i]!)) out.push(i)
  return out
}
