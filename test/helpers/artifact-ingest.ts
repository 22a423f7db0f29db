import {readdirSync, readFileSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {fc, test} from './prop.js'
import {describe, expect} from 'vitest'
import {classifyArtifactName, type ArtifactKind} from '../../src/ingest/artifacts/artifact-names.js'
import {atPointer} from '../../src/ingest/artifacts/json-pointer.js'
import {parseArtifact} from '../../src/ingest/artifacts/parse-artifact.js'
import type {IngestIssue} from '../../src/model/ingest-issue.js'
import {loadRun} from '../../src/services/load-run.js'
import {fileBytes, isWellFormedUtf16, jsonTextOf, jsonValue, logLine, mutatedArtifact, runs} from './arbitraries/index.js'
import {createMemoryPort, memoryTree} from './memory-port.js'

/**
 * The property "the artifact ingest never throws" (docs/ingest.md, "Bad input"), shared by the unit tier (authored
 * starting points: fixtures/) and the corpus tier (GuardKit's own files): generated artifact files are mutations of
 * one valid file of each kind, or any JSON value, or any text.
 */

const FIXTURE_RUNS = fileURLToPath(new URL('../../fixtures/runs/', import.meta.url))

/** Lines of the fixture logs: real shapes for the line arbitrary. */
export const REAL_LINES = readdirSync(FIXTURE_RUNS)
  .flatMap((n) => {
    try {
      return readFileSync(join(FIXTURE_RUNS, n, 'run.log'), 'utf8').split('\n')
    } catch {
      return []
    }
  })
  .filter((l, i, all) => all.indexOf(l) === i)

export const logText = fc.array(logLine(REAL_LINES), {maxLength: 120}).map((ls) => ls.join('\n'))

/** The first file of each artifact kind below `dirs`, in name order, parsed: the valid starting points. */
export function collectArtifactBases(dirs: readonly string[]): Map<ArtifactKind, unknown> {
  const bases = new Map<ArtifactKind, unknown>()
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path)
      else {
        const {kind} = classifyArtifactName(name)
        if (kind === null || bases.has(kind)) continue
        try {
          bases.set(kind, JSON.parse(readFileSync(path, 'utf8')))
        } catch {
          // a damaged file is no base
        }
      }
    }
  }
  for (const dir of dirs) walk(dir)
  return bases
}

export const FILE_NAMES: readonly [string, ArtifactKind | null][] = [
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
export function expectWellFormed(issue: IngestIssue, files: readonly string[], wholeInput = true): void {
  expect(files).toContain(issue.file)
  expect(SEVERITIES.has(issue.severity)).toBe(true)
  expect(issue.code).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/)
  expect(issue.message.length).toBeGreaterThan(0)
  if (wholeInput) expect(isWellFormedUtf16(issue.message), issue.message).toBe(true)
  if (issue.line !== undefined) expect(Number.isInteger(issue.line) && issue.line >= 1).toBe(true)
  if (issue.pointer !== undefined) expect(issue.pointer === '' || issue.pointer.startsWith('/')).toBe(true)
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

/** The artifact properties over `bases` (one valid file of each kind, from the tier's own source). */
export function describeArtifactIngestNeverThrows(title: string, bases: ReadonlyMap<ArtifactKind, unknown>): void {
  const kind = fc.constantFrom(...FILE_NAMES)
  const artifactText = (k: ArtifactKind | null) =>
    fc.oneof(
      {weight: 3, arbitrary: mutatedArtifact(k !== null && bases.has(k) ? bases.get(k) : {}).chain(jsonTextOf)},
      {weight: 2, arbitrary: jsonValue.chain(jsonTextOf)},
      {weight: 1, arbitrary: fileBytes(fc.string()).map((b) => new TextDecoder().decode(b))},
    )

  describe(title, () => {
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
}
