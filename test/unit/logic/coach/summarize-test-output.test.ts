import {describe, expect, it} from 'vitest'
import {summarizeTestOutput} from '../../../../src/logic/coach/summarize-test-output.js'
import {FIXED, LEGACY} from './helpers.js'

// Expected values: CPython 3.11 running the algorithm of docs/guardkit-logic.md §6.6 on these inputs.
const CASES: Array<[string, string, string, string, string, string]> = [
  ["crlf_context", "collected 2 items\r\nE   KeyError: 'x'\r\n\r\n  trailing  \r\n1 failed in 0.2s\r\n", "E   KeyError: 'x'\n1 failed in 0.2s", "Error detail:\ncollected 2 items\r\nE   KeyError: 'x'\r\n\r\n  trailing  \r\n1 failed in 0.2s\nResult:\nE   KeyError: 'x'\n1 failed in 0.2s", "E   KeyError: 'x'...", "Error detail:\ncol..."],
  ["astral", "\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00 1 passed\n\ud83d\ude00\ud83d\ude00 2 failed", "\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00 1 passed\n\ud83d\ude00\ud83d\ude00 2 failed", "Result:\n\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00 1 passed\n\ud83d\ude00\ud83d\ude00 2 failed", "\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00...", "Result:\n\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00..."],
  ["six_results", "test_0 passed\ntest_1 passed\ntest_2 passed\ntest_3 passed\ntest_4 passed\ntest_5 passed\ntest_6 passed", "test_4 passed\ntest_5 passed\ntest_6 passed", "Result:\ntest_2 passed\ntest_3 passed\ntest_4 passed\ntest_5 passed\ntest_6 passed", "test_4 passed\ntes...", "Result:\ntest_2 pa..."],
  ["unicode_ws", "\u0085 1 passed \u00a0", "1 passed", "Result:\n1 passed", "1 passed", "Result:\n1 passed"],
  ["upper_keywords", "ALL TESTS OK\nDONE", "ALL TESTS OK", "Result:\nALL TESTS OK", "ALL TESTS OK", "Result:\nALL TESTS OK"],
]

describe('_summarize_test_output (docs/guardkit-logic.md §6.6)', () => {
  it.each(CASES)('%s', (_name, output, legacy, fixed, legacy20, fixed20) => {
    expect(summarizeTestOutput(output, LEGACY)).toBe(legacy)
    expect(summarizeTestOutput(output, FIXED)).toBe(fixed)
    expect(summarizeTestOutput(output, LEGACY, 20)).toBe(legacy20)
    expect(summarizeTestOutput(output, FIXED, 20)).toBe(fixed20)
  })

  it('fixed: the error context is raw (\\r and blanks kept) and its lines may repeat under Result:', () => {
    const summary = summarizeTestOutput(CASES[0]![1], FIXED)
    expect(summary.split('Result:')[0]).toContain('\r\n\r\n')
    expect(summary.match(/E {3}KeyError/g)).toHaveLength(2)
  })

  it('default max_length is 500 in legacy and 1000 in fixed', () => {
    const output = 'x '.repeat(400) + '1 failed\n' + 'y '.repeat(400) + '2 failed'
    expect(summarizeTestOutput(output, LEGACY).length).toBe(500)
    expect(summarizeTestOutput(output, FIXED).length).toBe(1000)
  })
})
