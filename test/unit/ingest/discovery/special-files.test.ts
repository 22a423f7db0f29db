import {createHash} from 'node:crypto'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {discoverRun} from '../../../../src/ingest/discover.js'
import {NOT_REGULAR} from '../../../../src/ingest/fs/file-port.js'
import {createNodeFilePort} from '../../../../src/ingest/fs/node-file-port.js'
import {createSyncFilePort} from '../../../../src/ingest/fs/sync-file-port.js'
import {RECORDING_MANIFEST_NAME} from '../../../../src/ingest/schemas/recording-manifest.schema.js'
import {UsageError} from '../../../../src/shared/errors.js'
import {hashTree} from '../../../helpers/run-helpers.js'
import {plantedTrees} from '../../../helpers/special-files.js'

// A FIFO, socket or device in RUN is never opened (docs/ingest.md): opening a FIFO for reading waits for a
// writer, forever. Found by the CLI fuzzer (test/fuzz/regressions/fifo-listed-in-recording.json).

const port = createNodeFilePort()
const LOG = 'INFO:guardkit.cli.autobuild:Starting feature orchestration: FEAT-X (max_turns=5)\nINFO:guardkit.orchestrator.autobuild:Starting orchestration for TASK-X-001 (resume=False)\nINFO:guardkit.orchestrator.autobuild:Executing turn 1/5\n'
const sha = (s: string): string => createHash('sha256').update(s).digest('hex')

const planted = plantedTrees()
afterEach(planted.cleanup)
async function tree(files: Parameters<typeof planted.tree>[0], pipes: readonly string[]): Promise<string> {
  const root = await planted.tree(files)
  for (const p of pipes) planted.fifo(join(root, p))
  return root
}

describe('special files in RUN', () => {
  // the sync port is the gate's (a FIFO in a corpus would block a worker thread for good)
  it.each([
    ['node', port],
    ['sync', createSyncFilePort()],
  ])('the %s file port refuses to read a FIFO, and does not wait for a writer', async (_name, filePort) => {
    const root = await tree({}, ['pipe.log'])
    await expect(filePort.readFile(join(root, 'pipe.log'), 1024)).rejects.toMatchObject({code: NOT_REGULAR})
    await expect(filePort.readChunks(join(root, 'pipe.log'), 1024, () => undefined)).rejects.toMatchObject({code: NOT_REGULAR})
  })

  it('discovery reports a FIFO and a link to one as special files, skips them, and reads the rest', async () => {
    const root = await tree({'run.log': LOG, 'alias.log': {symlink: 'pipe.log'}}, ['pipe.log', 'coach_turn_1.json'])
    const before = await hashTree(root)
    const d = await discoverRun(port, root)
    expect(d.logs.map((l) => l.rel)).toEqual(['run.log'])
    expect(d.issues.filter((i) => i.code === 'special-file').map((i) => [i.file, i.severity])).toEqual([
      ['alias.log', 'info'],
      ['coach_turn_1.json', 'info'],
      ['pipe.log', 'info'],
    ])
    expect(await hashTree(root)).toBe(before)
  })

  it('a FIFO at a path a recording manifest lists is reported as not a regular file, not opened', async () => {
    const manifest = JSON.stringify({format: 'guardkit-replay/recording', formatVersion: 1, tool: {name: 'guardkit-replay', version: '0.1.0'},
      files: [{path: 'run.log', sha256: sha(LOG)}]})
    const root = await tree({[RECORDING_MANIFEST_NAME]: manifest}, ['run.log'])
    const d = await discoverRun(port, root)
    expect(d.logs).toEqual([])
    expect(d.issues).toContainEqual(expect.objectContaining({file: RECORDING_MANIFEST_NAME, pointer: '/files/0', code: 'recording-file-missing',
      message: 'listed file run.log: not a regular file (a FIFO, socket or device): not read'}))
  })

  it('a FIFO given as RUN is a usage error (exit 2)', async () => {
    const root = await tree({}, ['pipe.log'])
    await expect(discoverRun(port, join(root, 'pipe.log'))).rejects.toBeInstanceOf(UsageError)
  })
})
