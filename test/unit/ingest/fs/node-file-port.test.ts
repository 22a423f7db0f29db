import {appendFileSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {createNodeFilePort} from '../../../../src/ingest/fs/node-file-port.js'

// The disk behind ingest's door (src/ingest/fs/file-port.ts): a file is read whole, in chunks of at most
// 1 MiB, up to the caller's limit, and to its end even when a writer appends after it was opened (a log
// GuardKit is still writing: `live`, docs/live.md).

const dir = mkdtempSync(join(tmpdir(), 'gr-node-port-'))
afterAll(() => rmSync(dir, {recursive: true, force: true}))
const MiB = 1 << 20

/** Bytes no two positions of which a misplaced chunk would leave equal: position-dependent. */
function pattern(length: number, salt = 0): Buffer {
  const b = Buffer.alloc(length)
  for (let i = 0; i < length; i++) b[i] = (i * 31 + (i >> 10) + salt) & 0xff
  return b
}

describe('the node file port', () => {
  it('reads a file of several chunks whole, in chunks of at most 1 MiB', async () => {
    const path = join(dir, 'big.log')
    const content = pattern(2 * MiB + 12345)
    writeFileSync(path, content)
    const port = createNodeFilePort()
    const chunks: Uint8Array[] = []
    const read = await port.readChunks(path, 64 * MiB, (c) => chunks.push(Uint8Array.from(c)))
    expect(chunks.every((c) => c.length > 0 && c.length <= MiB)).toBe(true)
    expect(Buffer.concat(chunks).equals(content)).toBe(true)
    expect(read).toMatchObject({truncated: false, before: {size: content.length}, after: {size: content.length}})
    expect(Buffer.from((await port.readFile(path, 64 * MiB)).bytes).equals(content)).toBe(true)
  })

  it('reads a small file and an empty one as they are', async () => {
    const port = createNodeFilePort()
    writeFileSync(join(dir, 'small.json'), '{"a": 1}\n')
    writeFileSync(join(dir, 'empty.json'), '')
    expect(Buffer.from((await port.readFile(join(dir, 'small.json'), MiB)).bytes).toString('utf8')).toBe('{"a": 1}\n')
    expect((await port.readFile(join(dir, 'empty.json'), MiB)).bytes.length).toBe(0)
  })

  it('stops at the limit and says the file holds more', async () => {
    const path = join(dir, 'limited.log')
    const content = pattern(MiB + 100, 7)
    writeFileSync(path, content)
    const read = await createNodeFilePort().readFile(path, 1000)
    expect(read.truncated).toBe(true)
    expect(Buffer.from(read.bytes).equals(content.subarray(0, 1000))).toBe(true)
  })

  it('reads past the size the file had when opened: what a writer appends meanwhile is read too', async () => {
    const path = join(dir, 'growing.log')
    const first = pattern(300_000, 1)
    const more = pattern(MiB + 5000, 2)
    writeFileSync(path, first)
    const chunks: Uint8Array[] = []
    const read = await createNodeFilePort().readChunks(path, 64 * MiB, (c) => {
      // the writer appends once, while the first chunk is handed over
      if (chunks.length === 0) appendFileSync(path, more)
      chunks.push(Uint8Array.from(c))
    })
    expect(Buffer.concat(chunks).equals(Buffer.concat([first, more]))).toBe(true)
    expect(read.before.size).toBe(first.length)
    expect(read.after.size).toBe(first.length + more.length)
  })
})
