import {readFileSync} from 'node:fs'
import {runVectors, type VectorResult} from '../../../src/conformance/run-vectors.js'
import {parseVectorLines} from '../../../src/conformance/vector.js'
import {VECTORS} from '../helpers.js'

export type NamedResult = VectorResult & {readonly name: string}

/** The oracle vectors of the given functions, each run through the model, named by function, version and line. */
export function areaVectorResults(fns: readonly string[]): NamedResult[] {
  const lines = parseVectorLines(readFileSync(VECTORS, 'utf8')).filter((l) => l.kind === 'vector' && fns.includes(l.vector.fn))
  return runVectors(lines).results.map((r) => ({...r, name: `${r.fn} ${r.version} (vectors.jsonl:${r.line})`}))
}

/** The functions of `fns` no vector exercises. */
export function withoutVectors(fns: readonly string[], results: readonly NamedResult[]): string[] {
  const seen = new Set(results.map((r) => r.fn))
  return fns.filter((fn) => !seen.has(fn))
}

/** What a result says, in the shape a passing vector has: the failure's reason and the model's output on a diff. */
export const verdictOf = (r: NamedResult) => ({status: r.status, reason: r.reason ?? null, actual: r.actual})
export const passing = (r: NamedResult) => ({status: 'pass', reason: null, actual: r.expected})
