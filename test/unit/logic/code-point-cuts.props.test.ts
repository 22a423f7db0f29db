import {fc, test} from '../../helpers/prop.js'
import {describe, expect} from 'vitest'
import {emitDiagnosticDump} from '../../../src/logic/coach/requirements/diagnostic-dump.js'
import {summarizeTestOutput} from '../../../src/logic/coach/summarize-test-output.js'
import {collectingSink} from '../../../src/logic/log-sink.js'
import {displayCriteriaProgress} from '../../../src/logic/orchestrator/criteria-progress.js'
import {feedbackProgressLine} from '../../../src/logic/orchestrator/execute-turn.js'
import {extractFeedback} from '../../../src/logic/orchestrator/extract-feedback.js'
import {TaskWorkStreamParser} from '../../../src/logic/pipeline/stream-parser.js'
import {runTaskWorkStream} from '../../../src/logic/pipeline/stream-loop.js'
import {astralChar, codePoints, combiningMark, isWellFormedUtf16, pyPrefix, PY_WHITESPACE_CHARS, runs, testOutput} from '../../helpers/arbitraries/index.js'
import {FIXED, LEGACY} from '../../helpers/flags.js'

/**
 * docs/guardkit-logic.md §3.1: every cut GuardKit makes (`[:50]`, `[:60]`, `[:80]`, `[:100]`, `%.100s`, `[:200]`,
 * `max_length`) counts code points. A JS `.slice` on UTF-16 units would cut earlier on astral text and
 * could leave half a surrogate pair. Expected values are computed here with `Array.from`.
 */

/** Exactly one code point: ASCII, BMP, astral, a combining mark, or Python whitespace. */
const oneCodePoint = fc.oneof(
  {weight: 3, arbitrary: fc.integer({min: 0x20, max: 0x7e}).map((c) => String.fromCharCode(c))},
  {weight: 3, arbitrary: astralChar},
  {weight: 1, arbitrary: combiningMark},
  {weight: 1, arbitrary: fc.integer({min: 0xa0, max: 0xd7ff}).map((c) => String.fromCharCode(c))},
  {weight: 1, arbitrary: fc.constantFrom(...PY_WHITESPACE_CHARS.filter((c) => c !== '\n'))},
)

/** Text whose length in code points is near `cut`, often with an astral character right at the cut. */
function textAround(cut: number): fc.Arbitrary<string> {
  const exactly = (n: number) => fc.array(oneCodePoint, {minLength: n, maxLength: n}).map((cs) => cs.join(''))
  return fc.oneof(
    fc.integer({min: Math.max(0, cut - 3), max: cut + 3}).chain(exactly),
    fc.tuple(exactly(Math.max(0, cut - 1)), astralChar, exactly(3)).map(([a, b, c]) => a + b + c),
    fc.integer({min: 0, max: 2 * cut}).chain(exactly),
  )
}

/** `s[:n] + '...' if len(s) > n else s` */
const ellipsis = (s: string, n: number) => (codePoints(s).length > n ? pyPrefix(s, n) + '...' : s)

