import {readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {fc, test} from '../../helpers/prop.js'
import {describe, expect, it} from 'vitest'
import type {ArtifactKind} from '../../../src/ingest/artifacts/artifact-names.js'
import {parseArtifact} from '../../../src/ingest/artifacts/parse-artifact.js'
import type {LogIngestResult} from '../../../src/ingest/build-from-log.js'
import {createLogIngest} from '../../../src/ingest/log/ingest.js'
import {fileBytes, isWellFormedUtf16, logLine, runs} from '../../helpers/arbitraries/index.js'
import {collectArtifactBases, describeArtifactIngestNeverThrows, expectWellFormed, FILE_NAMES, logText, REAL_LINES} from '../../helpers/artifact-ingest.js'

const here = (rel: string) => fileURLToPath(new URL(rel, import.meta.url))

/** Where a value holds a string that is not whole text (half a surrogate pair), with the string. */
function brokenStrings(value: unknown, path = ''): string[] {
  if (typeof value === 'string') return isWellFormedUtf16(value) ? [] : [`${path}: ${JSON.stringify(value.slice(-12))}`]
  if (Array.isArray(value)) return value.flatMap((v, i) => brokenStrings(v, `${path}/${i}`))
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => [...brokenStrings(k, `${path}/~key`), ...brokenStrings(v, `${path}/${k}`)])
  return []
}

function ingestLines(lines: readonly (readonly [number, string])[]): LogIngestResult {
  const ingest = createLogIngest({maxLineChars: 4096})
  let current = -1
  for (const [file, line] of [...lines].sort((a, b) => a[0] - b[0])) {
    if (file !== current) ingest.startFile(`log-${file}.log`)
    current = file
    ingest.push(line)
  }
  return ingest.finish()
}

