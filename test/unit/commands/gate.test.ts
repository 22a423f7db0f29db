import {cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, beforeAll, describe, expect, it} from 'vitest'
import type {GateReport} from '../../../src/render/gate-report.js'
import {GateReportSchema} from '../../../src/render/json/gate-schema.js'
import {runCli} from '../../helpers/cli.js'
import {FIXTURES, XML_SCHEMA_TESTS, xmllintSchema, xpath} from '../../helpers/gate.js'

afterEach(() => {
  process.exitCode = undefined
})

function tmp(): string {
  return mkdtempSync(join(tmpdir(), 'gr-gate-'))
}

const task = (r: GateReport, run: string, taskId: string) => r.runs.find((x) => x.path.endsWith(run))!.tasks.find((t) => t.taskId === taskId)!

// The seed incidents of fixtures/runs (docs/fixtures.md): what fixed does better than legacy.
const SEED_INCIDENTS: [run: string, task: string, rule: string][] = [
  ['ac1a-run2-sft001', 'TASK-SFT-001', 'approval-gained'], // seed 000: promises overwritten, 0/10
  ['ae7e-promise-loss', 'TASK-USR-003', 'approval-gained'], // seed 004: promises lost across turns
  ['rk01-003-direct-mode', 'TASK-RK01-003', 'approval-gained'], // seed 001: synthetic report without promises
]

