import {describe, expect, it} from 'vitest'
import {readAhead} from '../../../../src/ingest/fs/read-ahead.js'

/** A read that settles when the test says so, so the order of settling is the test's, not the clock's. */
function deferredReads() {
  const pending = new Map<string, {resolve: (v: string) => void; reject: (e: Error) => void}>()
  const started: string[] = []
  const read = (name: string) =>
    new Promise<string>((resolve, reject) => {
      started.push(name)
      pending.set(name, {resolve, reject})
    })
  return {read, started, pending}
}

describe('reading ahead (ingest/fs/read-ahead.ts)', () => {
  it('gives the results in the items\' order whatever order the reads end in, with at most `ahead` more in flight', async () => {
    const {read, started, pending} = deferredReads()
    const take = readAhead(['a', 'b', 'c', 'd', 'e'], read, 2)
    const first = take()
    expect(started).toEqual(['a', 'b', 'c'])
    pending.get('c')!.resolve('C')
    pending.get('b')!.resolve('B')
    pending.get('a')!.resolve('A')
    expect(await first).toBe('A')
    const second = take()
    expect(started).toEqual(['a', 'b', 'c', 'd'])
    expect(await second).toBe('B')
    expect(await take()).toBe('C')
    expect(started).toEqual(['a', 'b', 'c', 'd', 'e'])
    pending.get('e')!.resolve('E')
    pending.get('d')!.resolve('D')
    expect(await take()).toBe('D')
    expect(await take()).toBe('E')
    expect(() => take()).toThrow(/5 items/)
  })

  it('throws a failed read when its result is taken, not before, and leaves no unhandled rejection', async () => {
    const {read, pending} = deferredReads()
    const take = readAhead(['a', 'b'], read, 4)
    const a = take()
    pending.get('b')!.reject(new Error('EIO: b'))
    await new Promise((r) => setImmediate(r))
    pending.get('a')!.resolve('A')
    expect(await a).toBe('A')
    await expect(take()).rejects.toThrow('EIO: b')
  })

  it('reads nothing before the first result is asked for', () => {
    const {read, started} = deferredReads()
    readAhead(['a'], read, 8)
    expect(started).toEqual([])
  })
})
