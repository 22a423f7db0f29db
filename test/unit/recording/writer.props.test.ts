import {createHash} from 'node:crypto'
import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fc, test} from '../../helpers/prop.js'
import {afterAll, describe, expect} from 'vitest'
import {discoverRun} from '../../../src/ingest/discover.js'
import {createNodeFilePort} from '../../../src/ingest/fs/node-file-port.js'
import {RecordingWriter} from '../../../src/recording/writer.js'
import {runs} from '../../helpers/arbitraries/index.js'
import {expectManifestHashes, TOOL} from '../../helpers/recording.js'

/** The writer's manifest (docs/recording-format.md): every hash right, versions read back in the order written. */
const scratch = mkdtempSync(join(tmpdir(), 'gr-writer-props-'))
let n = 0
afterAll(() => rmSync(scratch, {recursive: true, force: true}))

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
