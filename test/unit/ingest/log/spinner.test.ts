import {describe, expect, it} from 'vitest'
import {spinnerEnd, spinnerEndText} from '../../../../src/ingest/log/spinner.js'

/** The line as the splitter hands it over: its bytes inside a larger chunk, the next line after it. */
function inChunk(line: string, next: string): {buf: Buffer; start: number; end: number} {
  const before = Buffer.from('INFO:x:before\n')
  const bytes = Buffer.from(line)
  return {buf: Buffer.concat([before, bytes, Buffer.from(`\n${next}\n`)]), start: before.length, end: before.length + bytes.length}
}

describe('spinnerEnd: where a spinner redraw at the start of a line ends, on the raw bytes', () => {
  const NEXT_WITH_PERCENT = 'INFO:guardkit.orchestrator.autobuild:Criteria Progress (Turn 1): 6/6 verified (100%)'
  it.each([
    ['a spinner and its percentage', '⠋ Turn 1/5: Player Implementation ━━━━━━━━━━   0%', 'INFO:x:after'],
    ['a spinner with a record after its percentage', '⠙ Turn 2/5: Coach Validation ━━━   0%INFO:guardkit.orchestrator.progress:Started turn 2', 'INFO:x:after'],
    ['a spinner line without a percentage, the next line with one', '⠹ Turn 3/5: Player Implementation ━━━', NEXT_WITH_PERCENT],
    ['a percentage that is not after a spinner', 'Coverage: 80%', NEXT_WITH_PERCENT],
    ['not braille', '✓ 12 files created, 6 modified', NEXT_WITH_PERCENT],
    ['too short', '⠋', NEXT_WITH_PERCENT],
  ])('%s: the same index from a plain chunk as from the byte-by-byte scan, and as on the decoded text', (_name, line, next) => {
    const {buf, start, end} = inChunk(line, next)
    const scanned = spinnerEnd(buf, start, end)
    expect(spinnerEnd(buf, start, end, true)).toBe(scanned)
    const text = spinnerEndText(line)
    // the index in bytes from the chunk's start, and in UTF-16 units from the line's start: the same `%`
    expect(scanned === -1 ? -1 : Buffer.from(line).subarray(0, scanned - start).toString('utf8').length).toBe(text)
  })

  it('finds the percentage of a spinner line, and none when the line has no percentage even if the next one has', () => {
    const found = inChunk('⠋ Turn 1/5: Player Implementation ━━━   0%', NEXT_WITH_PERCENT)
    expect(found.buf[spinnerEnd(found.buf, found.start, found.end, true)]).toBe(0x25)
    const none = inChunk('⠹ Turn 3/5: Player Implementation ━━━', NEXT_WITH_PERCENT)
    expect(spinnerEnd(none.buf, none.start, none.end, true)).toBe(-1)
  })
})
