import {existsSync, readdirSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {fc, test} from '../../helpers/prop.js'
import {beforeAll, describe, expect, it} from 'vitest'
import {loadRun} from '../../../src/services/load-run.js'
import {runs} from '../../helpers/arbitraries/index.js'
import {createMemoryPort, type MemEntry, seededRandom, shuffle, snapshotDirectory} from '../../helpers/memory-port.js'

const FIXTURES = fileURLToPath(new URL('../../../fixtures/', import.meta.url))

/** Every replay fixture (a directory with expected.yaml) and the bad-worktree ingest fixture. */
const NAMES = [
  ...readdirSync(`${FIXTURES}runs`)
    .filter((n) => existsSync(`${FIXTURES}runs/${n}/expected.yaml`))
    .map((n) => `runs/${n}`),
  'ingest/bad-worktree',
].sort()

const mount = (name: string) => `/run/${name.replace('/', '-')}`
const snapshots = new Map<string, Map<string, MemEntry>>(NAMES.map((n) => [n, snapshotDirectory(`${FIXTURES}${n}`, mount(n))]))
const baseline = new Map<string, string>()

async function ingestJson(name: string, seed: number | null): Promise<string> {
  const random = seed === null ? null : seededRandom(seed)
  const port = createMemoryPort(snapshots.get(name)!, random === null ? {} : {
    order: (names) => shuffle(names, random),
    // 0-3 microtask ticks, sometimes a macrotask: any completion order a concurrent reader could see
    delay: async () => {
      const r = random()
      if (r < 0.1) await new Promise((done) => setImmediate(done))
      else for (let i = 0; i < Math.floor(r * 4); i++) await Promise.resolve()
    },
    chunkSizes: () => (random() < 0.5 ? 1 + Math.floor(random() * 64) : 1 + Math.floor(random() * 65536)),
  })
  return JSON.stringify(await loadRun(mount(name), {port}))
}

// docs/architecture.md ("same input, byte-identical output") and docs/ingest.md: RUN → RunRecord through load-run.
describe('ingest is deterministic over file-read order', () => {
  beforeAll(async () => {
    for (const name of NAMES) baseline.set(name, await ingestJson(name, null))
  })

  it('the in-memory port reads each fixture as the disk does', async () => {
    for (const name of NAMES) {
      const fromDisk = JSON.stringify(await loadRun(`${FIXTURES}${name}`))
      expect(baseline.get(name)).toBe(fromDisk.split(JSON.stringify(`${FIXTURES}${name}`)).join(JSON.stringify(mount(name))))
    }
  })

  test.prop([fc.constantFrom(...NAMES), fc.integer()], runs(200))(
    'the same files, listed in any order, read with any timing and chunking, give byte-identical RunRecord JSON',
    async (name, seed) => {
      expect(await ingestJson(name, seed)).toBe(baseline.get(name))
    },
  )
})
