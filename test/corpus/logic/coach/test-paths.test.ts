import {readFileSync} from 'node:fs'
import {describe, expect, it} from 'vitest'
import {VECTORS} from '../../helpers.js'

/** A vector's output (real GuardKit output), found by function, version and input. */
function vectorOutput(fn: string, version: 'legacy' | 'fixed', input: unknown): unknown {
  const want = JSON.stringify(input)
  for (const line of readFileSync(VECTORS, 'utf8').split('\n')) {
    if (!line.trim()) continue
    const v = JSON.parse(line) as {fn: string; version: string; input: unknown; output: unknown}
    if (v.fn === fn && v.version === version && JSON.stringify(v.input) === want) return v.output
  }
  throw new Error(`no ${fn} ${version} vector for ${want}`)
}

const ROOT = '/worktree/root'

/**
 * The named counterexamples of test/unit/logic/coach/test-paths.props.test.ts ("where fixed still runs one
 * file twice") state GuardKit's outputs as literals; these are the vectors that hold them.
 */
describe('the dedup counterexamples are GuardKit\'s own outputs (oracle vectors)', () => {
  it.each([
    {fn: 'detect_tests_from_results', input: {existing_files: ['tests/test_a.py'], task_work_results: {files_created: ['./tests/test_a.py', 'tests/test_a.py']}}, want: 'pytest ./tests/test_a.py tests/test_a.py -v --tb=short'},
    {fn: 'normalize_to_relative', input: {worktree: ROOT, filepath: './tests/test_a.py'}, want: './tests/test_a.py'},
    {fn: 'normalize_to_relative', input: {worktree: ROOT, filepath: '/worktree/root/../root/tests/test_a.py'}, want: '../root/tests/test_a.py'},
    {fn: 'detect_tests_from_results', input: {existing_files: ['tests/test_a.py'], task_work_results: {files_created: ['tests\\test_a.py', 'C:\\wt\\tests\\test_a.py']}}, want: null},
  ])('$fn $input → $want', ({fn, input, want}) => {
    expect(vectorOutput(fn, 'fixed', input)).toBe(want)
  })
})
