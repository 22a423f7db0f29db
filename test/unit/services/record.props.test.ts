import {createHash} from 'node:crypto'
import {existsSync, mkdtempSync, readdirSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {fc, test} from '@fast-check/vitest'
import {afterAll, beforeAll, describe, expect} from 'vitest'
import {discoverRun} from '../../../src/ingest/discover.js'
import {createNodeFilePort} from '../../../src/ingest/fs/node-file-port.js'
import {RecordingWriter} from '../../../src/recording/writer.js'
import {runRecord} from '../../../src/services/record.js'
import {UsageError} from '../../../src/shared/errors.js'
import {runs} from '../../helpers/arbitraries/index.js'
import {sensitive} from '../../helpers/arbitraries/secrets.js'
import {allBytes, analyseToJson, expectManifestHashes, TOOL, verdictsOf} from '../../helpers/recording.js'
import {injectAnywhere, latin1} from '../../helpers/inject.js'
import {createMemoryPort, type MemEntry, seededRandom, shuffle, snapshotDirectory} from '../../helpers/memory-port.js'

/**
 * `record` then `analyze` (issue "Property tests"; docs/recording-format.md): on generated runs —
 * fixtures with names and secrets injected anywhere, feedback and criteria included — `record`
 * either writes a recording whose analysis has the verdicts of RUN's (outcomes, stall turns,
 * per-turn criteria, signatures and fidelity under the inferred profile, legacy and fixed; finding
 * codes and turns), every file with the sha256 the manifest states and none of the injected secrets,
 * or refuses because redaction would change a signature, writes nothing, and records the run
 * unredacted with the same verdicts. And the writer's manifest: every hash right, versions read back
 * in the order written. And, what the comparison rests on: an analysis keeps no state between runs.
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

describe('analysis keeps no state between runs', () => {
  // record compares two analyses made in one process (RUN's and the recording's); that is sound only if
  // an analysis does not depend on what was analysed before it (docs/properties.md, "Determinism of the whole pipeline")
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

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')
const PATHS = ['.guardkit/autobuild/TASK-A-001/player_turn_1.json', '.guardkit/autobuild/TASK-A-001/task_work_results.json', 'tasks/backlog/TASK-A-001-x.md']

describe('the manifest', () => {
  // docs/recording-format.md: "the final version of each file stays at its own path; earlier versions live under versions/"
  test.prop([fc.array(fc.tuple(fc.constantFrom(...PATHS), fc.constantFrom('{"a": 1}', '{"a": 2}', '{"b": [1, 2]}', '---\nid: X\n---\n')), {minLength: 1, maxLength: 12})], runs(200))(
    'every listed file has the sha256 it states, and versions are read back in the order written',
    async (writes) => {
      const dir = join(scratch, `m${++n}`)
      const w = await RecordingWriter.create(dir, {tool: TOOL, createdBy: 'live', redacted: false})
      const seen = new Map<string, string[]>()
      for (const [i, [path, text]] of writes.entries()) {
        await w.putFile(path, new TextEncoder().encode(text), {seenAt: `2026-02-15T21:00:${String(i).padStart(2, '0')}.000Z`})
        const list = seen.get(path) ?? []
        if (list[list.length - 1] !== text) list.push(text)
        seen.set(path, list)
      }
      const manifest = await w.finish()
      expectManifestHashes(dir)
      for (const [path, texts] of seen) {
        expect(readFileSync(join(dir, path), 'utf8')).toBe(texts[texts.length - 1])
        const versions = manifest.versions.filter((v) => v.path === path)
        expect(versions.map((v) => readFileSync(join(dir, v.file), 'utf8'))).toEqual(texts.slice(0, -1))
        expect(versions.map((v) => v.sha256)).toEqual(texts.slice(0, -1).map((t) => sha(new TextEncoder().encode(t))))
      }
      // ingest's reader agrees: same files, versions oldest first, nothing reported
      const discovery = await discoverRun(createNodeFilePort(), dir)
      expect(discovery.issues.filter((i) => i.code.startsWith('recording-'))).toEqual([])
      for (const [path, texts] of seen) {
        expect((discovery.fixture?.versions.get(path) ?? []).map((v) => readFileSync(join(dir, v.file), 'utf8'))).toEqual(texts.slice(0, -1))
      }
      rmSync(dir, {recursive: true, force: true})
    },
  )
})
