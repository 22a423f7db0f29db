import {join} from 'node:path'
import {gzipSync} from 'node:zlib'
import {afterEach, describe, expect, it} from 'vitest'
import {readRun} from '../../../../src/ingest/index.js'
import {createNodeFilePort} from '../../../../src/ingest/fs/node-file-port.js'
import {compressionOf} from '../../../../src/ingest/fs/text-bytes.js'
import {loadRunContent} from '../../../../src/services/load-run.js'
import {UsageError} from '../../../../src/shared/errors.js'
import {ingestPath, makeTree, removeTree} from '../../../helpers/run-helpers.js'

/** A compressed log is said to be one, with the command that reads it, and not read as lines of binary (docs/ingest.md "What RUN may be"). */
const port = createNodeFilePort()
const LOG = [
  'dev@mac app % guardkit autobuild feature FEAT-X',
  'INFO:guardkit.cli.autobuild:Starting feature orchestration: FEAT-X (max_turns=5)',
  'INFO:guardkit.orchestrator.autobuild:Starting orchestration for TASK-X-001 (resume=False)',
  'INFO:guardkit.orchestrator.autobuild:Executing turn 1/5',
].join('\n')
const GZ = gzipSync(Buffer.from(LOG))
const bytes = (...b: number[]) => Uint8Array.from([...b, 0, 0, 0, 0, 0, 0, 0, 0])
let roots: string[] = []
afterEach(async () => {
  for (const r of roots) await removeTree(r)
  roots = []
})
async function tree(files: Parameters<typeof makeTree>[0]): Promise<string> {
  const root = await makeTree(files)
  roots.push(root)
  return root
}
async function* chunks(...parts: Uint8Array[]): AsyncIterable<Uint8Array> {
  yield* parts
}

describe('compressionOf', () => {
  it.each([
    ['gzip', GZ, 'gzip -dc'],
    ['zstd', bytes(0x28, 0xb5, 0x2f, 0xfd), 'zstd -dc'],
    ['xz', bytes(0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00), 'xz -dc'],
    ['bzip2', Uint8Array.from(Buffer.from('BZh91AY&SY\x00\x01\x02', 'latin1')), 'bzip2 -dc'],
    ['zip', Uint8Array.from(Buffer.from('PK\x03\x04\x14\x00\x00\x00\x08\x00\x00\x00\x21\x00\xff\xfe\x01\x02\x03\x04\x05\x06\x07\x08', 'latin1')), 'unzip -p'],
  ])('knows %s by its first bytes', (format, head, decompress) => {
    expect(compressionOf(head)).toEqual({format, decompress})
  })

  it.each([
    ['a log', LOG],
    ['text that opens like bzip2', 'BZh is not a header\nINFO:guardkit.x:y'],
    ['text that opens like a zip', 'PK\x03\x04 in a line of text, and more text after it'],
  ])('leaves %s alone', (_what, text) => {
    expect(compressionOf(Buffer.from(text, 'latin1'))).toBeNull()
  })
})

describe('a compressed log', () => {
  it('given as RUN: not read, and the message says how to pipe it in', async () => {
    const root = await tree({'run.log.gz': GZ})
    const error = await loadRunContent(join(root, 'run.log.gz')).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UsageError)
    expect((error as UsageError).tryMessage).toBe('Decompress the log as shown above and pass the result.')
    expect((error as Error).message).toContain(`run.log.gz: the file is gzip-compressed, not read: pipe it in: \`gzip -dc ${join(root, 'run.log.gz')} | guardkit-replay -\``)
  })

  it('in a folder: reported with the command that writes it out, and the folder\'s other logs are read', async () => {
    const root = await tree({'run.log': LOG, 'logs/old run.log.gz': GZ})
    const run = await ingestPath(root)
    expect(run.logs).toEqual(['run.log'])
    expect(run.tasks.map((t) => t.taskId)).toEqual(['TASK-X-001'])
    expect(run.ingestIssues).toContainEqual(expect.objectContaining({file: 'logs/old run.log.gz', code: 'compressed', severity: 'warning',
      message: 'the file is gzip-compressed, not read: write it out beside itself (in RUN: `gzip -dk \'logs/old run.log.gz\'`) and run again'}))
  })

  it('names that a shell would misread are quoted, and never read as an option', async () => {
    const root = await tree({"-it's.log.gz": GZ})
    const run = await ingestPath(root)
    expect(run.ingestIssues.find((i) => i.code === 'compressed')?.message).toContain("(in RUN: `gzip -dk './-it'\\''s.log.gz'`)")
  })

  it('on stdin: not read as lines, and no empty log is reported', async () => {
    const {run} = await readRun(port, '-', {stdin: chunks(GZ.subarray(0, 10), GZ.subarray(10))})
    expect(run.logs).toEqual([])
    expect(run.ingestIssues).toEqual([expect.objectContaining({file: '-', code: 'compressed', message: 'the input is gzip-compressed, not read: pipe it in through `gzip -dc`'})])
  })

  it('on stdin, decompressed: read as usual', async () => {
    const {run} = await readRun(port, '-', {stdin: chunks(Buffer.from(LOG))})
    expect(run.tasks.map((t) => t.taskId)).toEqual(['TASK-X-001'])
    expect(run.ingestIssues.filter((i) => i.code === 'compressed')).toEqual([])
  })
})
