import {cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {afterAll, afterEach, describe, expect, it} from 'vitest'
import {ReportSchema} from '../../../src/render/json/report.js'
import {runRecord} from '../../../src/services/record.js'
import {runCli} from '../../helpers/cli.js'
import {allBytes, analyseToJson, expectManifestHashes, expectNoNames, hashTree, TOOL, verdictsOf} from '../../helpers/recording.js'

/**
 * `guardkit-replay record RUN --out DIR` (docs/recording-format.md):
 * analyze of the recording gives the verdicts of analyze of RUN (outcomes, stall turns, signatures,
 * finding codes, under the inferred profile, legacy and fixed) for every fixture and for corpus logs;
 * redaction leaves no user, host or home name in any byte; RUN is never written to; DIR rules.
 */
const root = fileURLToPath(new URL('../../..', import.meta.url))
const FIXTURES = join(root, 'fixtures/runs')
const fixtures = readdirSync(FIXTURES, {withFileTypes: true}).filter((e) => e.isDirectory() && !e.name.startsWith('_')).map((e) => e.name)
const scratch = mkdtempSync(join(tmpdir(), 'gr-record-'))
/** The machine that records is nobody in particular: tests must not depend on who runs them. */
const machine = {users: [], hosts: [], homes: []}

afterAll(() => rmSync(scratch, {recursive: true, force: true}))
afterEach(() => {
  process.exitCode = undefined
})

let n = 0
function fresh(name = 'rec'): string {
  return join(scratch, `${name}-${++n}`)
}

/** Names a run holds, found by the test's own reading: homes, prompts (`user@host dir %`), and the hosts of prompts. */
function namesIn(dir: string): {users: string[]; hosts: string[]} {
  const text = allBytes(dir)
  const users = new Set<string>()
  const hosts = new Set<string>()
  for (const m of text.matchAll(/(?:^|[\s"'=(:]|\\n)\/(?:Users|home)\/([A-Za-z0-9_-]+)/g)) if (!['Shared', 'root'].includes(m[1]!)) users.add(m[1]!)
  for (const m of text.matchAll(/(?:^|\s)([A-Za-z0-9_-]+)@([A-Za-z0-9-]+) \S+ %/gm)) {
    users.add(m[1]!)
    hosts.add(m[2]!)
  }
  return {users: [...users], hosts: [...hosts]}
}


describe('record → analyze gives the verdicts of analyze, for every fixture (redacted)', () => {
  it.each(fixtures)('%s', async (name) => {
    const run = join(FIXTURES, name)
    const before = hashTree(run)
    const out = fresh(name)
    const result = await runRecord(run, {out, tool: TOOL, machine})
    expect(hashTree(run)).toEqual(before)
    expect(result.redacted).toBe(true)
    expect(verdictsOf(await analyseToJson(out))).toEqual(verdictsOf(await analyseToJson(run)))
    const manifest = expectManifestHashes(out)
    expect(manifest).toMatchObject({createdBy: 'record', redacted: true, tool: {version: 'test'}})
    expectNoNames(out, namesIn(run))
    // only what replay reads: no README.md, no expected.yaml
    expect(existsSync(join(out, 'README.md'))).toBe(false)
    expect(existsSync(join(out, 'expected.yaml'))).toBe(false)
    // a recording of a recording keeps its versions
    const source = join(run, 'guardkit-replay.json')
    if (existsSync(source)) expect(manifest.versions).toHaveLength(JSON.parse(readFileSync(source, 'utf8')).versions.length)
  }, 60_000)
})

describe('record of a recording', () => {
  it('holds the same bytes, and a manifest that differs only in finding nothing to redact (versions and notes carried over)', async () => {
    const first = fresh('first')
    await runRecord(join(FIXTURES, 'ae7e-promise-loss'), {out: first, tool: TOOL, machine})
    const second = fresh('second')
    await runRecord(first, {out: second, tool: TOOL, machine})
    const files = (dir: string) => Object.fromEntries(Object.entries(hashTree(dir)).filter(([p]) => p !== 'guardkit-replay.json'))
    expect(files(second)).toEqual(files(first))
    // the manifests differ only in what the second redaction found to replace: nothing
    const manifest = (dir: string) => JSON.parse(readFileSync(join(dir, 'guardkit-replay.json'), 'utf8'))
    const [a, b] = [manifest(first), manifest(second)]
    expect(b.redaction).toEqual({replaced: {}})
    expect({...b, redaction: null}).toEqual({...a, redaction: null})
  }, 60_000)
})

/** ok-approved-after-feedback with a home path in the test output of turn 2's Coach report: it feeds the legacy signature. */
function homeInFeedback(): string {
  const run = fresh('home-in-feedback')
  cpSync(join(FIXTURES, 'ok-approved-after-feedback'), run, {recursive: true})
  const file = join(run, '.guardkit/autobuild/TASK-HC-002/coach_turn_2.json')
  const text = readFileSync(file, 'utf8')
  writeFileSync(file, text.replace('tests/test_health.py:21: KeyError\\nResult', '/Users/alice/src/api/.guardkit/worktrees/FEAT-X/tests/test_health.py:21: KeyError\\nResult'))
  return run
}

describe('record: refusals and DIR rules', () => {
  it('refuses (exit 2, nothing written) when redaction would change a signature, naming the turn and file; --no-redact records it', async () => {
    const run = homeInFeedback()
    const out = fresh('refused')
    const parent = readdirSync(scratch).length
    const {error} = await runCli(['record', run, '--out', out])
    expect(error?.oclif?.exit).toBe(2)
    expect(error?.message).toContain('Not recorded: redaction would change what replay finds')
    expect(error?.message).toMatch(/TASK-HC-002 #1, turn 2: the feedback's signature changes \(as sent 1aa640aa → [0-9a-f]{8}; legacy 1aa640aa → [0-9a-f]{8}\)/)
    expect(error?.message).toContain('redacted in .guardkit/autobuild/TASK-HC-002/coach_turn_2.json: a home directory (line ')
    expect(error?.message).toContain('--no-redact')
    expect(existsSync(out)).toBe(false)
    // no staging folder left behind
    expect(readdirSync(scratch).length).toBe(parent)

    const kept = await runCli(['record', run, '--out', out, '--no-redact'])
    expect(kept.error).toBeUndefined()
    expect(kept.stdout).toContain('Not redacted (--no-redact)')
    expect(expectManifestHashes(out).redacted).toBe(false)
    expect(readFileSync(join(out, '.guardkit/autobuild/TASK-HC-002/coach_turn_2.json'), 'utf8')).toContain('/Users/alice/')
    expect(verdictsOf(await analyseToJson(out))).toEqual(verdictsOf(await analyseToJson(run)))
  }, 60_000)

  it('refuses DIR inside RUN, DIR holding RUN, DIR that is a file, and RUN on stdin (exit 2), before reading RUN', async () => {
    const run = join(FIXTURES, 'ok-parallel-waves')
    const before = hashTree(run)
    const inside = await runCli(['record', run, '--out', join(run, 'rec')])
    expect(inside.error?.oclif?.exit).toBe(2)
    expect(inside.error?.message).toContain('is inside RUN')
    const copy = fresh('holder')
    cpSync(run, join(copy, 'run'), {recursive: true})
    const holds = await runCli(['record', join(copy, 'run'), '--out', copy, '--force'])
    expect(holds.error?.oclif?.exit).toBe(2)
    expect(holds.error?.message).toContain('holds RUN')
    const file = join(scratch, `file-${++n}`)
    writeFileSync(file, 'x')
    const isFile = await runCli(['record', run, '--out', file])
    expect(isFile.error?.oclif?.exit).toBe(2)
    const stdin = await runCli(['record', '-', '--out', fresh()])
    expect(stdin.error?.oclif?.exit).toBe(2)
    expect(hashTree(run)).toEqual(before)
    expect(existsSync(join(run, 'rec'))).toBe(false)
  })

  it('refuses a non-empty DIR without --force (exit 2); --force replaces its contents', async () => {
    const run = join(FIXTURES, 'ok-parallel-waves')
    const out = fresh('nonempty')
    mkdirSync(out)
    writeFileSync(join(out, 'stale.log'), 'old')
    const refused = await runCli(['record', run, '--out', out])
    expect(refused.error?.oclif?.exit).toBe(2)
    expect(refused.error?.message).toContain('is not empty')
    expect(readFileSync(join(out, 'stale.log'), 'utf8')).toBe('old')
    const forced = await runCli(['record', run, '--out', out, '--force'])
    expect(forced.error).toBeUndefined()
    expect(readdirSync(out).sort()).toEqual(['guardkit-replay.json', 'run.log'])
    // an empty DIR needs no --force
    const empty = fresh('empty')
    mkdirSync(empty)
    expect((await runCli(['record', run, '--out', empty])).error).toBeUndefined()
  })

  it('prints what it did; --json prints one document', async () => {
    const run = join(FIXTURES, 'db-003-timeout')
    const text = await runCli(['record', run, '--out', fresh()])
    expect(text.stdout).toMatch(/^Recorded .* → .*: 3 files, \d+ bytes\.\nRedacted: 107 home, 2 user\.\nChecked: the recording replays as RUN does under as-run:8a697b80, legacy, fixed \(3 tasks\)\.\n$/)
    const out = fresh()
    const json = await runCli(['record', run, '--out', out, '--json'])
    const doc = JSON.parse(json.stdout)
    expect(doc).toMatchObject({out, redacted: true, files: 3, versions: 0, replaced: {home: 107, user: 2}, profiles: ['as-run:8a697b80', 'legacy', 'fixed']})
    // fixed is undetermined on this run (fixtures/runs/db-003-timeout/README.md): its own test-failure feedback is not in the records
    expect(doc.tasks.find((t: {taskId: string}) => t.taskId === 'TASK-DB-003')).toMatchObject({recorded: 'cancelled', replay: {fixed: 'undetermined'}})
  })

  it('--redact-also removes a word found nowhere else (a GitHub handle)', async () => {
    const run = fresh('handle')
    cpSync(join(FIXTURES, 'ok-parallel-waves'), run, {recursive: true})
    writeFileSync(join(run, 'run.log'), `${readFileSync(join(run, 'run.log'), 'utf8')}\n- Branch: RichWoollcott/git-workflow-implementation\n`)
    const out = fresh()
    expect((await runCli(['record', run, '--out', out, '--redact-also', 'RichWoollcott'])).error).toBeUndefined()
    expect(allBytes(out)).not.toContain('RichWoollcott')
  })
})

describe('analyze --redact (json, md, text)', () => {
  it('prints no home name, and the same verdicts and signatures as without it', async () => {
    const run = homeInFeedback()
    const plain = await runCli(['analyze', run, '--json'])
    const redacted = await runCli(['analyze', run, '--json', '--redact'])
    expect(plain.stdout).toContain('/Users/alice/')
    expect(redacted.stdout).not.toMatch(/alice/)
    const [a, b] = [ReportSchema.parse(JSON.parse(plain.stdout)), ReportSchema.parse(JSON.parse(redacted.stdout))]
    expect(verdictsOf(b)).toEqual(verdictsOf(a))
    for (const format of ['md', 'text']) {
      const out = await runCli(['analyze', run, '--format', format, '--redact', '--verbose'])
      expect(out.error).toBeUndefined()
      expect(out.stdout).not.toMatch(/alice/)
    }
  }, 60_000)
})
