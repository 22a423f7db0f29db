import {execFile} from 'node:child_process'
import {existsSync, readFileSync, readdirSync, statSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {promisify} from 'node:util'
import {describe, expect, it} from 'vitest'
import {ReportSchema} from '../../src/render/json/report.js'
import {runInspect} from '../../src/services/inspect.js'
import {diffRecorded, type ExpectedJson} from './expected-json.js'

/**
 * The corpus check: for every real AutoBuild log in ../shared/corpus/logs,
 * `inspect --json` must reproduce, for every task and attempt, the outcome, the turn count and the
 * per-turn criteria sequence (met/total, criteria state and Coach decision) recorded in
 * ../shared/corpus/expected.json — and nothing else. CI has the corpus at the same place.
 */
const root = fileURLToPath(new URL('../..', import.meta.url))
const corpus = fileURLToPath(new URL('../../../shared/corpus/', import.meta.url))
const logsDir = `${corpus}logs`

describe('corpus: inspect reproduces expected.json', () => {
  it('finds the shared corpus', () => {
    expect(existsSync(`${corpus}expected.json`), `${corpus}expected.json is missing`).toBe(true)
  })

  const expected = JSON.parse(readFileSync(`${corpus}expected.json`, 'utf8')) as ExpectedJson
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
      const found = diffRecorded(log, report, exp)
      total += Object.keys(exp).length
      // one line per differing task (`LOG KEY: …`); tasks missing from expected.json count apart
      matched += Object.keys(exp).filter((key) => !found.some((d) => d.startsWith(`${log} ${key}:`))).length
      diffs.push(...found)
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
    expect(diffRecorded(largest, cli, expected.logs[largest] ?? {})).toEqual([])
  }, 60_000)
})
