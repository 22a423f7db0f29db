import {fc, test} from '../../../helpers/prop.js'
import {describe, expect} from 'vitest'
import {summarizeTestOutput} from '../../../../src/logic/coach/summarize-test-output.js'
import {detectTestsFromResults} from '../../../../src/logic/coach/test-paths.js'
import {NULL_SINK} from '../../../../src/logic/log-sink.js'
import {pyLen} from '../../../../src/logic/python/strings.js'
import {FIXED, LEGACY, ROOT, worktree} from './helpers.js'

const segment = fc.stringMatching(/^[a-z][a-z0-9_]{0,6}$/)
const testFile = fc.tuple(fc.array(segment, {maxLength: 2}), segment).map(([dirs, name]) => ['tests', ...dirs, `test_${name}.py`].join('/'))
const files = fc.uniqueArray(testFile, {minLength: 1, maxLength: 5})

// docs/guardkit-logic.md §6.5 / D20: absolute and relative forms of one file are one test file in fixed, two in legacy.
describe('test detection properties (docs/guardkit-logic.md §6.5)', () => {
  test.prop([files, fc.boolean()], {numRuns: 200})('fixed runs each file once whatever mix of absolute and relative paths names it', (rel, inModified) => {
    const view = worktree(Object.fromEntries(rel.map((f) => [f, null])))
    const twins = rel.flatMap((f) => [`${ROOT}/${f}`, f])
    const twr = inModified ? {files_created: [], files_modified: twins} : {files_created: twins}
    const fixed = detectTestsFromResults(twr, view, FIXED, NULL_SINK)!
    expect(fixed.split(' ').filter((w) => w.endsWith('.py')).sort()).toEqual([...rel].sort())
    expect(detectTestsFromResults(twr, view, LEGACY, NULL_SINK)!.split(' ').filter((w) => w.endsWith('.py'))).toHaveLength(2 * rel.length)
  })
})

// docs/guardkit-logic.md §6.6: the summary never exceeds max_length code points.
describe('_summarize_test_output properties (docs/guardkit-logic.md §6.6)', () => {
  const line = fc.oneof(fc.constantFrom('1 failed in 0.2s', 'E   KeyError: 1', 'ok', '', '\r', '😀 passed'), fc.string({maxLength: 40}))
  test.prop([fc.array(line, {maxLength: 40}), fc.integer({min: 3, max: 300}), fc.constantFrom(LEGACY, FIXED)], {numRuns: 300})(
    'is at most max_length code points long',
    (lines, max, flags) => {
      expect(pyLen(summarizeTestOutput(lines.join('\n'), flags, max))).toBeLessThanOrEqual(max)
    },
  )
})