// The same incidents where the records lack the input fixed's verdict turns on (docs/fixtures.md): fixed is
// undetermined, so the gate cannot call it better or worse: changed (became-undetermined), better in one branch.
const UNDETERMINED_INCIDENTS: [run: string, task: string, improvedIf: RegExp][] = [
  ['db-003-timeout', 'TASK-DB-003', /unchanged if fixed's own feedback \(not in the records\) never repeated; improved if it repeated where the recorded feedback did/], // seed 002
  ['db-003-timeout-log-only', 'TASK-DB-003', /improved if it repeated where the recorded feedback did/],
  ['ac1a-run2-sft001-no-agent-report', 'TASK-SFT-001', /improved if the promises the agent wrote \(overwritten, not recorded\) were complete for all 6 criteria/], // seed 000
  ['ae7e-promise-loss-log-only', 'TASK-USR-003', /improved if the 6 promises recovered on turn 1 \(not in the log\) were complete for all 6 criteria/], // seed 004
  ['rk01-003-direct-mode-log-only', 'TASK-RK01-003', /improved if the Player's files \(not in the log\) included a file named in each of the 4 criteria that name one/], // seed 001
]

describe('gate fixtures/runs --baseline legacy --candidate fixed: passes, and the seed incidents improve', () => {
  let text: Awaited<ReturnType<typeof runCli>>
  let report: GateReport
  beforeAll(async () => {
    text = await runCli(['gate', FIXTURES, '--baseline', 'legacy', '--candidate', 'fixed'])
    process.exitCode = undefined
    const json = await runCli(['gate', FIXTURES, '--baseline', 'legacy', '--candidate', 'fixed', '--json'])
    expect(process.exitCode ?? 0).toBe(0)
    report = GateReportSchema.parse(JSON.parse(json.stdout)) as unknown as GateReport
  })

  it('exits 0 with no regression', () => {
    expect(text.error).toBeUndefined()
    expect(process.exitCode ?? 0).toBe(0)
    expect(report.verdict).toBe('pass')
    expect(report.summary).toMatchObject({runs: 14, regressed: 0, failing: 0})
    expect(text.stdout).toContain('PASS: no regression')
  })

  it('lists every seed incident as improved, with the rule that says why', () => {
    for (const [run, taskId, rule] of SEED_INCIDENTS) {
      const t = task(report, run, taskId)
      expect(t.classification, `${run} ${taskId}`).toBe('improved')
      expect(t.reasons.map((r) => r.rule), `${run} ${taskId}`).toContain(rule)
    }
    // exact: the recorded agent reports (versions/) decide fixed's turn 1 (docs/counterfactuals.md, "Exact means exact")
    expect(text.stdout).toMatch(/\n {2}TASK-SFT-001 +unrecoverable_stall @3 +approved @1 +improved: approval gained t1/)
  })

  it('calls an incident whose decisive input is missing changed, not improved: the branch it improves in is named', () => {
    for (const [run, taskId, improvedIf] of UNDETERMINED_INCIDENTS) {
      const t = task(report, run, taskId)
      expect(t.classification, `${run} ${taskId}`).toBe('changed')
      expect(t.reasons.map((r) => r.rule), `${run} ${taskId}`).toEqual(['became-undetermined'])
      expect(t.reasons[0]!.message, `${run} ${taskId}`).toMatch(improvedIf)
    }
    expect(text.stdout).toMatch(/\n {2}TASK-DB-003 +~cancelled \(rec\.\) @18 +~undetermined: 2 ways +changed: now undetermined/)
  })

  it('leaves tasks both approve alike unchanged, and is deterministic', async () => {
    expect(task(report, 'ok-parallel-waves', 'TASK-DOC-101').classification).toBe('unchanged')
    expect(task(report, 'hostile-worktree', 'TASK-CACHE-001').classification).toBe('unchanged')
    const again = await runCli(['gate', FIXTURES, '--baseline', 'legacy', '--candidate', 'fixed', '--json', '--jobs', '1'])
    expect(JSON.parse(again.stdout)).toEqual(JSON.parse(JSON.stringify(report)))
  })
})

describe('gate fixtures/runs --baseline fixed --candidate legacy: exits 1 and names the regressions', () => {
  it('exits 1 and names each regression with the finding that explains it and its turn diffs', async () => {
    const {stdout, error} = await runCli(['gate', FIXTURES, '--baseline', 'fixed', '--candidate', 'legacy'])
    expect(error).toBeUndefined()
    expect(process.exitCode).toBe(1)
    expect(stdout).toContain('FAIL: 10 regressions')
    for (const [run, taskId] of SEED_INCIDENTS) expect(stdout).toContain(`✗ ${taskId} (attempt 1) in fixtures/runs/${run}: regressed`)
    const sft = stdout.slice(stdout.indexOf('✗ TASK-SFT-001'))
    expect(sft).toMatch(/why +approval lost: fixed approves at turn 1; legacy does not \(unrecoverable_stall at turn\s+3\)/)
    expect(sft).toMatch(/finding +AGENT_PROMISES_OVERWRITTEN \(high, t1–t3\)/)
    expect(sft).toContain('fixed by recoverAgentPromises + writeBackResults (723e5f4e), which legacy lacks')
    expect(sft).toContain('turns fixed → legacy (- fixed, + legacy):')
    expect(sft).toMatch(/- t1 +approve +6\/6 +sig —/)
    expect(sft).toMatch(/\+ t3 +feedback +0\/10 +sig bbaba24c +STALL/)
    expect(sft).toContain('turns recorded → legacy')
    expect(sft).toMatch(/reproduce +guardkit-replay explain fixtures\/runs\/ac1a-run2-sft001 --task TASK-SFT-001 --turn 1\s+--profile legacy/)
  })

  it('--json: one document with the same verdict, exit 1', async () => {
    const {stdout, stderr} = await runCli(['gate', FIXTURES, '--baseline', 'fixed', '--candidate', 'legacy', '--json'])
    expect(process.exitCode).toBe(1)
    const report = GateReportSchema.parse(JSON.parse(stdout)) as unknown as GateReport
    expect(report.verdict).toBe('fail')
    expect(report.summary.regressed).toBe(10)
    const sft = task(report, 'ac1a-run2-sft001', 'TASK-SFT-001')
    expect(sft.reasons[0]).toMatchObject({rule: 'approval-lost', turn: 1})
    expect(sft.findings.map((f) => f.code)).toContain('AGENT_PROMISES_OVERWRITTEN')
    // an undetermined baseline regresses in one branch only: a change, which --fail-on undetermined makes a regression
    expect(task(report, 'db-003-timeout', 'TASK-DB-003')).toMatchObject({classification: 'changed', reasons: [expect.objectContaining({rule: 'became-undetermined'})]})
    expect(stderr).not.toContain('{')
  })
})

describe('gate: exit 2 for usage and input errors, with and without --json', () => {
  const cases: [string, string[], RegExp][] = [
    ['an unknown profile', [FIXTURES, '--baseline', 'legacy', '--candidate', 'newest'], /--candidate unknown profile "newest"/],
    ['a PATH that does not exist', [join(tmp(), 'nope'), '--baseline', 'legacy', '--candidate', 'fixed'], /PATH not found/],
    ['a bad --shard', [FIXTURES, '--baseline', 'legacy', '--candidate', 'fixed', '--shard', '3/2'], /--shard 3\/2/],
    ['no PATH', ['--baseline', 'legacy', '--candidate', 'fixed'], /at least one PATH/],
    ['a missing --candidate', [FIXTURES, '--baseline', 'legacy'], /candidate/],
    ['an unknown --fail-on', [FIXTURES, '--baseline', 'legacy', '--candidate', 'fixed', '--fail-on', 'everything'], /fail-on/],
    ['a folder with nothing to gate', [tmp(), '--baseline', 'legacy', '--candidate', 'fixed'], /Nothing to gate/],
    // RUN is never written to: a report file inside a gated run would change that run
    ['a --junit FILE inside a run', [FIXTURES, '--baseline', 'legacy', '--candidate', 'fixed', '--junit', join(FIXTURES, 'db-003-timeout/gate.xml')], /--junit .* is inside the run fixtures\/runs\/db-003-timeout/],
    ['an --html FILE inside a run, not yet existing folders included', [join(FIXTURES, 'ok-parallel-waves'), '--baseline', 'legacy', '--candidate', 'fixed', '--html', join(FIXTURES, 'ok-parallel-waves/out/r.html')], /--html .* is inside the run/],
    ['a --junit FILE inside a corpus folder given as PATH', [FIXTURES, '--baseline', 'legacy', '--candidate', 'fixed', '--junit', join(FIXTURES, 'gate.xml')], /--junit .* is inside the PATH .*fixtures\/runs/],
  ]
  for (const [what, args, message] of cases) {
    it(what, async () => {
      const plain = await runCli(['gate', ...args])
      expect(plain.error?.oclif?.exit).toBe(2)
      expect(plain.error?.message).toMatch(message)
      const json = await runCli(['gate', ...args, '--json'])
      expect(process.exitCode).toBe(2)
      expect(() => JSON.parse(json.stdout)).not.toThrow()
    })
  }
  it('writes nothing into the runs it refused to write into', () => {
    expect(existsSync(join(FIXTURES, 'db-003-timeout/gate.xml'))).toBe(false)
    expect(existsSync(join(FIXTURES, 'ok-parallel-waves/out'))).toBe(false)
    expect(existsSync(join(FIXTURES, 'gate.xml'))).toBe(false)
  })
})

describe('gate: outputs for CI', () => {
  it.runIf(XML_SCHEMA_TESTS)('--junit FILE validates against the Jenkins JUnit schema with xmllint: one testcase per run × task', async () => {
    const file = join(tmp(), 'gate.xml')
    await runCli(['gate', FIXTURES, '--baseline', 'fixed', '--candidate', 'legacy', '--junit', file])
    const xml = readFileSync(file, 'utf8')
    expect(xmllintSchema(xml)).toMatchObject({ok: true})
    expect(xpath(xml, 'count(//testcase)')).toBe('24')
    expect(xpath(xml, 'count(//testcase[failure])')).toBe('10')
    expect(xpath(xml, `string(//testsuite[@name="fixtures/runs/ac1a-run2-sft001"]/testcase[@name="TASK-SFT-001"]/failure/@message)`)).toMatch(/^approval lost: fixed approves at turn 1/)
  })

  it('under GitHub Actions: ::error annotations, and the Markdown summary appended to $GITHUB_STEP_SUMMARY', async () => {
    const summary = join(tmp(), 'step-summary.md')
    writeFileSync(summary, '# earlier step\n')
    const saved = {a: process.env.GITHUB_ACTIONS, s: process.env.GITHUB_STEP_SUMMARY}
    process.env.GITHUB_ACTIONS = 'true'
    process.env.GITHUB_STEP_SUMMARY = summary
    try {
      const {stdout} = await runCli(['gate', FIXTURES, '--baseline', 'fixed', '--candidate', 'legacy'])
      const errors = stdout.split('\n').filter((l) => l.startsWith('::error '))
      expect(errors).toHaveLength(10)
      expect(errors.find((l) => l.includes('TASK-SFT-001') && l.includes('ac1a-run2-sft001/'))).toMatch(/^::error file=fixtures\/runs\/ac1a-run2-sft001\/run\.log,line=\d+,title=gate fixed → legacy%3A TASK-SFT-001 regressed::\S.*approval lost: .*%0Areproduce: guardkit-replay explain/)
      const md = readFileSync(summary, 'utf8')
      expect(md.startsWith('# earlier step\n## ❌ guardkit-replay gate: `fixed` → `legacy`')).toBe(true)
      expect(md).toContain('**FAIL**: 10 failing tasks')
      expect(md).toContain('### Regressions')
      // --json keeps stdout one document: the annotations go to stderr
      const json = await runCli(['gate', FIXTURES, '--baseline', 'fixed', '--candidate', 'legacy', '--json'])
      expect(() => JSON.parse(json.stdout)).not.toThrow()
      expect(json.stderr.split('\n').filter((l) => l.startsWith('::error '))).toHaveLength(10)
      // --no-github: neither (shard jobs whose merge job reports)
      const before = readFileSync(summary, 'utf8')
      const quiet = await runCli(['gate', FIXTURES, '--baseline', 'fixed', '--candidate', 'legacy', '--no-github'])
      expect(quiet.stdout).not.toContain('::error')
      expect(readFileSync(summary, 'utf8')).toBe(before)
    } finally {
      for (const [k, v] of [['GITHUB_ACTIONS', saved.a], ['GITHUB_STEP_SUMMARY', saved.s]] as const) {
        if (v === undefined) delete process.env[k]
        else process.env[k] = v
      }
    }
  })

  it('--html FILE writes the gate page', async () => {
    const file = join(tmp(), 'gate.html')
    await runCli(['gate', FIXTURES, '--baseline', 'fixed', '--candidate', 'legacy', '--html', file])
    const page = readFileSync(file, 'utf8')
    expect(page).toContain('data-verdict="fail"')
    expect(page).toContain('TASK-DB-003')
  })

  it('without GITHUB_ACTIONS there is no annotation', async () => {
    const {stdout} = await runCli(['gate', FIXTURES, '--baseline', 'fixed', '--candidate', 'legacy'])
    expect(stdout).not.toContain('::error')
  })

  it('--format md is the pull-request comment: counts, the task table, each regression in a collapsed block with its diffs', async () => {
    const {stdout} = await runCli(['gate', FIXTURES, '--baseline', 'fixed', '--candidate', 'legacy', '--format', 'md'])
    expect(process.exitCode).toBe(1)
    expect(stdout).toContain('| regressed | improved | changed | unchanged | skipped |')
    expect(stdout).toContain('<summary>turn by turn: fixed → legacy</summary>')
    expect(stdout).toContain('```diff')
    expect(stdout).not.toContain('\x1b')
  })
})

describe('gate --shard and gate merge', () => {
  it('the shards merged give the unsharded report, its exit code and its JUnit file', async () => {
    const dir = tmp()
    const whole = JSON.parse((await runCli(['gate', FIXTURES, '--baseline', 'fixed', '--candidate', 'legacy', '--json', '--junit', join(dir, 'whole.xml')])).stdout) as GateReport
    const files: string[] = []
    for (const i of [1, 2, 3]) {
      const shard = await runCli(['gate', FIXTURES, '--baseline', 'fixed', '--candidate', 'legacy', '--json', '--shard', `${i}/3`])
      const doc = JSON.parse(shard.stdout) as GateReport
      // the shard names the runs it was given: every third run of the sorted corpus, from the i-th (docs/ci.md)
      expect(doc.shard).toEqual({index: i, count: 3, runs: whole.runs.map((r) => r.path).filter((_, k) => k % 3 === i - 1)})
      files.push(join(dir, `gate-${i}.json`))
      writeFileSync(files.at(-1)!, shard.stdout)
    }
    process.exitCode = undefined
    const merged = await runCli(['gate', 'merge', files[2]!, files[0]!, files[1]!, '--json', '--junit', join(dir, 'gate.xml')])
    expect(process.exitCode).toBe(1)
    const doc = JSON.parse(merged.stdout) as GateReport
    expect({...doc, merged: null}).toEqual(whole)
    // the unsharded JUnit file is validated against the schema above
    expect(readFileSync(join(dir, 'gate.xml'), 'utf8')).toBe(readFileSync(join(dir, 'whole.xml'), 'utf8'))
    const text = await runCli(['gate', 'merge', ...files])
    expect(text.stdout).toContain('merged from 3 shards')
  })

  it('a missing shard or a file that is not a gate report exits 2', async () => {
    const dir = tmp()
    const one = await runCli(['gate', FIXTURES, '--baseline', 'fixed', '--candidate', 'legacy', '--json', '--shard', '1/2'])
    writeFileSync(join(dir, 'a.json'), one.stdout)
    writeFileSync(join(dir, 'b.json'), '{"schemaVersion": 1}')
    expect((await runCli(['gate', 'merge', join(dir, 'a.json')])).error?.oclif?.exit).toBe(2)
    const bad = await runCli(['gate', 'merge', join(dir, 'a.json'), join(dir, 'b.json')])
    expect(bad.error?.oclif?.exit).toBe(2)
    expect(bad.error?.message).toContain('is not a gate report')
  })
})

describe('gate: expectations.yaml, recorded and your own profiles', () => {
  function corpusCopy(expectations: string): string {
    const dir = tmp()
    for (const name of ['db-003-timeout-log-only', 'ac1a-run2-sft001']) cpSync(join(FIXTURES, name), join(dir, 'corpus', name), {recursive: true})
    writeFileSync(join(dir, 'corpus', 'expectations.yaml'), expectations)
    return join(dir, 'corpus')
  }

  it('pins override the policy: a wanted change passes, a missed pin fails', async () => {
    const corpus = corpusCopy(`runs:
  db-003-timeout-log-only:
    TASK-DB-003: {legacy: cancelled, fixed: undetermined}
    TASK-DB-001: {wanted: [approval-lost, criterion-lost], note: "legacy replays 0/6 here"}
    TASK-DB-002: {wanted: any}
  ac1a-run2-sft001:
    TASK-SFT-001#1: {legacy: unrecoverable_stall@3}
`)
    const {stdout} = await runCli(['gate', corpus, '--baseline', 'fixed', '--candidate', 'legacy', '--json'])
    expect(process.exitCode ?? 0).toBe(0)
    const report = JSON.parse(stdout) as GateReport
    expect(report.verdict).toBe('pass')
    expect(report.expectations).toEqual([expect.stringMatching(/corpus\/expectations\.yaml$/)])
    expect(task(report, 'db-003-timeout-log-only', 'TASK-DB-003')).toMatchObject({classification: 'changed', expectation: {pins: [expect.objectContaining({subject: 'fixed', met: true}), expect.objectContaining({subject: 'legacy', met: true})]}})
    expect(task(report, 'ac1a-run2-sft001', 'TASK-SFT-001').classification).toBe('changed')
    process.exitCode = undefined
    const strict = corpusCopy(`runs:
  db-003-timeout-log-only:
    TASK-DB-003: {fixed: unrecoverable_stall@3}
`)
    const failed = JSON.parse((await runCli(['gate', strict, '--baseline', 'legacy', '--candidate', 'fixed', '--json'])).stdout) as GateReport
    expect(process.exitCode).toBe(1)
    expect(task(failed, 'db-003-timeout-log-only', 'TASK-DB-003').reasons[0]).toMatchObject({rule: 'expectation-unmet'})
  })

  it('--baseline recorded gates a logic against what GuardKit did; --profiles adds your own', async () => {
    const dir = tmp()
    const profiles = join(dir, 'p.yaml')
    writeFileSync(profiles, 'profiles:\n  no-normalise:\n    base: fixed\n    without: [stallNormalize]\n')
    const {stdout} = await runCli(['gate', join(FIXTURES, 'db-003-timeout'), '--baseline', 'recorded', '--candidate', 'no-normalise', '--profiles', profiles, '--json'])
    const report = JSON.parse(stdout) as GateReport
    expect(report.baseline).toMatchObject({name: 'recorded', kind: 'recorded', flags: null})
    expect(report.candidate).toMatchObject({name: 'no-normalise', kind: 'profile'})
    expect(report.candidate.flags).not.toContain('stallNormalize')
    expect(task(report, 'db-003-timeout', 'TASK-DB-003').baseline).toMatchObject({subject: 'recorded', outcome: 'cancelled', kind: 'boundary', endTurn: 18})
  })

  it('--fail-on changed tightens the policy', async () => {
    const {stdout} = await runCli(['gate', FIXTURES, '--baseline', 'legacy', '--candidate', 'fixed', '--fail-on', 'changed', '--json'])
    const report = JSON.parse(stdout) as GateReport
    expect(report.policy.failOn).toEqual(['changed'])
    expect(report.summary.changed).toBeGreaterThan(0)
    expect(report.summary.failing).toBe(report.summary.changed)
    expect(process.exitCode).toBe(1)
  })
})
