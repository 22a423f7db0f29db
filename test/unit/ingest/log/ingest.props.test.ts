import {readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {fc, test} from '../../../helpers/prop.js'
import {describe, expect} from 'vitest'
import {createLogIngest} from '../../../../src/ingest/log/ingest.js'
import type {LogIngestResult} from '../../../../src/ingest/build-from-log.js'
import {runs} from '../../../helpers/arbitraries/index.js'

const FIXTURE = readFileSync(fileURLToPath(new URL('./fixtures/parallel-wave.log', import.meta.url)), 'utf8').split('\n')

function byLines(lines: readonly string[]): LogIngestResult {
  const ingest = createLogIngest({maxLineChars: 4096})
  ingest.startFile('run.log')
  for (const l of lines) ingest.push(l)
  return ingest.finish()
}

function byChunks(bytes: Uint8Array, cuts: readonly number[]): LogIngestResult {
  const ingest = createLogIngest({maxLineChars: 4096})
  ingest.startFile('run.log')
  let at = 0
  for (const c of cuts) {
    const end = Math.min(bytes.length, at + c)
    ingest.pushBytes(bytes.subarray(at, end))
    at = end
  }
  ingest.pushBytes(bytes.subarray(at))
  return ingest.finish()
}

/** Lines that look like a log: real record and console shapes mixed with arbitrary text. */
const logLine = fc.oneof(
  {weight: 3, arbitrary: fc.constantFrom(...FIXTURE)},
  {weight: 1, arbitrary: fc.string({unit: 'binary', maxLength: 120})},
  {weight: 1, arbitrary: fc.tuple(fc.constantFrom('INFO', 'WARNING', 'ERROR', 'DEBUG'), fc.constantFrom('guardkit.orchestrator.autobuild', 'guardkit.orchestrator.progress', 'x.y'), fc.string({maxLength: 80}))
    .map(([l, g, m]) => `${l}:${g}:${m}`)},
  {weight: 1, arbitrary: fc.constantFrom('', '\r', '\x1b[2K\x1b[1A', '╭──╮', '│ 1 │ Coach Validation │ ✓ success │ x │', '╰──╯', '  AutoBuild Summary (APPROVED)', 'Traceback (most recent call last):')},
)

describe('ingest properties', () => {
  test.prop([fc.array(logLine, {maxLength: 150})], {numRuns: 300})('never throws, on any lines', (lines) => {
    const r = byLines(lines)
    expect(Array.isArray(r.tasks)).toBe(true)
  })

  test.prop([fc.array(logLine, {maxLength: 150})], {numRuns: 150})('is deterministic: the same input gives the same result', (lines) => {
    expect(JSON.stringify(byLines(lines))).toBe(JSON.stringify(byLines(lines)))
  })

  test.prop([fc.array(logLine, {maxLength: 100}), fc.array(fc.nat({max: 300}), {maxLength: 30})], {numRuns: 150})(
    'gives the same result whether fed line by line or as bytes cut anywhere',
    (lines, cuts) => {
      const clean = lines.map((l) => l.split('\n').join(' ').split('\u0000').join(' ').replace(/[\ud800-\udfff]/g, '?'))
      const bytes = new TextEncoder().encode(clean.map((l) => `${l}\n`).join(''))
      expect(JSON.stringify(byChunks(bytes, cuts))).toBe(JSON.stringify(byLines(clean)))
    },
  )

  /** A collector's timestamp (docs/ingest.md "Collector timestamps"): GitHub Actions writes 7 decimals, docker and kubectl 9. */
  const stamp = fc
    .tuple(fc.date({min: new Date('2025-12-01T00:00:00Z'), max: new Date('2026-08-31T23:59:59Z'), noInvalidDate: true}), fc.constantFrom('', '.1234567', '.123456789', '.5'))
    .map(([d, fraction]) => `${d.toISOString().slice(0, 19)}${fraction}Z`)

  test.prop([fc.array(logLine, {minLength: 1, maxLength: 100}), fc.array(stamp, {minLength: 1, maxLength: 100}), fc.boolean(), fc.boolean(), fc.array(fc.nat({max: 300}), {maxLength: 20})], runs(200))(
    'reads a log whose every line carries a collector timestamp as the log without them, and says so',
    (lines, stamps, bareEmpty, crlf, cuts) => {
      const clean = lines.map((l) => `${l.split('\n').join(' ').split('\u0000').join(' ').replace(/[\ud800-\udfff]/g, '?')}${crlf ? '\r' : ''}`)
      // an empty line's stamp is followed by a space, or (bareEmpty) by nothing but the line's end (its CR in a CRLF log)
      const stamped = clean.map((l, i) => ((l === '' || l === '\r') && bareEmpty ? `${stamps[i % stamps.length]!}${l}` : `${stamps[i % stamps.length]!} ${l}`))
      const {ingestIssues: wantIssues, ...want} = JSON.parse(JSON.stringify(byLines(clean))) as LogIngestResult
      const bytes = new TextEncoder().encode(stamped.map((l) => `${l}\n`).join(''))
      for (const got of [byLines(stamped), byChunks(bytes, cuts)]) {
        const {ingestIssues, ...rest} = JSON.parse(JSON.stringify(got)) as LogIngestResult
        expect(rest).toEqual(want)
        expect(ingestIssues.filter((i) => i.code !== 'collector-timestamps')).toEqual(wantIssues)
        expect(ingestIssues.filter((i) => i.code === 'collector-timestamps')).toEqual([expect.objectContaining({file: 'run.log', line: 1, severity: 'info'})])
      }
    },
  )

  test.prop([fc.uint8Array({maxLength: 4000}), fc.array(fc.nat({max: 500}), {maxLength: 10})], {numRuns: 200})('never throws on arbitrary bytes', (bytes, cuts) => {
    expect(() => byChunks(bytes, cuts)).not.toThrow()
  })
})
