import {execFile} from 'node:child_process'
import {existsSync, readFileSync, readdirSync, statSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {promisify} from 'node:util'
import {describe, expect, it} from 'vitest'
import {ReportSchema, type Report} from '../../src/render/json/report.js'
import {runInspect} from '../../src/services/inspect.js'

/**
 * The corpus check (issue "Foundation"): for every real AutoBuild log in ../shared/corpus/logs,
 * `inspect --json` must reproduce, for every task and attempt, the outcome, the turn count and the
 * per-turn criteria sequence (met/total, criteria state and Coach decision) recorded in
 * ../shared/corpus/expected.json — and nothing else. CI has the corpus at the same place.
 */
const root = fileURLToPath(new URL('../..', import.meta.url))
const corpus = fileURLToPath(new URL('../../../shared/corpus/', import.meta.url))
const logsDir = `${corpus}logs`

interface ExpectedTurn {
  turn: number
  met: number | null
  total: number | null
  state: 'v' | 'r' | 'p' | null
  decision: 'A' | 'F' | 'E' | '?'
}

interface ExpectedTask {
  attempt: string | null
  taskId: string
  mode: string | null
  outcome: string | null
  turns: number | null
  player: string
  seq: ExpectedTurn[]
}

const DECISION: Record<string, ExpectedTurn['decision']> = {approve: 'A', feedback: 'F', error: 'E'}
const PLAYER: Record<string, string> = {success: 's', error: 'e', feedback: 'f'}

function state(t: Report['tasks'][number]['recorded']['turns'][number]): ExpectedTurn['state'] {
  if (t.criteriaMet === null || t.criteriaTotal === null) return null
  if (t.criteriaTotal > 0 && t.criteriaMet === t.criteriaTotal) return 'v'
  if ((t.rejected ?? 0) > 0) return 'r'
  if ((t.pending ?? 0) > 0) return 'p'
  return null
}

/** Every difference between the report and expected.json for one log, as readable lines. */
function compare(log: string, report: Report, expected: Record<string, ExpectedTask>): {matched: number; diffs: string[]} {
  const diffs: string[] = []
  let matched = 0
  const seen = new Set<string>()
  for (const [key, e] of Object.entries(expected)) {
    const attempt = e.attempt === null ? 1 : Number(e.attempt.replace(/^A/, ''))
    seen.add(`${attempt} ${e.taskId}`)
    const t = report.tasks.find((x) => x.taskId === e.taskId && x.attempt === attempt)
    if (t === undefined) {
      diffs.push(`${log} ${key}: missing from the report`)
      continue
    }
    const r = t.recorded
    const got = r.turns.map((u) => ({turn: u.turn, met: u.criteriaMet, total: u.criteriaTotal, state: state(u), decision: DECISION[u.decision ?? ''] ?? '?'}))
    const mine: string[] = []
    if (r.outcome !== e.outcome) mine.push(`outcome ${r.outcome} ≠ ${e.outcome}`)
    if ((r.turnCount ?? null) !== e.turns) mine.push(`turns ${r.turnCount} ≠ ${e.turns}`)
    if (t.mode !== e.mode) mine.push(`mode ${t.mode} ≠ ${e.mode}`)
    if (JSON.stringify(got) !== JSON.stringify(e.seq)) mine.push(`seq ${fmt(got)} ≠ ${fmt(e.seq)}`)
    // expected.json's Player letters come from the summary table; '-' means the log printed none.
    const player = r.turns.map((u) => PLAYER[u.player ?? ''] ?? '-').join('')
    if (e.player !== '-' && player !== e.player) mine.push(`player ${player} ≠ ${e.player}`)
    if (mine.length === 0) matched++
    else diffs.push(`${log} ${key}: ${mine.join('; ')}`)
  }
  for (const t of report.tasks) if (!seen.has(`${t.attempt} ${t.taskId}`)) diffs.push(`${log}: unexpected task ${t.taskId} (attempt ${t.attempt})`)
  return {matched, diffs}
}

function fmt(seq: readonly ExpectedTurn[]): string {
  return seq.map((s) => `${s.turn}:${s.met}/${s.total}${s.state ?? '-'}${s.decision}`).join(' ')
}

describe('corpus: inspect reproduces expected.json', () => {
  it('finds the shared corpus', () => {
    expect(existsSync(`${corpus}expected.json`), `${corpus}expected.json is missing`).toBe(true)
  })

  const expected = JSON.parse(readFileSync(`${corpus}expected.json`, 'utf8')) as {logs: Record<string, Record<string, ExpectedTask>>}
  const logs = readdirSync(logsDir).filter((f) => f.endsWith('.log')).sort()

  it('has an expected.json entry for every log', () => {
    expect(logs.filter((l) => expected.logs[l] === undefined)).toEqual([])
  })

  it('reproduces every task and attempt of every log', async () => {
    let matched = 0
    let total = 0
    const diffs: string[] = []
    for (const log of logs) {
      const {report} = await runInspect(`${logsDir}/${log}`, {name: 'guardkit-replay', version: 'test'})
      ReportSchema.parse(report)
      const exp = expected.logs[log] ?? {}
      total += Object.keys(exp).length
      const c = compare(log, report, exp)
      matched += c.matched
      diffs.push(...c.diffs)
    }
    console.log(`corpus: ${matched} of ${total} tasks/attempts in ${logs.length} logs match expected.json`)
    expect(diffs).toEqual([])
    expect(matched).toBe(total)
  }, 60_000)

  it('prints the same report through the CLI (`inspect --json`) on the largest log', async () => {
    const largest = logs.reduce((a, b) => (statSync(`${logsDir}/${a}`).size >= statSync(`${logsDir}/${b}`).size ? a : b))
    const {stdout} = await promisify(execFile)(process.execPath, ['bin/dev.js', 'inspect', `${logsDir}/${largest}`, '--json'], {cwd: root, maxBuffer: 64 << 20})
    const cli = ReportSchema.parse(JSON.parse(stdout))
    const {report} = await runInspect(`${logsDir}/${largest}`, {name: 'guardkit-replay', version: cli.tool.version})
    expect(cli).toEqual(report)
    expect(compare(largest, cli, expected.logs[largest] ?? {}).diffs).toEqual([])
  }, 60_000)
})
