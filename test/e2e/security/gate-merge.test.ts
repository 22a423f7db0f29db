import {cpSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {builtCliPresent, fixture, removeTempDirs, runBuilt, tempDir} from './helpers.js'

// gate merge of shard reports through the built CLI (docs/ci.md): a shard report whose runs were deleted
// is refused (exit 2) with the runs named, not merged into a verdict about a corpus that was not gated.

afterAll(removeTempDirs)
beforeAll(() => {
  expect(builtCliPresent(), 'dist/ is missing: run `npm run build` (npm test does)').toBe(true)
})

describe('gate merge (built CLI)', () => {
  it('a shard report with a run deleted: exit 2 naming the run; the intact reports merge', async () => {
    const dir = tempDir()
    const corpus = join(dir, 'corpus')
    for (const name of ['ok-single-turn-promises', 'hostile-log', 'ok-approved-after-feedback']) cpSync(join(fixture(name), 'run.log'), join(corpus, `${name}.log`))
    const shards = []
    for (const i of [1, 2]) {
      const ran = await runBuilt(['gate', corpus, '--baseline', 'legacy', '--candidate', 'fixed', '--shard', `${i}/2`, '--json', '--no-github', '--no-progress', '--jobs', '1'], {cwd: dir})
      expect([0, 1], ran.stderr).toContain(ran.code)
      const file = join(dir, `shard-${i}.json`)
      writeFileSync(file, ran.stdout)
      shards.push(file)
    }
    const merged = await runBuilt(['gate', 'merge', ...shards, '--json', '--no-github'], {cwd: dir})
    expect([0, 1], merged.stderr).toContain(merged.code)
    expect((JSON.parse(merged.stdout) as {summary: {runs: number}}).summary.runs).toBe(3)
    const report = JSON.parse(readFileSync(shards[0]!, 'utf8')) as {runs: {path: string}[]; shard: {runs: string[]}}
    expect(report.shard.runs.length).toBe(2)
    const gone = report.runs[1]!.path
    writeFileSync(shards[0]!, JSON.stringify({...report, runs: report.runs.filter((r) => r.path !== gone)}))
    const refused = await runBuilt(['gate', 'merge', ...shards, '--no-github'], {cwd: dir})
    expect(refused.code).toBe(2)
    // oclif wraps a message to the terminal's width, each line after ` ›`
    expect(refused.stderr.replace(/\s*›\s*/g, ' ').replace(/\s+/g, ' ')).toContain(`is missing a run its shard was given: ${gone}.`)
  }, 120_000)
})
