import {readFileSync} from 'node:fs'
import {describe, expect, it} from 'vitest'
import {REQUIREMENTS_ADAPTERS} from '../../../src/conformance/adapters/requirements.js'
import {runVectors} from '../../../src/conformance/run-vectors.js'
import {parseVectorLines} from '../../../src/conformance/vector.js'

const VECTORS = new URL('../../../../shared/oracle/vectors.jsonl', import.meta.url)

const REQUIREMENTS_FNS = [
  'strip_criterion_prefix',
  'extract_keywords',
  'match_by_text',
  'match_by_promises',
  'hybrid_fallback',
  'build_all_unmet',
  'load_completion_promises',
  'validate_requirements',
]

describe('oracle vectors of the requirements functions (docs/guardkit-logic.md §7, §12)', () => {
  const lines = parseVectorLines(readFileSync(VECTORS, 'utf8')).filter((l) => l.kind === 'vector' && REQUIREMENTS_FNS.includes(l.vector.fn))
  const report = runVectors(lines)

  it('has an adapter for every requirements function and vectors for each', () => {
    expect(Object.keys(REQUIREMENTS_ADAPTERS).sort()).toEqual([...REQUIREMENTS_FNS].sort())
    const seen = new Set(report.results.map((r) => r.fn))
    for (const fn of REQUIREMENTS_FNS) expect(seen.has(fn), fn).toBe(true)
  })

  it.each(REQUIREMENTS_FNS)('every %s vector passes', (fn) => {
    const results = report.results.filter((r) => r.fn === fn)
    const failing = results.filter((r) => r.status !== 'pass').map((r) => ({line: r.line, version: r.version, reason: r.reason, expected: r.expected, actual: r.actual}))
    expect(failing).toEqual([])
    expect(results.length).toBeGreaterThan(0)
  })

  it('reports a legacy _hybrid_fallback vector as unsupported: the method does not exist there', () => {
    const vector = {fn: 'hybrid_fallback', version: 'legacy', input: {acceptance_criteria: ['a'], completion_promises: [], requirements_addressed: ['a']}, output: null}
    expect(runVectors([{kind: 'vector', line: 1, vector}]).results[0]!.status).toBe('unsupported')
  })
})
