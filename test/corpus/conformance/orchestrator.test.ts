import {readFileSync} from 'node:fs'
import {describe, expect, it} from 'vitest'
import {ORCHESTRATOR_ADAPTERS} from '../../../src/conformance/adapters/orchestrator.js'
import {runVectors} from '../../../src/conformance/run-vectors.js'
import {parseVectorLines} from '../../../src/conformance/vector.js'

const VECTORS = new URL('../../../../shared/oracle/vectors.jsonl', import.meta.url)

const ORCHESTRATOR_FNS = [
  'feedback_signature',
  'normalize_feedback_for_stall',
  'is_feedback_stalled_sequence',
  'loop_phase',
  'extract_feedback',
  'count_criteria_passed',
  'display_criteria_progress',
  'build_error_message',
  'build_summary_details',
  'completion_promise_from_dict',
  'orchestrate_display_crash',
  'feature_task_timeout',
]

describe('oracle vectors of the orchestrator functions (docs/guardkit-logic.md §8, §12)', () => {
  const lines = parseVectorLines(readFileSync(VECTORS, 'utf8')).filter((l) => l.kind === 'vector' && ORCHESTRATOR_FNS.includes(l.vector.fn))
  const report = runVectors(lines)

  it('has an adapter for every orchestrator function and vectors for each', () => {
    expect(Object.keys(ORCHESTRATOR_ADAPTERS).sort()).toEqual([...ORCHESTRATOR_FNS].sort())
    const seen = new Set(report.results.map((r) => r.fn))
    for (const fn of ORCHESTRATOR_FNS) expect(seen.has(fn), fn).toBe(true)
  })

  it.each(ORCHESTRATOR_FNS)('every %s vector passes', (fn) => {
    const results = report.results.filter((r) => r.fn === fn)
    const failing = results.filter((r) => r.status !== 'pass').map((r) => ({line: r.line, version: r.version, reason: r.reason, expected: r.expected, actual: r.actual}))
    expect(failing).toEqual([])
    expect(results.length).toBeGreaterThan(0)
  })
})
