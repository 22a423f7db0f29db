import {existsSync, mkdtempSync, readdirSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {fc, test} from '../../helpers/prop.js'
import {afterAll, beforeAll, describe, expect} from 'vitest'
import {runRecord} from '../../../src/services/record.js'
import {UsageError} from '../../../src/shared/errors.js'
import {runs} from '../../helpers/arbitraries/index.js'
import {sensitive} from '../../helpers/arbitraries/secrets.js'
import {allBytes, analyseToJson, expectManifestHashes, TOOL, verdictsOf} from '../../helpers/recording.js'
import {injectAnywhere, latin1} from '../../helpers/inject.js'
import {createMemoryPort, type MemEntry, seededRandom, shuffle, snapshotDirectory} from '../../helpers/memory-port.js'

/**
 * `record` then `analyze` (docs/properties.md "Recording and redaction"; docs/recording-format.md):
 * on generated runs — fixtures with names and secrets injected anywhere, feedback and criteria included — `record`
 * either writes a recording whose analysis has the verdicts of RUN's (outcomes, stall turns,
 * per-turn criteria, signatures and fidelity under the inferred profile, legacy and fixed; finding
 * codes and turns), every file with the sha256 the manifest states and none of the injected secrets,
 * or refuses because redaction would change a signature, writes nothing, and records the run
 * unredacted with the same verdicts. What the comparison rests on, that an analysis keeps no state
 * between runs, is test/unit/services/analyze.props.test.ts; the writer's manifest,
 * test/unit/recording/writer.props.test.ts.
 */
const FIXTURES = fileURLToPath(new URL('../../../fixtures/runs/', import.meta.url))
const NAMES = ['ok-single-turn-promises', 'ok-parallel-waves', 'hostile-log', 'ok-approved-after-feedback', 'ac1a-run2-sft001'].filter((n) => readdirSync(FIXTURES).includes(n))
const QUICK = ['ok-parallel-waves', 'hostile-log', 'ok-single-turn-promises']
/** Not a folder on disk: RUN is read through the in-memory port only. */
const MOUNT = '/guardkit-replay-props-run'
const NONE = {users: [], hosts: [], homes: []}
const SILENT = {step: () => undefined, done: () => undefined}
const snapshots = new Map<string, Map<string, MemEntry>>()
const scratch = mkdtempSync(join(tmpdir(), 'gr-record-props-'))
let n = 0

beforeAll(() => {
  for (const name of NAMES) snapshots.set(name, snapshotDirectory(`${FIXTURES}${name}`, MOUNT))
})
afterAll(() => rmSync(scratch, {recursive: true, force: true}))

describe('record → analyze = analyze', () => {
  // the quick fixtures more often (each run replays RUN four times: twice in record, twice here)
  const fixture = fc.oneof(...NAMES.map((name) => ({weight: QUICK.includes(name) ? 3 : 1, arbitrary: fc.constant(name)})))
  test.prop([fixture, fc.array(fc.record({s: sensitive, at: fc.nat()}), {maxLength: 5}), fc.integer()], runs(200))(
    'the recording replays as RUN does, or record refuses, writes nothing, and --no-redact records it (RUN listed in any order, read in any chunks)',
    async (name, items, seed) => {
      const run = injectAnywhere(snapshots.get(name)!, items)
      const expected = verdictsOf(await analyseToJson(MOUNT, createMemoryPort(run)))
      const out = join(scratch, `r${++n}`)
      const random = seededRandom(seed)
      const port = () => createMemoryPort(run, {order: (names) => shuffle(names, random), chunkSizes: () => 1 + Math.floor(random() * 5000)})
      try {
        await runRecord(MOUNT, {out, tool: TOOL, machine: NONE, port: port(), progress: SILENT})
        const bytes = allBytes(out)
        for (const {s} of items) for (const g of s.gone) expect(bytes, `${s.kind}: ${g}`).not.toContain(latin1(g))
      } catch (error) {
        if (!(error instanceof UsageError && error.message.startsWith('Not recorded: redaction would change'))) throw error
        expect(existsSync(out)).toBe(false)
        await runRecord(MOUNT, {out, tool: TOOL, machine: NONE, port: port(), progress: SILENT, redact: false})
      }
      expect(verdictsOf(await analyseToJson(out))).toEqual(expected)
      expectManifestHashes(out)
      rmSync(out, {recursive: true, force: true})
    },
    120_000,
  )
})
