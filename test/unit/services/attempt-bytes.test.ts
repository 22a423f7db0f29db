import {describe, expect, it} from 'vitest'
import {createAttemptBytes} from '../../../src/services/attempt-bytes.js'

const bytes = (text: string) => Buffer.from(text, 'utf8')

describe('the per-attempt byte store', () => {
  it('gives each attempt\'s bytes back once, from memory', () => {
    const store = createAttemptBytes(1024, 'test.bin')
    store.add(1, bytes('{"a": "é ✓ 𝄞"}'))
    store.add(3, bytes('[]'))
    expect(store.spilledBytes).toBe(0)
    expect(store.take(3)?.toString('utf8')).toBe('[]')
    expect(store.take(1)?.toString('utf8')).toBe('{"a": "é ✓ 𝄞"}')
    expect(store.take(1)).toBeNull()
    expect(store.take(2)).toBeNull()
    store.close()
  })

  it('moves what it holds to a file once memory is full, and reads every attempt back whole in any order', () => {
    const store = createAttemptBytes(16, 'test.bin')
    const texts = Array.from({length: 6}, (_, i) => `attempt ${i + 1}: ${'x'.repeat(i * 5)} ✓`)
    texts.forEach((t, i) => store.add(i + 1, bytes(t)))
    expect(store.spilledBytes).toBe(texts.reduce((n, t) => n + Buffer.byteLength(t), 0))
    expect(store.addedBytes).toBe(store.spilledBytes)
    for (const i of [4, 0, 5, 2, 1, 3]) expect(store.take(i + 1)?.toString('utf8')).toBe(texts[i])
    expect(store.take(1)).toBeNull()
    store.close()
  })
})