function ingestBytes(bytes: Uint8Array, cuts: readonly number[], maxLineChars: number): LogIngestResult {
  const ingest = createLogIngest({maxLineChars})
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

const line = logLine(REAL_LINES)
const cuts = fc.array(fc.oneof(fc.integer({min: 1, max: 3}), fc.integer({min: 1, max: 700})), {maxLength: 25})

/**
 * Found by this property (docs/properties.md, "Failures found"): a line that starts in a chunk holding
 * CR/ESC, goes on through a short plain chunk and ends in another plain chunk is read as plain text.
 */
const SPLIT_REDRAW = new TextEncoder().encode(
  '\x1b[2K\rINFO:guardkit.cli.autobuild:Starting feature orchestration: FEAT-X (max_turns=3, stop_on_failure=True, resume=False, fresh=True, sdk_timeout=None, enable_pre_loop=None)\n' +
    'INFO:guardkit.orchestrator.autobuild:Starting orchestration for TASK-X-001 (resume=False)\n',
)

// docs/ingest.md "Bad input": bad input never throws; each problem is an IngestIssue with file and line.
describe('the log ingest never throws (docs/ingest.md, corpus docs/record-formats.md §5)', () => {
  test.prop([fc.array(fc.tuple(fc.nat({max: 2}), line), {maxLength: 150})], runs(300))(
    'on any lines, pushed one by one into one or more files; problems are issues',
    (lines) => {
      const result = ingestLines(lines)
      const files = [...new Set(lines.map(([f]) => `log-${f}.log`))]
      for (const issue of result.ingestIssues) expectWellFormed(issue, files)
      // Whole text in, whole text out: nothing the record keeps is half a surrogate pair.
      if (lines.every(([, l]) => isWellFormedUtf16(l))) expect(brokenStrings(result)).toEqual([])
    },
  )

  test.prop([fileBytes(logText), cuts, cuts, fc.constantFrom(64, 4096)], {...runs(300), examples: [[SPLIT_REDRAW, [], [10, 1], 4096]]})(
    'on any bytes, in any chunks; the result does not depend on where the chunks end',
    (bytes, cutsA, cutsB, maxLineChars) => {
      const a = ingestBytes(bytes, cutsA, maxLineChars)
      for (const issue of a.ingestIssues) expectWellFormed(issue, ['run.log'])
      expect(JSON.stringify(ingestBytes(bytes, cutsB, maxLineChars))).toBe(JSON.stringify(a))
    },
  )
})

// docs/ingest.md "Evidence" / model/run-record.ts: what the record keeps of a line is text a report can print.
// Record details are cut to a few hundred characters; a cut between the two halves of a pair breaks the text.
describe('the log ingest keeps whole characters (docs/ingest.md)', () => {
  const RUN = readFileSync(here('../../../fixtures/runs/ok-approved-after-feedback/run.log'), 'utf8').split('\n')
  const AT = RUN.findIndex((l) => l.includes('Phase 2 (Loop): Starting adversarial turns for TASK-HC-002')) + 4
  const detailRecord = fc.constantFrom(
    (t: string) => `WARNING:guardkit.orchestrator.quality_gates.coach_validator:Quality gates failed for TASK-HC-002: ${t}`,
    (t: string) => `ERROR:guardkit.orchestrator.agent_invoker:[TASK-HC-002] SDK UNEXPECTED ERROR ${t}`,
    (t: string) => `ERROR:guardkit.orchestrator.agent_invoker:[TASK-HC-002] Last output: ${t}`,
    (t: string) => `WARNING:guardkit.orchestrator.autobuild:[TASK-HC-002] ${t}`,
  )
  const longText = fc.tuple(fc.integer({min: 150, max: 520}), fc.array(fc.constantFrom('\u{1F600}', '\u{1D518}', 'é', 'e\u0301'), {minLength: 1, maxLength: 6})).map(([n, tail]) => 'a'.repeat(n) + tail.join('').repeat(20))
  test.prop([detailRecord, longText], {...runs(200), examples: [[(t: string) => `WARNING:guardkit.orchestrator.quality_gates.coach_validator:Quality gates failed for TASK-HC-002: ${t}`, 'a'.repeat(499) + '\u{1F600}tail']]})(
    'no string the record keeps from a whole-text log is cut inside a character',
    (record, text) => {
      const result = ingestLines([...RUN.slice(0, AT), record(text), ...RUN.slice(AT)].map((l) => [0, l] as const))
      expect(brokenStrings(result)).toEqual([])
    },
  )
})

// The starting points are authored (fixtures/runs and fixtures/ingest/artifact-kinds); the corpus tier runs the
// same properties on GuardKit's own files (test/corpus/ingest/never-throws.props.test.ts).
const BASES = collectArtifactBases([here('../../../fixtures/runs/'), here('../../../fixtures/ingest/artifact-kinds/')])

describe('the authored starting points', () => {
  it('cover every kind but phase_4_checkpoint (the corpus holds none either), and each parses with no issue', () => {
    expect(FILE_NAMES.map(([, k]) => k).filter((k): k is ArtifactKind => k !== null && !BASES.has(k))).toEqual(['phase_4_checkpoint'])
    for (const [name, k] of FILE_NAMES) {
      if (k === null || !BASES.has(k)) continue
      const parsed = parseArtifact(`.guardkit/autobuild/TASK-X-001/${name}`, JSON.stringify(BASES.get(k)), k)
      expect(parsed.issues, name).toEqual([])
      expect(parsed.version, name).not.toBeNull()
    }
  })
})

describeArtifactIngestNeverThrows('the artifact ingest never throws (docs/ingest.md)', BASES)

describe('the artifact ingest quotes whole characters (docs/ingest.md)', () => {
  // docs/ingest.md `json-shape`: "what was expected and what was found". A found string is quoted cut to a
  // few dozen characters; the cut must fall between characters, or the user reads `\ud83d…` for `😀`.
  const longString = fc.tuple(fc.array(fc.constantFrom('a', 'é', '\u{1F600}', '\u{1D518}', 'e\u0301'), {minLength: 30, maxLength: 60})).map(([cs]) => cs.join(''))
  test.prop([longString, fc.constantFrom('turn', 'files_modified', 'files_created')], {...runs(200), examples: [['a'.repeat(39) + '\u{1F600}b', 'turn']]})(
    'a shape issue quotes a wrong-typed string value without cutting a character in half',
    (value, field) => {
      const json = {task_id: 'TASK-X-001', turn: 1, [field]: value}
      const issues = parseArtifact('player_turn_1.json', JSON.stringify(json), 'player_turn').issues.filter((i) => i.code === 'json-shape')
      expect(issues.length).toBeGreaterThan(0)
      for (const i of issues) expect(i.message).not.toMatch(/\\u[dD][89a-fA-F][0-9a-fA-F]{2}/)
    },
  )
})
