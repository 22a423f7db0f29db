import {readFileSync} from 'node:fs'
import {describe, expect, it} from 'vitest'
import {MODE_ADAPTERS} from '../../../src/conformance/adapters/mode.js'
import {runVectors} from '../../../src/conformance/run-vectors.js'
import {parseVectorLines} from '../../../src/conformance/vector.js'

const VECTORS = new URL('../../../../shared/oracle/vectors.jsonl', import.meta.url)

const MODE_FNS = [
  'auto_detect_direct_mode',
  'parse_task_string',
  'extract_acceptance_criteria',
  'generate_feature_yaml_tasks_json_mode',
  'generate_feature_yaml_task_flag_mode',
]

describe('oracle vectors of the mode functions (docs/guardkit-logic.md §9, §12)', () => {
  const lines = parseVectorLines(readFileSync(VECTORS, 'utf8')).filter((l) => l.kind === 'vector' && MODE_FNS.includes(l.vector.fn))
  const report = runVectors(lines)

  it('has an adapter for every mode function and vectors for each', () => {
    expect(Object.keys(MODE_ADAPTERS).sort()).toEqual([...MODE_FNS].sort())
    const seen = new Set(report.results.map((r) => r.fn))
    for (const fn of MODE_FNS) expect(seen.has(fn), fn).toBe(true)
  })

  it.each(MODE_FNS)('every %s vector passes', (fn) => {
    const results = report.results.filter((r) => r.fn === fn)
    const failing = results.filter((r) => r.status !== 'pass').map((r) => ({line: r.line, version: r.version, reason: r.reason, expected: r.expected, actual: r.actual}))
    expect(failing).toEqual([])
    expect(results.length).toBeGreaterThan(0)
  })

  it('reports a legacy call with acceptance_criteria_count as unsupported: the parameter does not exist there', () => {
    const vector = {fn: 'parse_task_string', version: 'legacy', input: {task_str: 'T:N:3:', acceptance_criteria_count: 4}, output: null}
    expect(runVectors([{kind: 'vector', line: 1, vector}]).results[0]!.status).toBe('unsupported')
  })
})
