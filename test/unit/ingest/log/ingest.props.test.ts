import {readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {fc, test} from '@fast-check/vitest'
import {describe, expect} from 'vitest'
import {createLogIngest} from '../../../../src/ingest/log/ingest.js'
import type {LogIngestResult} from '../../../../src/ingest/build-from-log.js'

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

  test.prop([fc.uint8Array({maxLength: 4000}), fc.array(fc.nat({max: 500}), {maxLength: 10})], {numRuns: 200})('never throws on arbitrary bytes', (bytes, cuts) => {
    expect(() => byChunks(bytes, cuts)).not.toThrow()
  })
})
