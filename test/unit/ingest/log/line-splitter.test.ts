import {fc, test} from '../../../helpers/prop.js'
import {describe, expect, it} from 'vitest'
import {createLineSplitter} from '../../../../src/ingest/log/line-splitter.js'

function split(chunks: readonly Uint8Array[], maxLineChars?: number): [string, number][] {
  const out: [string, number][] = []
  const s = createLineSplitter((text, dropped) => out.push([text, dropped]), maxLineChars === undefined ? {} : {maxLineChars})
  for (const c of chunks) s.push(c)
  s.end()
  return out
}

const utf8 = (s: string) => new TextEncoder().encode(s)

describe('line splitter', () => {
  it('splits at LF, keeps a last line without newline, and drops a byte-order mark', () => {
    expect(split([utf8('\ufeffa\nb\n\nc')])).toEqual([['a', 0], ['b', 0], ['', 0], ['c', 0]])
    expect(split([utf8('a\n')])).toEqual([['a', 0]])
    expect(split([])).toEqual([])
  })

  it('keeps a character whose bytes are split between two chunks', () => {
    const bytes = utf8('⠋ Turn 1\n━━\n')
    const chunks = Array.from(bytes, (b) => new Uint8Array([b]))
    expect(split(chunks)).toEqual([['⠋ Turn 1', 0], ['━━', 0]])
  })

  it('cuts an over-long line and says how much was dropped, within and across chunks', () => {
    expect(split([utf8(`${'x'.repeat(10)}\nok\n`)], 4)).toEqual([['xxxx', 6], ['ok', 0]])
    expect(split([utf8('xxx'), utf8('xxx'), utf8('x\nok')], 4)).toEqual([['xxxx', 3], ['ok', 0]])
  })

  test.prop([fc.array(fc.string({unit: 'grapheme'}), {maxLength: 20}), fc.array(fc.nat({max: 64}), {maxLength: 10})], {numRuns: 200})(
    'gives the same lines whatever the chunk boundaries',
    (lines, cuts) => {
      const bytes = utf8(lines.join('\n'))
      const chunks: Uint8Array[] = []
      let at = 0
      for (const c of cuts) {
        const end = Math.min(bytes.length, at + c)
        chunks.push(bytes.subarray(at, end))
        at = end
      }
      chunks.push(bytes.subarray(at))
      expect(split(chunks)).toEqual(split([bytes]))
    },
  )
})
