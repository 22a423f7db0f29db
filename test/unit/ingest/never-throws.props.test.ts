import {readdirSync, readFileSync, statSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {fc, test} from '@fast-check/vitest'
import {describe, expect} from 'vitest'
import {atPointer} from '../../../src/ingest/artifacts/json-pointer.js'
import {classifyArtifactName, type ArtifactKind} from '../../../src/ingest/artifacts/artifact-names.js'
import {parseArtifact} from '../../../src/ingest/artifacts/parse-artifact.js'
import type {LogIngestResult} from '../../../src/ingest/build-from-log.js'
import {createLogIngest} from '../../../src/ingest/log/ingest.js'
import type {IngestIssue} from '../../../src/model/ingest-issue.js'
import {loadRun} from '../../../src/services/load-run.js'
import {fileBytes, isWellFormedUtf16, jsonTextOf, jsonValue, logLine, mutatedArtifact, runs} from '../../helpers/arbitraries/index.js'
import {createMemoryPort, memoryTree} from '../../helpers/memory-port.js'

const here = (rel: string) => fileURLToPath(new URL(rel, import.meta.url))

/** Lines of the fixture logs: real shapes for the line arbitrary. */
const REAL_LINES = readdirSync(here('../../../fixtures/runs/'))
  .flatMap((n) => {
    try {
      return readFileSync(here(`../../../fixtures/runs/${n}/run.log`), 'utf8').split('\n')
    } catch {
      return []
    }
  })
  .filter((l, i, all) => all.indexOf(l) === i)

/** One real artifact of each kind, from ../shared/corpus/artifacts (GuardKit's own files). */
const BASES = new Map<ArtifactKind, unknown>()
function collectBases(dir: string): void {
  for (const name of readdirSync(dir).sort()) {
    const path = `${dir}/${name}`
    if (statSync(path).isDirectory()) collectBases(path)
    else {
      const {kind} = classifyArtifactName(name)
      if (kind === null || BASES.has(kind)) continue
      try {
        BASES.set(kind, JSON.parse(readFileSync(path, 'utf8')))
      } catch {
        // a damaged corpus file is no base
      }
    }
  }
}
collectBases(here('../../../shared/corpus/artifacts'))

const FILE_NAMES: readonly [string, ArtifactKind | null][] = [
  ['player_turn_1.json', 'player_turn'],
  ['coach_turn_1.json', 'coach_turn'],
  ['task_work_results.json', 'task_work_results'],
  ['checkpoints.json', 'checkpoints'],
  ['coach_feedback_for_turn_2.json', 'coach_feedback_for_turn'],
  ['turn_state_turn_1.json', 'turn_state_turn'],
  ['work_state_turn_1.json', 'work_state_turn'],
  ['coach_evidence_turn_1.json', 'coach_evidence_turn'],
  ['turn_context.json', 'turn_context'],
  ['specialist_results.json', 'specialist_results'],
  ['state_transitions.json', 'state_transitions'],
  ['phase_4_summary.json', 'phase_4_summary'],
  ['phase_4_checkpoint.json', 'phase_4_checkpoint'],
  ['verdict_turn_1.json', null],
]

const SEVERITIES = new Set(['error', 'warning', 'info'])

/**
 * An issue a report can show: a file, a known severity, a kebab-case code, a message. The message is
 * whole text (no half surrogate pair) whenever the input was: `wholeInput` says whether it was.
 */
function expectWellFormed(issue: IngestIssue, files: readonly string[], wholeInput = true): void {
  expect(files).toContain(issue.file)
  expect(SEVERITIES.has(issue.severity)).toBe(true)
  expect(issue.code).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/)
  expect(issue.message.length).toBeGreaterThan(0)
  if (wholeInput) expect(isWellFormedUtf16(issue.message), issue.message).toBe(true)
  if (issue.line !== undefined) expect(Number.isInteger(issue.line) && issue.line >= 1).toBe(true)
  if (issue.pointer !== undefined) expect(issue.pointer === '' || issue.pointer.startsWith('/')).toBe(true)
}

