import {execFile} from 'node:child_process'
import {existsSync, readFileSync, readdirSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {promisify} from 'node:util'
import {parse} from 'yaml'
import {beforeAll, describe, expect, it} from 'vitest'
import {ReportSchema} from '../../src/render/json/report.js'
import {diffRecorded, type ExpectedJson} from './expected-json.js'
import {profileKeys, validateExpected, type Expected} from '../golden/expectations.js'
import {checkFindings, checkProfile, checkRecorded, checkRun, taskLabel} from '../golden/match.js'
import {analyzeForGolden, type GoldenRun} from '../golden/pipeline.js'

/**
 * The public corpus under `analyze` (docs/fixtures.md "The public corpus"): on every log of ../shared/corpus/logs,
 * `analyze --json` runs without error, its recorded section agrees with expected.json, and every replayed
 * turn declares its fidelity; on the logs of test/corpus/expectations.yaml, the findings and replay
 * outcomes established by reading the records hold (same format and checks as the fixtures' expected.yaml),
 * including every recorded stall signature whose feedback can be rebuilt. CI has the corpus at ../shared.
 */
const root = fileURLToPath(new URL('../..', import.meta.url))
const corpus = fileURLToPath(new URL('../../../shared/corpus/', import.meta.url))
const logsDir = `${corpus}logs/`

const expectedJson = JSON.parse(readFileSync(`${corpus}expected.json`, 'utf8')) as ExpectedJson
const logs = readdirSync(logsDir).filter((f) => f.endsWith('.log')).sort()
const doc = parse(readFileSync(fileURLToPath(new URL('expectations.yaml', import.meta.url)), 'utf8')) as {logs: Record<string, unknown>}
const expectations: Record<string, Expected> = Object.fromEntries(
  Object.entries(doc.logs).map(([log, e]) => [log, validateExpected(e, `test/corpus/expectations.yaml logs.${log}`)]),
)
const FIDELITIES = ['exact', 'approximate', 'insufficient']

function holds(failures: readonly string[], what: string): void {
  expect(failures, `${what}: ${failures.length} expectation(s) do not hold:\n${failures.map((f) => `  ✗ ${f}`).join('\n')}\n`).toEqual([])
}

describe('test/corpus/expectations.yaml', () => {
  it('names only logs of the corpus', () => {
    expect(Object.keys(expectations).filter((l) => !logs.includes(l))).toEqual([])
  })

  it('covers the five logs named here and every log with a recorded stall signature', () => {
    const required = ['run_1.log', 'db_stalled.log', 'api_docs_2.log', 'unrecoverable_stall_output.log', 'mvp_build_1.log']
    const withStall = logs.filter((l) => /Feedback stall: .*\(sig=[0-9a-f]{8}\)/.test(readFileSync(logsDir + l, 'utf8')))
    expect([...required, ...withStall].filter((l) => expectations[l] === undefined)).toEqual([])
  })

  it('pins every `Feedback stall: … (sig=…)` record: exactly under the inferred profile, or its turns as not exact', () => {
    const uncovered: string[] = []
    let records = 0
    for (const log of logs) {
      const text = readFileSync(logsDir + log, 'utf8')
      for (const m of text.matchAll(/Feedback stall: identical feedback \(sig=([0-9a-f]{8})\)/g)) {
        records++
        const sig = m[1]!
        const task = expectations[log]?.tasks.find((t) => t.recorded?.stall?.signature === sig)
        const turn = task?.recorded?.stall?.turn
        const asRun = task?.replay?.['as-run']
        const pinned = turn !== undefined && task?.signatures?.['as-run']?.[String(turn)] === sig
        const inexact = turn !== undefined && (asRun?.fidelity === 'approximate' || (asRun?.inexactTurns ?? []).includes(turn))
        if (!pinned && !inexact) uncovered.push(`${log} sig=${sig}`)
      }
    }
    expect(records).toBe(11)
    expect(uncovered).toEqual([])
  })
})

describe.each(logs)('corpus log %s under analyze', (log) => {
  const expected = expectations[log]
  let run: GoldenRun | undefined
  let failure: unknown
  beforeAll(async () => {
    try {
      run = await analyzeForGolden(logsDir + log, expected ?? {tasks: []})
    } catch (error) {
      failure = error
    }
  }, 180_000)

  const analysed = (): GoldenRun => {
    if (run === undefined) throw new Error(`analyze failed on ${log}: ${failure instanceof Error ? (failure.stack ?? failure.message) : String(failure)}`)
    return run
  }

  it('runs without error and prints a report of the contract schema', () => {
    expect(() => ReportSchema.parse(analysed().report)).not.toThrow()
  })

  it('has a recorded section that agrees with expected.json', () => {
    expect(existsSync(`${corpus}expected.json`)).toBe(true)
    holds(diffRecorded(log, analysed().report, expectedJson.logs[log] ?? {}), `${log} recorded vs expected.json`)
  })

  it('declares a fidelity for every replayed turn', () => {
    const missing: string[] = []
    for (const t of analysed().report.tasks) {
      for (const [profile, r] of Object.entries(t.replay ?? {})) {
        for (const u of r.turns) if (!FIDELITIES.includes(u.fidelity)) missing.push(`${t.taskId} (attempt ${t.attempt}) under ${profile} turn ${u.turn}: fidelity ${String(u.fidelity)}`)
      }
    }
    expect(missing).toEqual([])
  })

  if (expected === undefined) return

  it('run-level expectations hold', () => holds(checkRun(expected, analysed().view), `${log} run`))
  for (const task of expected.tasks) {
    const label = taskLabel(task)
    it(`${label}: recorded`, () => holds(checkRecorded(task, analysed().view), `${log} ${label} recorded`))
    for (const profile of profileKeys(task)) {
      it(`${label}: under ${profile}`, () => holds(checkProfile(task, profile, analysed().view), `${log} ${label} under ${profile}`))
    }
    if (task.findings !== undefined) it(`${label}: findings`, () => holds(checkFindings(task, analysed().view), `${log} ${label} findings`))
  }
})

describe('the CLI', () => {
  it('`analyze --json` prints the in-process document for a corpus log, exit 0', async () => {
    const log = `${logsDir}api_docs_2.log`
    const {stdout} = await promisify(execFile)(process.execPath, ['bin/dev.js', 'analyze', log, '--json'], {cwd: root, maxBuffer: 64 << 20})
    const cli = ReportSchema.parse(JSON.parse(stdout))
    const {report} = await analyzeForGolden(log, {tasks: []})
    expect({...cli, tool: null}).toEqual({...report, tool: null})
  }, 120_000)
})
