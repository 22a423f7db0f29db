import {describe, expect, it} from 'vitest'
import {afterCollectorStampInBytes, afterCollectorStampInText} from '../../../../src/ingest/log/collector-stamp.js'

/** A log collector's line timestamp (docs/ingest.md "Collector timestamps"): where the line's own text starts. */
const CASES: [what: string, line: string, text: string | null][] = [
  ['GitHub Actions (7 decimals)', '2026-02-10T12:00:01.1234567Z INFO:guardkit.cli.autobuild:Starting', 'INFO:guardkit.cli.autobuild:Starting'],
  ['docker / kubectl --timestamps (9 decimals)', '2026-06-08T13:36:23.091123456Z ╭─ Player ─╮', '╭─ Player ─╮'],
  ['no decimals', '2026-02-10T12:00:01Z dev@mac fastapi % guardkit autobuild feature FEAT-1', 'dev@mac fastapi % guardkit autobuild feature FEAT-1'],
  ['an empty line: the stamp and its space', '2026-02-10T12:00:01.1234567Z ', ''],
  ['an empty line: the stamp alone', '2026-02-10T12:00:01.1234567Z', ''],
  ['an empty CRLF line: the stamp, then the CR left for the line', '2026-02-10T12:00:01.1234567Z\r', '\r'],
  ['a CRLF line', '2026-02-10T12:00:01.1234567Z INFO:x:y\r', 'INFO:x:y\r'],
  ['the stamp keeps the line\'s own indentation', '2026-02-10T12:00:01.1Z   • criterion', '  • criterion'],
  // not a collector's stamp: the line is read as it is
  ['GuardKit\'s own timestamp, in brackets', '[2026-06-08T13:36:23.091Z] Wave 1/2: TASK-FIX-IA03', null],
  ['an offset instead of Z', '2026-02-10T12:00:01.123+00:00 INFO:x:y', null],
  ['ten decimals', '2026-02-10T12:00:01.1234567890Z INFO:x:y', null],
  ['a dot without decimals', '2026-02-10T12:00:01.Z INFO:x:y', null],
  ['no space after Z', '2026-02-10T12:00:01ZINFO:x:y', null],
  ['a CR that does not end the line', '2026-02-10T12:00:01Z\rINFO:x:y', null],
  ['a space for the T', '2026-02-10 12:00:01Z INFO:x:y', null],
  ['a date alone', '2026-02-10 INFO:x:y', null],
  ['indented', ' 2026-02-10T12:00:01Z INFO:x:y', null],
  ['a record', 'INFO:guardkit.orchestrator.autobuild:Executing turn 2/30', null],
]

describe('a log collector\'s line timestamp', () => {
  it.each(CASES)('%s', (_what, line, text) => {
    const want = text === null ? 0 : line.length - text.length
    expect(afterCollectorStampInText(line)).toBe(want)
    // the same on the line's bytes, with the next line's bytes after it in the buffer (never read)
    const bytes = new TextEncoder().encode(`xx${line}\n2026-02-10T12:00:01Z next`)
    const end = 2 + new TextEncoder().encode(line).length
    expect(afterCollectorStampInBytes(bytes, 2, end) - 2).toBe(new TextEncoder().encode(line.slice(0, want)).length)
  })
})
