import {readFileSync} from 'node:fs'
import {basename, join} from 'node:path'
import {beforeAll, describe, expect, it} from 'vitest'
import {parseExpected, profileKeys} from './expectations.js'
import {fixtureDirs} from './fixtures.js'
import {checkFindings, checkProfile, checkRecorded, checkRun, taskLabel} from './match.js'
import {analyzeForGolden, type GoldenRun} from './pipeline.js'

// The golden tests (docs/fixtures.md): every fixture of fixtures/runs/ is analysed in process by the real
// pipeline, and every expectation of its expected.yaml is checked — one test per fixture × task × profile,
// plus the recorded facts and the findings of each task and the run-level expectations.

/** A failing expectation prints one line per failure: what was expected and what was found. */
function holds(failures: readonly string[], what: string): void {
  expect(failures, `${what}: ${failures.length} expectation(s) do not hold:\n${failures.map((f) => `  ✗ ${f}`).join('\n')}\n`).toEqual([])
}

describe.each(fixtureDirs().map((dir) => [basename(dir), dir] as const))('fixture %s', (name, dir) => {
  const expected = parseExpected(readFileSync(join(dir, 'expected.yaml'), 'utf8'), `fixtures/runs/${name}/expected.yaml`)
  let run: GoldenRun | undefined
  let failure: unknown
  beforeAll(async () => {
    try {
      run = await analyzeForGolden(dir, expected)
    } catch (error) {
      failure = error
    }
  }, 120_000)

  /** The analysis, or the error it failed with (each test then fails with it). */
  const analysed = (): GoldenRun => {
    if (run === undefined) throw new Error(`analyze failed on fixtures/runs/${name}: ${failure instanceof Error ? (failure.stack ?? failure.message) : String(failure)}`)
    return run
  }

  it('is analysed without error; run-level expectations hold (inferred profile, ingest issues)', () => {
    holds(checkRun(expected, analysed().view), `${name} run`)
  })

  for (const task of expected.tasks) {
    const label = taskLabel(task)
    it(`${label}: recorded`, () => holds(checkRecorded(task, analysed().view), `${name} ${label} recorded`))
    for (const profile of profileKeys(task)) {
      it(`${label}: under ${profile}`, () => holds(checkProfile(task, profile, analysed().view), `${name} ${label} under ${profile}`))
    }
    if (task.findings !== undefined) it(`${label}: findings`, () => holds(checkFindings(task, analysed().view), `${name} ${label} findings`))
  }
})
