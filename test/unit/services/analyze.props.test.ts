import {readdirSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {fc, test} from '../../helpers/prop.js'
import {beforeAll, describe, expect} from 'vitest'
import {runs} from '../../helpers/arbitraries/index.js'
import {sensitive} from '../../helpers/arbitraries/secrets.js'
import {injectAnywhere} from '../../helpers/inject.js'
import {createMemoryPort, type MemEntry, snapshotDirectory} from '../../helpers/memory-port.js'
import {analyseToJson} from '../../helpers/recording.js'

/**
 * `record` compares two analyses made in one process (RUN's and the recording's): sound only if an analysis
 * does not depend on what was analysed before it (docs/properties.md, "Determinism of the whole pipeline").
 * Generated runs: fixtures with names and secrets injected anywhere.
 */
const FIXTURES = fileURLToPath(new URL('../../../fixtures/runs/', import.meta.url))
const QUICK = ['ok-parallel-waves', 'hostile-log', 'ok-single-turn-promises'].filter((n) => readdirSync(FIXTURES).includes(n))
/** Not a folder on disk: RUN is read through the in-memory port only. */
const MOUNT = '/guardkit-replay-props-run'
const snapshots = new Map<string, Map<string, MemEntry>>()

beforeAll(() => {
  for (const name of QUICK) snapshots.set(name, snapshotDirectory(`${FIXTURES}${name}`, MOUNT))
})

describe('analysis keeps no state between runs', () => {
  // the quick fixtures only: four analyses a run
  test.prop([fc.array(fc.tuple(fc.constantFrom(...QUICK), fc.array(fc.record({s: sensitive, at: fc.nat()}), {maxLength: 2})), {minLength: 2, maxLength: 3})], runs(200))(
    'analyze of a run gives byte-identical JSON whatever was analysed before in the same process',
    async (sequence) => {
      const trees = sequence.map(([name, items]) => injectAnywhere(snapshots.get(name)!, items))
      const first = JSON.stringify(await analyseToJson(MOUNT, createMemoryPort(trees[0]!)))
      for (const tree of trees.slice(1)) await analyseToJson(MOUNT, createMemoryPort(tree))
      expect(JSON.stringify(await analyseToJson(MOUNT, createMemoryPort(trees[0]!)))).toBe(first)
    },
    120_000,
  )
})
