import {readFileSync} from 'node:fs'
import {describe, expect, it} from 'vitest'
import type {AdapterTable} from '../../../src/conformance/adapters/types.js'
import {runVectors} from '../../../src/conformance/run-vectors.js'
import {parseVectorLines} from '../../../src/conformance/vector.js'
import {VECTORS} from '../helpers.js'

/**
 * The oracle vectors of one conformance area (src/conformance/adapters/<area>.ts): every function of the area has
 * an adapter and vectors, and every vector passes — one case per vector, named by its function, version and line.
 */
export function describeAreaVectors(title: string, adapters: AdapterTable, fns: readonly string[]): void {
  const lines = parseVectorLines(readFileSync(VECTORS, 'utf8')).filter((l) => l.kind === 'vector' && fns.includes(l.vector.fn))
  const results = runVectors(lines).results.map((r) => ({...r, name: `${r.fn} ${r.version} (vectors.jsonl:${r.line})`}))

  describe(title, () => {
    it('has an adapter for every function of the area and vectors for each', () => {
      expect(Object.keys(adapters).sort()).toEqual([...fns].sort())
      const seen = new Set(results.map((r) => r.fn))
      for (const fn of fns) expect(seen.has(fn), fn).toBe(true)
    })

    it.each(results)('$name', (r) => {
      expect({status: r.status, reason: r.reason ?? null, actual: r.actual}).toEqual({status: 'pass', reason: null, actual: r.expected})
    })
  })
}