describe('cuts count code points and never split a surrogate pair (docs/guardkit-logic.md §3.1)', () => {
  // docs/guardkit-logic.md §8.2 step 8: `Feedback: {feedback[:80]}...`
  test.prop([textAround(80)], runs(300))('the turn progress line keeps 80 code points of the feedback', (feedback) => {
    const line = feedbackProgressLine(feedback)
    expect(line).toBe(codePoints(feedback).length > 80 ? `Feedback: ${pyPrefix(feedback, 80)}...` : `Feedback: ${feedback}`)
    expect(isWellFormedUtf16(line)).toBe(true)
  })

  // docs/guardkit-logic.md §8.3: `"  • {c[:100]}"` for each of the first five missing criteria.
  test.prop([fc.array(textAround(100), {minLength: 1, maxLength: 7}), textAround(20)], runs(300))(
    'feedback lists missing criteria cut to 100 code points',
    (missing, description) => {
      const text = extractFeedback({issues: [{description, missing_criteria: missing}]})!
      const want = [`- ${description}:`, ...missing.slice(0, 5).map((c) => `  \u2022 ${pyPrefix(c, 100)}`), ...(missing.length > 5 ? [`  (${missing.length - 5} more)`] : [])]
      expect(text).toBe(want.join('\n'))
      expect(isWellFormedUtf16(text)).toBe(true)
    },
  )

  // docs/guardkit-logic.md §7.2: `AC text: %.100s` in the 0/N diagnostic dump.
  test.prop([fc.array(textAround(100), {minLength: 1, maxLength: 4})], runs(300))('the 0/N dump prints 100 code points of each criterion', (ac) => {
    const sink = collectingSink()
    emitDiagnosticDump(sink, ac, ac.length, {kind: 'synthetic-none'})
    const lines = sink.records.map((r) => r.message).filter((m) => m.startsWith('  AC text: '))
    expect(lines).toEqual(ac.map((a) => `  AC text: ${pyPrefix(a, 100)}`))
    expect(lines.every(isWellFormedUtf16)).toBe(true)
  })

  // docs/guardkit-logic.md §4.1 step 2: `phases["phase_N"]["text"] = g2[:100]`, g2 running to the end of the line (`.` excludes only `\n`).
  const phaseText = fc.tuple(fc.integer({min: 0x41, max: 0x5a}).map((c) => String.fromCharCode(c)), textAround(100), fc.constantFrom('', '\nnext line'))
  test.prop([phaseText], runs(300))('the stream parser keeps 100 code points of a phase title', ([first, rest, after]) => {
    const parser = new TaskWorkStreamParser(FIXED)
    parser.parseMessage(`Phase 3: ${first}${rest}${after}`)
    const text = parser.toResult().phases?.phase_3?.text
    expect(text).toBe(pyPrefix(first + rest, 100))
    expect(isWellFormedUtf16(text!)).toBe(true)
  })

  // docs/guardkit-logic.md §4.2: WARNING `… input is {type}, not dict: {str(input)[:200]}` (fixed).
  test.prop([textAround(200)], runs(300))('a non-dict tool input is logged with 200 code points', (input) => {
    const sink = collectingSink()
    runTaskWorkStream('TASK-X', [{type: 'assistant', blocks: [{type: 'tool_use', name: 'Write', input}]}], FIXED, sink)
    const warning = sink.records.find((r) => r.level === 'WARNING')!.message
    expect(warning).toBe(`[TASK-X] ToolUseBlock Write input is str, not dict: ${pyPrefix(input, 200)}`)
    expect(isWellFormedUtf16(warning)).toBe(true)
  })

  // docs/guardkit-logic.md §8.6: DEBUG `- {text[:50]}...` per criterion, INFO `{notes[:60]}...` per rejected verification.
  test.prop([textAround(50), textAround(60), fc.constantFrom(LEGACY, FIXED)], runs(300))(
    'criteria progress cuts criteria at 50 and notes at 60 code points',
    (criterion, notes, flags) => {
      const sink = collectingSink()
      const report = {criteria_verification: [{criterion_id: 'AC-001', result: 'rejected', notes}]}
      displayCriteriaProgress({decision: 'feedback', feedback: 'x', playerResult: null, coachResult: {success: true, report, error: null}}, [criterion], 1, flags, sink)
      const messages = sink.records.map((r) => r.message)
      expect(messages).toContain(`  [x] AC-001: REJECTED - ${ellipsis(criterion, 50)}`)
      expect(messages).toContain(`  AC-001: ${ellipsis(notes, 60)}`)
      expect(messages.every(isWellFormedUtf16)).toBe(true)
    },
  )

  // docs/guardkit-logic.md §6.6: `summary[:max_length-3] + "..."` when longer than max_length, Python's negative end included.
  const output = fc.oneof(testOutput, fc.array(textAround(40), {maxLength: 30}).map((ls) => ls.map((l, i) => (i % 3 === 0 ? `${l} passed` : l)).join('\n')))
  test.prop([output, fc.integer({min: 0, max: 400}), fc.constantFrom(LEGACY, FIXED)], runs(300))(
    'the test summary is cut to max_length code points',
    (text, max, flags) => {
      const whole = summarizeTestOutput(text, flags, Number.MAX_SAFE_INTEGER)
      const cps = codePoints(whole)
      const end = max - 3 < 0 ? Math.max(0, cps.length + max - 3) : max - 3
      expect(summarizeTestOutput(text, flags, max)).toBe(cps.length > max ? cps.slice(0, end).join('') + '...' : whole)
      expect(isWellFormedUtf16(summarizeTestOutput(text, flags, max))).toBe(true)
    },
  )
})
