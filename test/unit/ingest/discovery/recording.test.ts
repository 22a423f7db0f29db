import {afterEach, describe, expect, it} from 'vitest'
import {createHash} from 'node:crypto'
import {discoverRun} from '../../../../src/ingest/discover.js'
import {createNodeFilePort} from '../../../../src/ingest/fs/node-file-port.js'
import {RECORDING_MANIFEST_NAME} from '../../../../src/ingest/schemas/recording-manifest.schema.js'
import {ingestPath, makeTree, removeTree} from '../../../helpers/run-helpers.js'

// Recordings as docs/recording-format.md lays them out.
const port = createNodeFilePort()
const sha = (s: string): string => createHash('sha256').update(s).digest('hex')
// a run.log without GuardKit records: a recording's run.log is read as a log whatever it holds
const LOG = 'captured by guardkit-replay live\n'
const ARTIFACT = '.guardkit/autobuild/TASK-F-001/player_turn_1.json'
const AGENT = '{"task_id": "TASK-F-001", "turn": 1, "completion_promises": [{"criterion_id": "AC-001", "status": "complete"}]}'
const INVOKER = '{"task_id": "TASK-F-001", "turn": 1, "implementation_notes": "Implementation via task-work delegation"}'
const VERSION_FILE = `versions/${ARTIFACT}/1`

function manifest(overrides: Record<string, unknown> = {}, files: Record<string, string> = {'run.log': LOG, [ARTIFACT]: INVOKER}): string {
  return JSON.stringify({
    format: 'guardkit-replay/recording', formatVersion: 1, tool: {name: 'guardkit-replay', version: '0.1.0'}, createdBy: 'live', redacted: true,
    files: Object.entries(files).map(([path, content]) => ({path, sha256: sha(content), bytes: content.length})),
    versions: [{path: ARTIFACT, version: 1, file: VERSION_FILE, seenAt: '2026-02-15T21:04:05.123Z', sha256: sha(AGENT), note: 'agent-written'}],
    gaps: [{path: '.guardkit/autobuild/TASK-F-001/task_work_results.json', message: 'rewritten twice within 50 ms; a version may have been missed'}],
    ...overrides,
  })
}

const roots: string[] = []
async function recording(files: Record<string, string>): Promise<string> {
  const root = await makeTree({'run.log': LOG, [ARTIFACT]: INVOKER, [VERSION_FILE]: AGENT, ...files})
  roots.push(root)
  return root
}
afterEach(async () => {
  for (const r of roots.splice(0)) await removeTree(r)
})

describe('recordings written by record/live', () => {
  it('recognises the manifest: tool, run.log as a log, earlier versions, and the recorder\'s gaps', async () => {
    const d = await discoverRun(port, await recording({[RECORDING_MANIFEST_NAME]: manifest()}))
    expect(d.issues).toEqual([expect.objectContaining({file: RECORDING_MANIFEST_NAME, pointer: '/gaps/0', code: 'recording-gap', severity: 'info'})])
    expect(d.fixture?.info).toEqual({file: RECORDING_MANIFEST_NAME, toolName: 'guardkit-replay', toolVersion: '0.1.0', createdBy: 'live', redacted: true, files: 2})
    expect(d.logs.map((l) => l.rel)).toEqual(['run.log'])
    expect(d.fixture?.versions.get(ARTIFACT)).toEqual([{file: VERSION_FILE, seenAt: '2026-02-15T21:04:05.123Z'}])
    // versions/ is read through the manifest, not taken for a worktree
    expect(d.worktrees.map((w) => w.rel)).toEqual(['.'])
  })

  it('keeps every version of a player report, oldest first, the final one last', async () => {
    const record = await ingestPath(await recording({[RECORDING_MANIFEST_NAME]: manifest()}))
    expect(record.fixture?.toolVersion).toBe('0.1.0')
    const turn = record.tasks.find((t) => t.taskId === 'TASK-F-001')!.turns[0]!
    expect(turn.artifacts.playerReport.map((v) => [v.file, v.seenAt, v.schema])).toEqual([
      [VERSION_FILE, '2026-02-15T21:04:05.123Z', 'player_turn.v2'],
      [ARTIFACT, null, 'player_turn.v1'],
    ])
  })

  it('reports a file changed since recording and a listed file that is missing; still reads the rest', async () => {
    const root = await recording({'run.log': LOG + 'edited\n', [RECORDING_MANIFEST_NAME]: manifest({gaps: []}, {'run.log': LOG, [ARTIFACT]: INVOKER, 'gone.json': '{}'})})
    const d = await discoverRun(port, root)
    expect(d.issues).toEqual([
      expect.objectContaining({file: RECORDING_MANIFEST_NAME, pointer: '/files/0', code: 'recording-hash-mismatch', severity: 'warning'}),
      expect.objectContaining({file: RECORDING_MANIFEST_NAME, pointer: '/files/2', code: 'recording-file-missing', severity: 'warning'}),
    ])
    expect(d.logs.map((l) => l.rel)).toEqual(['run.log'])
  })

  it('a manifest of the wrong shape is an issue with a JSON pointer, and RUN is read as a plain directory', async () => {
    const d = await discoverRun(port, await recording({[RECORDING_MANIFEST_NAME]: manifest({formatVersion: 'one'})}))
    expect(d.fixture).toBeNull()
    expect(d.issues).toEqual([
      expect.objectContaining({file: RECORDING_MANIFEST_NAME, pointer: '/formatVersion', code: 'json-shape', severity: 'error'}),
      // no longer declared by the manifest, run.log is judged by its content
      expect.objectContaining({file: 'run.log', code: 'not-a-log', severity: 'info'}),
    ])
    expect(d.worktrees.map((w) => w.rel)).toEqual(['.'])
  })

  it('a path escaping the recording is refused', async () => {
    const d = await discoverRun(port, await recording({[RECORDING_MANIFEST_NAME]: manifest({gaps: [], versions: [{path: ARTIFACT, version: 1, file: '../x'}]})}))
    expect(d.issues).toEqual([expect.objectContaining({pointer: '/versions/0', code: 'recording-path'})])
  })
})
