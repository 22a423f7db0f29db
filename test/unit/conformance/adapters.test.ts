import {describe, expect, it} from 'vitest'
import {runVectors} from '../../../src/conformance/run-vectors.js'

// The conformance adapters (src/conformance/adapters/) on authored vectors. Each output is stated where the test
// states it: the Python helpers' semantics (CPython 3.11: md5 of the stripped, lower-cased text; str.isdigit),
// and the expectations of the logic's own unit tests (test/unit/logic/…), which were checked the same way. The
// oracle's real vectors run in the corpus tier (test/corpus/conformance/).
const run = (vector: {fn: string; version: string; input: unknown; output: unknown}) => runVectors([{kind: 'vector', line: 1, vector}]).results[0]!

describe('authored vectors pass through the adapters, the key order of the output included', () => {
  it.each([
    // orchestrator: legacy signs the feedback as sent; fixed signs it normalised (digits, Arabic-Indic ones too, → N)
    {fn: 'feedback_signature', version: 'legacy', input: {feedback: 'error at line ٤٢ of module'}, output: '51295dda'},
    {fn: 'feedback_signature', version: 'fixed', input: {feedback: 'error at line ٤٢ of module'}, output: '2d8478c4'},
    {fn: 'normalize_feedback_for_stall', version: 'fixed', input: {feedback: 'LINE 7 and line 8'}, output: 'LINE 7 and line N'},
    // requirements: one prefix removed, after stripping; keywords without stopwords, sorted, deduplicated case-blind
    {fn: 'strip_criterion_prefix', version: 'fixed', input: {text: '- [x] 1. done'}, output: '1. done'},
    {fn: 'strip_criterion_prefix', version: 'legacy', input: {text: '①. x'}, output: 'x'},
    {fn: 'extract_keywords', version: 'fixed', input: {text: 'file config FILE config'}, output: ['config', 'file']},
    // coach: the test-output summary (fixed prefixes `Result:`), and the failure class with its confidence
    {fn: 'summarize_test_output', version: 'legacy', input: {output: 'ALL TESTS OK\nDONE'}, output: 'ALL TESTS OK'},
    {fn: 'summarize_test_output', version: 'fixed', input: {output: 'ALL TESTS OK\nDONE'}, output: 'Result:\nALL TESTS OK'},
    {fn: 'classify_test_failure', version: 'fixed', input: {test_output: "E   ModuleNotFoundError: No module named 'asyncpg'", requires_infrastructure: ['postgresql']}, output: ['infrastructure', 'high']},
    // mode: the feature planner's task string, with fixed's criteria count deciding the mode
    {
      fn: 'parse_task_string',
      version: 'fixed',
      input: {task_str: 'T:N:3:A, B,,', acceptance_criteria_count: 2},
      output: {id: 'T', name: 'N', complexity: 3, implementation_mode: 'task-work', dependencies: ['A', 'B'], estimated_minutes: 33},
    },
  ])('$fn ($version)', (vector) => {
    const r = run(vector)
    expect({status: r.status, reason: r.reason ?? null, actual: r.actual}).toEqual({status: 'pass', reason: null, actual: vector.output})
  })

  it('fails a vector whose output differs, key order included, and shows what the model gave', () => {
    const output = {name: 'N', id: 'T', complexity: 3, implementation_mode: 'task-work', dependencies: ['A', 'B'], estimated_minutes: 33}
    const r = run({fn: 'parse_task_string', version: 'fixed', input: {task_str: 'T:N:3:A, B,,', acceptance_criteria_count: 2}, output})
    expect(r.status).toBe('fail')
    expect(r.actual).toEqual(output)
    expect(run({fn: 'feedback_signature', version: 'legacy', input: {feedback: 'x'}, output: '00000000'}).status).toBe('fail')
  })

  it('reports an unknown function or version as unsupported', () => {
    expect(run({fn: 'no_such_function', version: 'fixed', input: {}, output: null})).toMatchObject({status: 'unsupported', reason: 'no model for function "no_such_function"'})
    expect(run({fn: 'feedback_signature', version: 'newest', input: {feedback: 'x'}, output: null})).toMatchObject({status: 'unsupported', reason: 'unknown version "newest"'})
  })
})

describe('coach adapters', () => {
  it('reports functions that do not exist in a version as unsupported, not as failures', () => {
    const absent = [
      {fn: 'classify_test_failure', input: {test_output: 'E   ConnectionRefusedError'}},
      {fn: 'normalize_to_relative', input: {worktree: '/worktree/root', filepath: 'tests/test_a.py'}},
      {fn: 'is_custom_api_base', input: {ANTHROPIC_BASE_URL: 'http://localhost:8000'}},
      {fn: 'extract_content_text', input: {content: 'x'}},
      {fn: 'sdk_is_error_none_heuristic', input: {output_text: '1 passed'}},
    ]
    const results = runVectors(absent.map((v, i) => ({kind: 'vector', line: i + 1, vector: {...v, version: 'legacy', output: null}}))).results
    expect(results.map((r) => r.status)).toEqual(absent.map(() => 'unsupported'))
  })
})

describe('mode adapters', () => {
  it('reports a legacy call with acceptance_criteria_count as unsupported: the parameter does not exist there', () => {
    const vector = {fn: 'parse_task_string', version: 'legacy', input: {task_str: 'T:N:3:', acceptance_criteria_count: 4}, output: null}
    expect(runVectors([{kind: 'vector', line: 1, vector}]).results[0]!.status).toBe('unsupported')
  })
})

describe('Player-side (pipeline) adapters', () => {
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

describe('requirements adapters', () => {
  it('reports a legacy _hybrid_fallback vector as unsupported: the method does not exist there', () => {
    const vector = {fn: 'hybrid_fallback', version: 'legacy', input: {acceptance_criteria: ['a'], completion_promises: [], requirements_addressed: ['a']}, output: null}
    expect(runVectors([{kind: 'vector', line: 1, vector}]).results[0]!.status).toBe('unsupported')
  })
})