/** Where a value holds a string that is not whole text (half a surrogate pair), with the string. */
function brokenStrings(value: unknown, path = ''): string[] {
  if (typeof value === 'string') return isWellFormedUtf16(value) ? [] : [`${path}: ${JSON.stringify(value.slice(-12))}`]
  if (Array.isArray(value)) return value.flatMap((v, i) => brokenStrings(v, `${path}/${i}`))
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => [...brokenStrings(k, `${path}/~key`), ...brokenStrings(v, `${path}/${k}`)])
  return []
}

/** Every string a value holds. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value)
  else if (Array.isArray(value)) for (const v of value) strings(v, out)
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push(k)
      strings(v, out)
    }
  }
  return out
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
const logText = fc.array(line, {maxLength: 120}).map((ls) => ls.join('\n'))
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

const kind = fc.constantFrom(...FILE_NAMES)
const artifactText = (k: ArtifactKind | null) =>
  fc.oneof(
    {weight: 3, arbitrary: mutatedArtifact(k !== null && BASES.has(k) ? BASES.get(k) : {}).chain(jsonTextOf)},
    {weight: 2, arbitrary: jsonValue.chain(jsonTextOf)},
    {weight: 1, arbitrary: fileBytes(fc.string()).map((b) => new TextDecoder().decode(b))},
  )

// docs/ingest.md "Bad input" and "Artifact kinds and eras": zod at the edge, unknown fields kept, nothing thrown.
describe('the artifact ingest never throws (docs/ingest.md)', () => {
  test.prop([kind.chain(([name, k]) => fc.tuple(fc.constant(name), fc.constant(k), artifactText(k)))], runs(500))(
    'on any JSON value or any text, for every artifact kind; problems are issues with a JSON pointer',
    ([name, k, text]) => {
      const file = `.guardkit/autobuild/TASK-X-001/${name}`
      const parsed = parseArtifact(file, text, k)
      // JSON may spell half a surrogate pair (`"\\ud800"`); messages quoting such data may hold it too.
      const whole = isWellFormedUtf16(text) && (parsed.version === null || strings(parsed.version.json).every(isWellFormedUtf16))
      for (const issue of parsed.issues) expectWellFormed(issue, [file], whole)
      if (parsed.version === null) expect(parsed.issues.some((i) => i.severity === 'error')).toBe(true)
      else {
        // A shape issue points at the value, or (a missing field) at the object that lacks it.
        for (const i of parsed.issues.filter((x) => x.pointer !== undefined && x.pointer !== '')) {
          const parent = i.pointer!.slice(0, i.pointer!.lastIndexOf('/'))
          expect(atPointer(parsed.version.json, i.pointer!) !== undefined || atPointer(parsed.version.json, parent) !== undefined).toBe(true)
        }
      }
    },
  )

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

  const tree = fc.record({
    artifacts: fc.uniqueArray(kind, {minLength: 1, maxLength: 6, selector: ([n]) => n}).chain((ks) => fc.tuple(...ks.map(([n, k]) => fileBytes(artifactText(k)).map((b) => [n, b] as const)))),
    log: fc.option(fileBytes(logText), {nil: undefined}),
    taskFile: fc.option(fileBytes(fc.constantFrom('---\nid: TASK-X-001\nstatus: backlog\n---\n## Acceptance Criteria\n- [ ] Config file exists\n', '---\nid: [\n', 'no frontmatter')), {nil: undefined}),
  })
  test.prop([tree], runs(200))('end to end (discovery, artifacts, task files, logs, merge): any worktree content gives a RunRecord', async ({artifacts, log, taskFile}) => {
    const files: Record<string, Uint8Array> = {}
    for (const [name, bytes] of artifacts) files[`.guardkit/autobuild/TASK-X-001/${name}`] = bytes
    if (log) files['run.log'] = log
    if (taskFile) files['tasks/backlog/TASK-X-001-x.md'] = taskFile
    const record = await loadRun('/run', {port: createMemoryPort(memoryTree('/run', files))})
    for (const issue of record.ingestIssues) expectWellFormed(issue, [...Object.keys(files), '.', '.guardkit/autobuild/TASK-X-001', '.guardkit/autobuild'])
    expect(() => JSON.stringify(record)).not.toThrow()
  })
})
