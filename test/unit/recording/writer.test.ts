import {createHash} from 'node:crypto'
import {existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {afterEach, describe, expect, it} from 'vitest'
import {checkRecordingPath} from '../../../src/recording/manifest.js'
import {RecordingWriter} from '../../../src/recording/writer.js'
import {RecordingManifestV1Schema} from '../../../src/ingest/schemas/recording-manifest.schema.js'
import {loadRun} from '../../../src/services/load-run.js'
import {analyseToJson, verdictsOf} from '../../helpers/recording.js'

/**
 * The writer `record` and `live` share (docs/recording-format.md "Writing a recording"): files at
 * their own paths, earlier versions under versions/, the manifest last with every sha256, and what
 * it writes is read back by ingest as it was written.
 */
const root = fileURLToPath(new URL('../../..', import.meta.url))
const tool = {name: 'guardkit-replay', version: '9.9.9'}
const enc = (s: string) => new TextEncoder().encode(s)
const sha = (b: Uint8Array | Buffer) => createHash('sha256').update(b).digest('hex')
const dirs: string[] = []

function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'gr-writer-'))
  dirs.push(d)
  return d
}

afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, {recursive: true, force: true})
})

describe('RecordingWriter', () => {
  it('keeps earlier bytes of a path as versions, oldest first, and lists every file with its sha256', async () => {
    const dir = tmp()
    const w = await RecordingWriter.create(dir, {tool, createdBy: 'live', redacted: false})
    const path = '.guardkit/autobuild/TASK-A-001/player_turn_1.json'
    expect(await w.putFile(path, enc('{"v": 1}'), {seenAt: '2026-02-15T21:04:05.123Z', note: 'agent-written'})).toBe('new')
    expect(await w.putFile(path, enc('{"v": 1}'))).toBe('same')
    expect(await w.putFile(path, enc('{"v": 2}'), {seenAt: '2026-02-15T21:04:06.000Z'})).toBe('version')
    expect(await w.putFile(path, enc('{"v": 3}'))).toBe('version')
    await w.append('run.log', enc('line 1\n'))
    await w.append('run.log', enc('line 2\n'))
    w.markLog('run.log')
    w.addGap(path, 'rewritten twice within 50 ms; a version may have been missed')
    expect(existsSync(join(dir, 'guardkit-replay.json'))).toBe(false)
    const manifest = await w.finish()

    const onDisk = JSON.parse(readFileSync(join(dir, 'guardkit-replay.json'), 'utf8'))
    expect(RecordingManifestV1Schema.safeParse(onDisk).success).toBe(true)
    expect(onDisk).toEqual(JSON.parse(JSON.stringify(manifest)))
    expect(onDisk.tool).toEqual(tool)
    expect(onDisk.createdBy).toBe('live')
    expect(onDisk.files.map((f: {path: string}) => f.path)).toEqual([path, 'run.log'])
    for (const f of onDisk.files) {
      const bytes = readFileSync(join(dir, f.path))
      expect(f.sha256).toBe(sha(bytes))
      expect(f.bytes).toBe(bytes.length)
    }
    expect(readFileSync(join(dir, 'run.log'), 'utf8')).toBe('line 1\nline 2\n')
    expect(readFileSync(join(dir, path), 'utf8')).toBe('{"v": 3}')
    expect(onDisk.logs).toEqual(['run.log'])
    expect(onDisk.versions.map((v: {version: number; seenAt: string | null; note: string | null}) => [v.version, v.seenAt, v.note])).toEqual([
      [1, '2026-02-15T21:04:05.123Z', 'agent-written'],
      [2, '2026-02-15T21:04:06.000Z', null],
    ])
    for (const v of onDisk.versions) expect(v.sha256).toBe(sha(readFileSync(join(dir, v.file))))
    expect(readFileSync(join(dir, onDisk.versions[0].file), 'utf8')).toBe('{"v": 1}')
    expect(onDisk.gaps).toHaveLength(1)
    await expect(w.putFile('x.json', enc('{}'))).rejects.toThrow(/finished/)
  })

  it('refuses paths outside the recording, the manifest and versions/', async () => {
    const w = await RecordingWriter.create(tmp(), {tool, createdBy: 'record', redacted: true})
    for (const bad of ['../x.log', '/etc/passwd', 'a//b', './a', 'a/../b', 'C:/x', 'a\\b', 'guardkit-replay.json', 'versions/a/1', '']) {
      await expect(w.putFile(bad, enc('x'))).rejects.toThrow()
    }
    expect(checkRecordingPath('tasks/backlog/TASK-A-001.md')).toBeNull()
  })

  it('writes a RUN that ingest reads as written: versions as earlier artifact versions, no recording issue, the same verdicts', async () => {
    // ok-single-turn-promises rewritten as live would: the agent's player report first, then the invoker's
    const fixture = join(root, 'fixtures/runs/ok-single-turn-promises')
    const src = JSON.parse(readFileSync(join(fixture, 'guardkit-replay.json'), 'utf8')) as {files: {path: string}[]; versions: {path: string; file: string}[]}
    const dir = tmp()
    const w = await RecordingWriter.create(dir, {tool, createdBy: 'live', redacted: false})
    for (const v of src.versions) await w.putFile(v.path, readFileSync(join(fixture, v.file)), {seenAt: '2026-02-15T21:00:00.000Z'})
    for (const f of src.files) {
      if (f.path === 'run.log') await w.append('run.log', readFileSync(join(fixture, f.path)))
      else await w.putFile(f.path, readFileSync(join(fixture, f.path)))
    }
    w.markLog('run.log')
    const manifest = await w.finish()
    expect(manifest.versions.map((v) => v.path)).toEqual(src.versions.map((v) => v.path))

    const run = await loadRun(dir)
    expect(run.ingestIssues.filter((i) => i.code.startsWith('recording-'))).toEqual([])
    expect(run.fixture).toMatchObject({createdBy: 'live', redacted: false, toolVersion: '9.9.9', files: src.files.length})
    const reports = run.tasks[0]!.turns[0]!.artifacts?.playerReport ?? []
    expect(reports.map((r) => [r.file, r.seenAt])).toEqual([
      ['versions/.guardkit/autobuild/TASK-LOG-002/player_turn_1.json/1', '2026-02-15T21:00:00.000Z'],
      ['.guardkit/autobuild/TASK-LOG-002/player_turn_1.json', null],
    ])
    expect(verdictsOf(await analyseToJson(dir))).toEqual(verdictsOf(await analyseToJson(fixture)))
  })

  it('a declared log is read whatever its name or depth (manifest `logs`)', async () => {
    const fixture = join(root, 'fixtures/runs/ok-parallel-waves')
    const dir = tmp()
    const w = await RecordingWriter.create(dir, {tool, createdBy: 'record', redacted: false})
    await w.putFile('captures/2026/02/15/console', readFileSync(join(fixture, 'run.log')))
    w.markLog('captures/2026/02/15/console')
    await w.finish()
    const run = await loadRun(dir)
    expect(run.logs).toEqual(['captures/2026/02/15/console'])
    expect(verdictsOf(await analyseToJson(dir)).tasks).toEqual(verdictsOf(await analyseToJson(fixture)).tasks)
  })
})
