import {readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {fc, test} from '../../../helpers/prop.js'
import {describe, expect, it} from 'vitest'
import type {LogIngestResult} from '../../../../src/ingest/build-from-log.js'
import {createLogIngest} from '../../../../src/ingest/log/ingest.js'

// Text encodings of a log (docs/ingest.md "Text encodings"): UTF-16 logs (PowerShell's `>` writes them)
// are decoded, with or without a byte-order mark; bytes that are not UTF-8 give one issue naming the first
// line that holds them; a NUL byte costs its line only.

const FIXTURE = readFileSync(fileURLToPath(new URL('./fixtures/parallel-wave.log', import.meta.url)), 'utf8')

function ingest(bytes: Uint8Array, cuts: readonly number[] = []): LogIngestResult {
  const log = createLogIngest({maxLineChars: 4096})
  log.startFile('run.log')
  let at = 0
  for (const c of cuts) {
    const end = Math.min(bytes.length, at + c)
    log.pushBytes(bytes.subarray(at, end))
    at = end
  }
  log.pushBytes(bytes.subarray(at))
  return log.finish()
}

/** The same, each chunk read into one buffer that the next read overwrites (as a file reader with one buffer does). */
function ingestReusing(bytes: Uint8Array, cuts: readonly number[]): LogIngestResult {
  const log = createLogIngest({maxLineChars: 4096})
  log.startFile('run.log')
  const buffer = Buffer.alloc(64)
  let at = 0
  for (const c of [...cuts, ...Array.from({length: Math.ceil(bytes.length / 64)}, () => 64)]) {
    if (at >= bytes.length) break
    const end = Math.min(bytes.length, at + c)
    buffer.set(bytes.subarray(at, end))
    log.pushBytes(buffer.subarray(0, end - at))
    buffer.fill(0x41)
    at = end
  }
  return log.finish()
}

const utf16le = (text: string, bom: boolean) => Buffer.concat([bom ? Buffer.from([0xff, 0xfe]) : Buffer.alloc(0), Buffer.from(text, 'utf16le')])
const utf16be = (text: string) => {
  const le = Buffer.from(text, 'utf16le')
  return Buffer.concat([Buffer.from([0xfe, 0xff]), le.swap16()])
}
/** The result without the issue that says the file was UTF-16. */
const withoutEncodingIssue = (r: LogIngestResult) => JSON.stringify({...r, ingestIssues: r.ingestIssues.filter((i) => i.code !== 'utf-16')})

describe('UTF-16 logs', () => {
  const utf8 = ingest(Buffer.from(FIXTURE, 'utf8'))

  it('read as the same records as the UTF-8 capture, with or without a byte-order mark, either byte order', () => {
    expect(utf8.attempts.length).toBeGreaterThan(0)
    for (const bytes of [utf16le(FIXTURE, true), utf16le(FIXTURE, false), utf16be(FIXTURE)]) {
      const r = ingest(bytes)
      expect(withoutEncodingIssue(r)).toBe(JSON.stringify(utf8))
      expect(r.ingestIssues.filter((i) => i.code === 'utf-16')).toEqual([expect.objectContaining({file: 'run.log', severity: 'info'})])
      expect(r.ingestIssues.some((i) => i.code === 'binary')).toBe(false)
    }
  })

  test.prop([fc.array(fc.integer({min: 1, max: 9}), {maxLength: 40}), fc.boolean()], {numRuns: 100})('however the bytes arrive (a pipe hands over a byte or two)', (cuts, bom) => {
    expect(withoutEncodingIssue(ingest(utf16le(FIXTURE, bom), cuts))).toBe(JSON.stringify(utf8))
  })
  // A Rich panel's box-drawing characters are `00 25` pairs in little-endian order, which look like ASCII in the
  // other byte order: only the line breaks tell the two apart, so the order is not decided before one arrives.
  const PANEL = `╭${'─'.repeat(78)}╮\n│ AutoBuild: FEAT-XYZ${' '.repeat(58)}│\n╰${'─'.repeat(78)}╯\n`
  test.prop([fc.array(fc.integer({min: 1, max: 9}), {minLength: 1, maxLength: 40})], {numRuns: 100})('a log without a byte-order mark that opens with a Rich panel, however small its first pieces', (cuts) => {
    expect(withoutEncodingIssue(ingest(utf16le(PANEL + FIXTURE, false), cuts))).toBe(JSON.stringify(ingest(Buffer.from(PANEL + FIXTURE, 'utf8'))))
  })
})

describe('invalid UTF-8 and NUL bytes', () => {
  const lines = FIXTURE.split('\n')
  const at = 7
  const damaged = (insert: Uint8Array) => {
    const head = Buffer.from(lines.slice(0, at - 1).join('\n') + '\n' + lines[at - 1]!.slice(0, 10), 'utf8')
    const tail = Buffer.from(lines[at - 1]!.slice(10) + '\n' + lines.slice(at).join('\n'), 'utf8')
    return Buffer.concat([head, insert, tail])
  }

  test.prop([fc.array(fc.integer({min: 1, max: 64}), {maxLength: 60})], {numRuns: 100})('one invalid-utf8 issue naming the first line that holds such bytes, whatever the chunks', (cuts) => {
    const bytes = Buffer.concat([damaged(Buffer.from([0xe9, 0x20])), Buffer.from('\nlater \xff\xfe line\n', 'latin1')])
    const issues = ingest(bytes, cuts).ingestIssues.filter((i) => i.code === 'invalid-utf8')
    expect(issues).toEqual([expect.objectContaining({file: 'run.log', line: at, severity: 'warning'})])
  })

  test.prop([fc.array(fc.integer({min: 1, max: 64}), {maxLength: 60})], {numRuns: 100})('the same when the reader reuses one buffer for every chunk (a character cut at a chunk\'s end is kept, not read from the next chunk)', (cuts) => {
    const bytes = Buffer.concat([damaged(Buffer.from([0xe9, 0x20])), Buffer.from('\nlater \xff\xfe line\n', 'latin1')])
    const issues = ingestReusing(bytes, cuts).ingestIssues.filter((i) => i.code === 'invalid-utf8')
    expect(issues).toEqual([expect.objectContaining({file: 'run.log', line: at, severity: 'warning'})])
    const text = FIXTURE.replace(/TASK/g, 'TÄSK✓🙂')
    expect(ingestReusing(Buffer.from(text, 'utf8'), cuts).ingestIssues.filter((i) => i.code === 'invalid-utf8')).toEqual([])
  })

  test.prop([fc.array(fc.integer({min: 1, max: 64}), {maxLength: 60})], {numRuns: 50})('a character split across chunks is not invalid', (cuts) => {
    const text = FIXTURE.replace(/TASK/g, 'TÄSK✓🙂')
    expect(ingest(Buffer.from(text, 'utf8'), cuts).ingestIssues.filter((i) => i.code === 'invalid-utf8')).toEqual([])
  })

  it('a NUL byte costs its line only, named in the issue', () => {
    const r = ingest(damaged(Buffer.from([0x00])))
    expect(r.ingestIssues.filter((i) => i.code === 'binary')).toEqual([expect.objectContaining({file: 'run.log', line: at})])
    expect(r.attempts.length).toBe(ingest(Buffer.from(FIXTURE)).attempts.length)
  })
})
