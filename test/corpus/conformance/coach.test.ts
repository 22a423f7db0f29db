import {readFileSync} from 'node:fs'
import {describe, expect, it} from 'vitest'
import {COACH_ADAPTERS} from '../../../src/conformance/adapters/coach.js'
import {runVectors} from '../../../src/conformance/run-vectors.js'
import {parseVectorLines} from '../../../src/conformance/vector.js'

const VECTORS = new URL('../../../../shared/oracle/vectors.jsonl', import.meta.url)

const COACH_FNS = [
  'resolve_profile',
  'verify_quality_gates',
  'coach_validate',
  'summarize_test_output',
  'classify_test_failure',
  'normalize_to_relative',
  'detect_tests_from_results',
  'detect_test_command',
  'sdk_is_error_none_heuristic',
  'run_independent_tests_dispatch',
  'is_custom_api_base',
  'extract_content_text',
]

describe('oracle vectors of the coach functions (docs/guardkit-logic.md §6, §12)', () => {
  const lines = parseVectorLines(readFileSync(VECTORS, 'utf8')).filter((l) => l.kind === 'vector' && COACH_FNS.includes(l.vector.fn))
  const report = runVectors(lines)

  it('has an adapter for every coach function and vectors for each', () => {
    expect(Object.keys(COACH_ADAPTERS).sort()).toEqual([...COACH_FNS].sort())
    const seen = new Set(report.results.map((r) => r.fn))
    for (const fn of COACH_FNS) expect(seen.has(fn), fn).toBe(true)
  })

  it.each(COACH_FNS)('every %s vector passes', (fn) => {
    const results = report.results.filter((r) => r.fn === fn)
    const failing = results.filter((r) => r.status !== 'pass').map((r) => ({line: r.line, version: r.version, reason: r.reason, expected: r.expected, actual: r.actual}))
    expect(failing).toEqual([])
    expect(results.length).toBeGreaterThan(0)
  })

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
