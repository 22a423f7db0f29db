import {readFileSync} from 'node:fs'
import {describe, expect, it} from 'vitest'
import {PIPELINE_ADAPTERS} from '../../../src/conformance/adapters/pipeline.js'
import {runVectors} from '../../../src/conformance/run-vectors.js'
import {parseVectorLines} from '../../../src/conformance/vector.js'

const VECTORS = new URL('../../../../shared/oracle/vectors.jsonl', import.meta.url)

const PIPELINE_FNS = [
  'parser',
  'is_valid_file_path',
  'write_task_work_results',
  'write_direct_mode_results',
  'write_player_report_for_direct_mode',
  'create_player_report_from_task_work',
  'create_synthetic_direct_mode_report',
  'sr_generate_file_existence_promises',
  'invoker_generate_file_existence_promises',
  'autobuild_generate_file_existence_promises',
  'generate_git_analysis_promises',
  'extract_code_patterns',
  'extract_criterion_keywords',
  'build_synthetic_report',
  'direct_mode_missing_report_flow',
]

describe('oracle vectors of the Player-side functions (docs/guardkit-logic.md §4, §5, §12)', () => {
  const lines = parseVectorLines(readFileSync(VECTORS, 'utf8')).filter((l) => l.kind === 'vector' && PIPELINE_FNS.includes(l.vector.fn))
  const report = runVectors(lines)

  it('has an adapter for every pipeline function and vectors for each', () => {
    expect(Object.keys(PIPELINE_ADAPTERS).sort()).toEqual([...PIPELINE_FNS].sort())
    const seen = new Set(report.results.map((r) => r.fn))
    for (const fn of PIPELINE_FNS) expect(seen.has(fn), fn).toBe(true)
  })

  it.each(PIPELINE_FNS)('every %s vector passes', (fn) => {
    const results = report.results.filter((r) => r.fn === fn)
    const failing = results.filter((r) => r.status !== 'pass').map((r) => ({line: r.line, version: r.version, reason: r.reason, expected: r.expected, actual: r.actual}))
    expect(failing).toEqual([])
    expect(results.length).toBeGreaterThan(0)
  })

  it.each([
    ['is_valid_file_path', {path: 'a.py'}],
    ['create_synthetic_direct_mode_report', {task_id: 'T', turn: 1, git_changes: {created: [], modified: []}}],
    ['sr_generate_file_existence_promises', {files_created: [], files_modified: [], acceptance_criteria: [], use_worktree: false}],
    ['invoker_generate_file_existence_promises', {files_created: [], files_modified: [], acceptance_criteria: []}],
  ])('reports a legacy %s vector as unsupported: the function does not exist at f86b1bf9', (fn, input) => {
    const vector = {fn, version: 'legacy', input, output: null}
    expect(runVectors([{kind: 'vector', line: 1, vector}]).results[0]!.status).toBe('unsupported')
  })

  it('runs the fixed-only functions under an as-run profile that has them', () => {
    // The seed-exact Fix 5 helper (723e5f4e..71a5fb57): a backtick ref found in the lists is `partial`.
    const vector = {
      fn: 'invoker_generate_file_existence_promises', version: 'as-run:723e5f4e',
      input: {files_created: ['tests/seam/__init__.py'], files_modified: [], acceptance_criteria: ['`tests/seam/__init__.py` created', 'No refs']},
      output: [
        {criterion_id: 'AC-001', status: 'partial', evidence: 'File existence verified: tests/seam/__init__.py', evidence_type: 'file_existence'},
        {criterion_id: 'AC-002', status: 'incomplete', evidence: 'No file references found or verified', evidence_type: 'file_existence'},
      ],
    }
    expect(runVectors([{kind: 'vector', line: 1, vector}]).results[0]!.status).toBe('pass')
  })
})
