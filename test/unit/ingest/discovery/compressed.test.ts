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
    ['gzip', GZ, 'gzip -dc', 'gzip -dc', '.gz'],
    ['zstd', bytes(0x28, 0xb5, 0x2f, 0xfd), 'zstd -dc', 'zstd -dc', '.zst'],
    ['xz', bytes(0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00), 'xz -dc', 'xz -dc', '.xz'],
    ['bzip2', Uint8Array.from(Buffer.from('BZh91AY&SY\x00\x01\x02', 'latin1')), 'bzip2 -dc', 'bzip2 -dc', '.bz2'],
    // unzip cannot read a pipe: funzip can
    ['zip', Uint8Array.from(Buffer.from('PK\x03\x04\x14\x00\x00\x00\x08\x00\x00\x00\x21\x00\xff\xfe\x01\x02\x03\x04\x05\x06\x07\x08', 'latin1')), 'unzip -p', 'funzip', '.zip'],
  ])('knows %s by its first bytes', (format, head, decompress, filter, suffix) => {
    expect(compressionOf(head)).toEqual({format, decompress, filter, suffix})
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
  it('given as RUN: not read, and the message says how to write it out and pass that instead', async () => {
    const root = await tree({'run.log.gz': GZ})
    const error = await loadRunContent(join(root, 'run.log.gz')).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UsageError)
    expect((error as UsageError).tryMessage).toBe('Decompress the log as shown above, then run again.')
    expect((error as Error).message).toContain(`run.log.gz: the file is gzip-compressed, not read: write it out (\`gzip -dc ${join(root, 'run.log.gz')} > ${join(root, 'run.log')}\`) and pass that file instead`)
  })

  it('in a folder: reported with the command that writes it out, and the folder\'s other logs are read', async () => {
    const root = await tree({'run.log': LOG, 'logs/old run.log.gz': GZ})
    const run = await ingestPath(root)
    expect(run.logs).toEqual(['run.log'])
    expect(run.tasks.map((t) => t.taskId)).toEqual(['TASK-X-001'])
    expect(run.ingestIssues).toContainEqual(expect.objectContaining({file: 'logs/old run.log.gz', code: 'compressed', severity: 'warning',
      message: "the file is gzip-compressed, not read: write it out beside itself (in RUN: `gzip -dc 'logs/old run.log.gz' > 'logs/old run.log'`) and run again"}))
  })

  it('named as a plain log: written out under a name of its own, not over itself', async () => {
    const root = await tree({'run.log': GZ})
    const run = await ingestPath(root)
    expect(run.ingestIssues.find((i) => i.code === 'compressed')?.message).toContain('(in RUN: `gzip -dc run.log > run.log.decompressed.log`)')
  })

  it('once written out as the warning says: the copy is read and the compressed file only noted', async () => {
    const root = await tree({'run.log.gz': GZ, 'run.log': LOG})
    const run = await ingestPath(root)
    expect(run.logs).toEqual(['run.log'])
    expect(run.ingestIssues.filter((i) => i.code === 'compressed')).toEqual([{file: 'run.log.gz', code: 'compressed', severity: 'info', message: 'the file is compressed, not read: its decompressed copy run.log is read'}])
  })

  it('a file of the copy\'s name that is not a log read here is not overwritten by the suggested command', async () => {
    const root = await tree({'run.log.gz': GZ, 'run.log': 'build notes, not a capture\n'})
    const run = await ingestPath(root)
    expect(run.ingestIssues.find((i) => i.code === 'compressed')?.message).toContain('(in RUN: `gzip -dc run.log.gz > run.log.gz.decompressed.log`)')
    const given = await loadRunContent(join(root, 'run.log.gz')).catch((e: unknown) => e)
    expect((given as Error).message).toContain(`\`gzip -dc ${join(root, 'run.log.gz')} > ${join(root, 'run.log.gz.decompressed.log')}\``)
  })

  it('a compressed note (.md, .txt) is skipped silently, as any binary one is', async () => {
    const root = await tree({'run.log': LOG, 'notes.md': GZ, 'out.txt': GZ})
    const run = await ingestPath(root)
    expect(run.ingestIssues.filter((i) => i.code === 'compressed' || i.code === 'binary')).toEqual([])
  })

  it('names that a shell would misread are quoted, and never read as an option', async () => {
    const root = await tree({"-it's.log.gz": GZ})
    const run = await ingestPath(root)
    expect(run.ingestIssues.find((i) => i.code === 'compressed')?.message).toContain("(in RUN: `gzip -dc './-it'\\''s.log.gz' > './-it'\\''s.log'`)")
  })

  it('on stdin: not read as lines, the filter to put in front named, and no empty log reported', async () => {
    const {run} = await readRun(port, '-', {stdin: chunks(GZ.subarray(0, 10), GZ.subarray(10))})
    expect(run.logs).toEqual([])
    expect(run.ingestIssues).toEqual([expect.objectContaining({file: '-', code: 'compressed', message: 'the input is gzip-compressed, not read: decompress it on the way in (`… | gzip -dc | guardkit-replay -`)'})])
  })

  it('on stdin, decompressed: read as usual', async () => {
    const {run} = await readRun(port, '-', {stdin: chunks(Buffer.from(LOG))})
    expect(run.tasks.map((t) => t.taskId)).toEqual(['TASK-X-001'])
    expect(run.ingestIssues.filter((i) => i.code === 'compressed')).toEqual([])
  })
})
