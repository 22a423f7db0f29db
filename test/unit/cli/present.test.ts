import {PassThrough} from 'node:stream'
import {describe, expect, it} from 'vitest'
import {writeChunks} from '../../../src/cli/present.js'

/** A streamed document goes to stdout as it is drawn (docs/architecture.md "Streaming"). */
describe('writeChunks', () => {
  it('writes text and UTF-8 bytes in their order, the bytes as they are, then the newline that ends the document', async () => {
    const out = new PassThrough()
    const written: Buffer[] = []
    out.on('data', (b: Buffer) => written.push(b))
    const bytes = Buffer.from('{"a": "é ✓"}', 'utf8')
    await writeChunks(['[', '\n  ', bytes, ',\n  ', Buffer.alloc(0), '{}', '\n]'], out)
    expect(Buffer.concat(written).toString('utf8')).toBe('[\n  {"a": "é ✓"},\n  {}\n]\n')
    expect(written).toContain(bytes)
  })

  it('waits for a slow reader instead of holding what it has not taken', async () => {
    const out = new PassThrough({highWaterMark: 16})
    let drained = 0
    out.on('drain', () => drained++)
    const done = writeChunks(['x'.repeat(70_000), Buffer.alloc(70_000, 0x79)], out)
    const read: Buffer[] = []
    out.on('data', (b: Buffer) => read.push(b))
    await done
    expect(Buffer.concat(read).length).toBe(140_001)
    expect(drained).toBeGreaterThan(0)
  })
})
