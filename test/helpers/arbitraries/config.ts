/**
 * Seed and run-count policy of the property tests (docs/properties.md).
 *
 * - Every property states its run count with `runs(n)`; fewer than MIN_RUNS is refused.
 * - The seed is fixed (DEFAULT_SEED), so `npm test` explores the same inputs on every machine and a
 *   failure is reproducible as it is. `FC_SEED=<integer>` runs every property with that seed (to replay
 *   a seed printed by a failure); `FC_SEED=random` draws a fresh seed per property (exploration). The
 *   seed is in each test's name (`… (with seed=N)`), and fast-check prints seed and shrink path on failure.
 */
export const MIN_RUNS = 200
export const DEFAULT_SEED = 20261122

export interface PropertyRuns {
  readonly numRuns: number
  readonly seed?: number
}

export function resolveSeed(env: string | undefined): number | undefined {
  if (env === undefined || env === '') return DEFAULT_SEED
  if (env === 'random') return undefined
  const seed = Number(env)
  if (!Number.isSafeInteger(seed)) throw new Error(`FC_SEED must be an integer or "random", got ${JSON.stringify(env)}`)
  return seed | 0
}

const SEED = resolveSeed(process.env.FC_SEED)

/** Parameters of one property: its run count (at least MIN_RUNS) and the seed of the policy above. */
export function runs(numRuns: number): PropertyRuns {
  if (!Number.isInteger(numRuns) || numRuns < MIN_RUNS) throw new Error(`a property runs at least ${MIN_RUNS} times (got ${numRuns})`)
  return SEED === undefined ? {numRuns} : {numRuns, seed: SEED}
}
