import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {Readable} from 'node:stream'
import {fileURLToPath} from 'node:url'
import {afterAll, afterEach, describe, expect, it} from 'vitest'
import {ReportSchema} from '../../../src/render/json/report.js'
import {present} from '../../../src/render/present.js'
import {PLAIN} from '../../../src/render/text/plain-palette.js'
import {runAnalyze} from '../../../src/services/analyze.js'
import {createProgress} from '../../../src/services/progress.js'
import {runCli} from '../../helpers/cli.js'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const db003 = join(root, 'fixtures/runs/db-003-timeout')
const tool = {name: 'guardkit-replay', version: 't'}

afterEach(() => {
  process.exitCode = undefined
})

const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, {recursive: true, force: true})
})

function tmp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gr-analyze-'))
  dirs.push(dir)
  return dir
}

describe('analyze (fixtures/runs/db-003-timeout, seed 002)', () => {
  it('puts the verdict first: cancelled at turn 18 by the timeout, fixed stops at turn 5 if its own feedback repeats, the turns wasted', async () => {
    const {stdout, error} = await runCli(['analyze', db003])
    expect(error).toBeUndefined()
    const lines = stdout.split('\n')
    expect(lines[0]).toContain('guardkit-replay · FEAT-BA28 · ')
    const verdict = lines.findIndex((l) => l.startsWith('TASK-DB-003  ✗ recorded: cancelled at turn 18 (feature task timeout, 2400 s)'))
    expect(verdict).toBeGreaterThan(0)
    expect(verdict).toBeLessThan(lines.findIndex((l) => l.startsWith('── TASK-DB-003')))
    const block = lines.slice(verdict, verdict + 14).join(' ').replace(/\s+/g, ' ')
    // fixed words test failures otherwise (docs/guardkit-logic.md §6.6, §6.7; fixtures/runs/db-003-timeout/README.md): undetermined, never a signature of the run's text
    expect(block).toMatch(/ fixed undetermined: cancelled \(recorded\) at turn 18 if fixed's own feedback \(not in the records\) never repeated; otherwise a stall at turn 5 /)
    // unwrapped (stdout is not a terminal): the waste fits beside the verdict
    expect(block).toMatch(/ 13 turns wasted/)
    // the cause chain names the seed 002 failures; the stall table signs under fixed only what fixed words itself
    for (const code of ['INFRA_TEST_FAILURE', 'FEEDBACK_NOT_ACTIONABLE', 'STALL_DEFEATED_BY_VARIABLE_OUTPUT', 'ENDED_BY_TIMEOUT_NOT_STALL', 'ABSOLUTE_RELATIVE_DUPLICATES', 'STALL_WINDOW_BROKEN']) {
      expect(stdout).toMatch(new RegExp(`\\d ${code}\\b`))
    }
    expect(stdout).toMatch(/\n +2 +- Coverage thre.* f696a94c +f696a94c~ +f696a94c~\n/)
    expect(stdout).toMatch(/\n +5 +- Independent .* 5ebda8f1 +\(own text\?\) +\(own text\?\)\n/)
    expect(stdout).toContain('reproduce: guardkit-replay explain')
    expect(stdout).not.toContain('\x1b')
  })

  it('--json prints one document that validates against the schema and carries the contract fields', async () => {
    const {stdout, error} = await runCli(['analyze', db003, '--json'])
    expect(error).toBeUndefined()
    const doc = ReportSchema.parse(JSON.parse(stdout))
    expect(['as-run:351c53fa', 'as-run:8a697b80']).toContain(doc.run.inferredProfile?.name)
    const db3 = doc.tasks.find((t) => t.taskId === 'TASK-DB-003')!
    expect(db3.recorded.outcome).toBe('cancelled')
    expect(db3.replay!.fixed).toMatchObject({outcome: 'undetermined', stallTurn: null, branches: [
      {outcome: 'cancelled (recorded)', stallTurn: null, endTurn: 18},
      {outcome: 'unrecoverable_stall', stallTurn: 5, endTurn: 5},
    ]})
    expect(['cancelled (recorded)', 'timeout (recorded)', 'undetermined after turn 18']).toContain(db3.replay!.legacy!.outcome)
    expect(db3.replay!.fixed!.turns.slice(0, 5).map((u) => u.signature)).toEqual([null, 'f696a94c', null, null, null])
    const codes = db3.findings!.map((f) => f.code)
    for (const code of ['ABSOLUTE_RELATIVE_DUPLICATES', 'GATES_SHORT_CIRCUIT', 'STALL_WINDOW_BROKEN', 'STALL_DEFEATED_BY_VARIABLE_OUTPUT', 'FEEDBACK_NOT_ACTIONABLE', 'INFRA_TEST_FAILURE', 'ENDED_BY_TIMEOUT_NOT_STALL']) {
      expect(codes).toContain(code)
    }
    expect(codes).not.toContain('STALL_FIRED')
    const ids = doc.tasks.flatMap((t) => t.findings!.map((f) => f.id))
    expect(new Set(ids).size).toBe(ids.length)
    for (const f of doc.tasks.flatMap((t) => t.findings!)) for (const c of f.causes) expect(ids).toContain(c)
  })

  it('--format md is Markdown for a comment, without colour codes', async () => {
    const {stdout, error} = await runCli(['analyze', db003, '--format', 'md'])
    expect(error).toBeUndefined()
    expect(stdout.startsWith('## guardkit-replay: FEAT-BA28\n')).toBe(true)
    expect(stdout).toContain('| ❌ TASK-DB-003 | cancelled at turn 18 (feature task timeout, 2400 s) |')
    expect(stdout).toContain('<details>')
    expect(stdout).not.toContain('\x1b')
  })

  it('--format json prints the same document as --json', async () => {
    const a = await runCli(['analyze', db003, '--json'])
    const b = await runCli(['analyze', db003, '--format', 'json'])
    expect(JSON.parse(b.stdout)).toEqual(JSON.parse(a.stdout))
  })

  it('--profile chooses the profiles and --with adds an adjusted one', async () => {
    const only = ReportSchema.parse(JSON.parse((await runCli(['analyze', db003, '--profile', 'fixed', '--json'])).stdout))
    expect(Object.keys(only.tasks[0]!.replay!)).toContain('fixed')
    expect(Object.keys(only.tasks[0]!.replay!)).not.toContain('legacy')
    const adjusted = ReportSchema.parse(JSON.parse((await runCli(['analyze', db003, '--with', 'stallNormalize', '--json'])).stdout))
    const name = `${adjusted.run.inferredProfile!.name}+stallNormalize`
    const db3 = adjusted.tasks.find((t) => t.taskId === 'TASK-DB-003')!
    expect(db3.replay![name]).toMatchObject({outcome: 'unrecoverable_stall', stallTurn: 5})
  })

  it('reads a log from stdin with -', async () => {
    const lines = [
      'INFO:guardkit.orchestrator.autobuild:Starting orchestration for TASK-S (resume=False)',
      'INFO:guardkit.orchestrator.autobuild:Criteria Progress (Turn 1): 2/2 verified (100%)',
      'INFO:guardkit.orchestrator.autobuild:Orchestration complete: TASK-S, decision=approved, turns=1',
    ]
    const {result} = await runAnalyze('-', {tool, format: 'json', names: [], with: [], without: [], stdin: Readable.from([Buffer.from(lines.join('\n'))])})
    const drawn = await present(result, 'json', {palette: PLAIN, width: 100, verbose: false})
    // a log on stdin is streamed: the document comes in pieces (docs/architecture.md "Streaming")
    const doc = ReportSchema.parse(drawn.kind === 'json-chunks' ? JSON.parse([...drawn.chunks].join('')) : null)
    expect(doc.run.logs).toEqual(['-'])
    expect(doc.tasks[0]).toMatchObject({taskId: 'TASK-S', recorded: {outcome: 'approved'}})
    expect(Object.keys(doc.tasks[0]!.replay!)).toEqual(expect.arrayContaining(['legacy', 'fixed']))
  })
})

describe('analyze: usage and input errors exit 2', () => {
  it('when RUN does not exist, with and without --json (then stdout is still one JSON document)', async () => {
    const missing = join(tmp(), 'missing.log')
    const {error} = await runCli(['analyze', missing])
    expect(error?.oclif?.exit).toBe(2)
    const json = await runCli(['analyze', missing, '--json'])
    expect(process.exitCode).toBe(2)
    expect(() => JSON.parse(json.stdout)).not.toThrow()
  })

  it('when RUN holds no log, saying how to capture one', async () => {
    const dir = tmp()
    writeFileSync(join(dir, 'notes.md'), '# just notes\n')
    const {error} = await runCli(['analyze', dir])
    expect(error?.oclif?.exit).toBe(2)
    expect(error?.message).toContain('tee run.log')
  })

  it('for an unknown profile or logic change, naming where to find the valid ones', async () => {
    const profile = await runCli(['analyze', db003, '--profile', 'newest'])
    expect(profile.error?.oclif?.exit).toBe(2)
    expect(profile.error?.message).toContain('unknown profile "newest"')
    const flag = await runCli(['analyze', db003, '--with', 'noSuchFlag'])
    expect(flag.error?.oclif?.exit).toBe(2)
    expect(flag.error?.message).toContain('guardkit-replay profiles')
  })
})

describe('progress', () => {
  function fakeStream(isTTY: boolean) {
    const written: string[] = []
    return {written, stream: {isTTY, columns: 40, write: (s: string) => written.push(s)} as unknown as NodeJS.WriteStream}
  }

  it('goes to a terminal stderr, each step over the last, cleared before the report', () => {
    const {written, stream} = fakeStream(true)
    const progress = createProgress(stream, {})
    progress.step('reading run.log …')
    progress.done()
    expect(written).toEqual(['\r\x1b[2Kreading run.log …', '\r\x1b[2K'])
  })

  it('stays silent in CI and when stderr is not a terminal', () => {
    for (const [tty, env] of [[true, {CI: 'true'}], [false, {}]] as const) {
      const {written, stream} = fakeStream(tty)
      const progress = createProgress(stream, env)
      progress.step('reading …')
      progress.done()
      expect(written).toEqual([])
    }
  })
})
