import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {builtCliPresent, fixture, removeTempDirs, runBuilt, tempDir} from './helpers.js'

// Text encodings through the built CLI (docs/ingest.md "Text encodings", docs/security.md): a NUL byte in a
// log's first 8 KiB costs that line (named), never the log, in a folder as given directly; UTF-16 logs, with or
// without a byte-order mark, either byte order, read as their UTF-8 original; bytes that are not UTF-8 give one
// issue naming the first line that holds them.

interface Analysed {
  readonly ingestIssues: readonly {file: string; line?: number; code: string; severity: string}[]
  readonly tasks: readonly {taskId: string; recorded: {outcome: string; turnCount: number}}[]
}

const LOG = readFileSync(join(fixture('db-003-timeout-log-only'), 'run.log'))
let work: string
let baseline: readonly (readonly [string, string, number])[]

afterAll(removeTempDirs)
beforeAll(async () => {
  expect(builtCliPresent(), 'dist/ is missing: run `npm run build` (npm test does)').toBe(true)
  work = tempDir('gr-sec-enc-')
  baseline = tasksOf(await analyse(place('clean', LOG)))
  expect(baseline.length).toBeGreaterThan(0)
}, 60_000)

/** RUN/<name>/run.log holding `bytes`; the folder's path. */
function place(name: string, bytes: Uint8Array): string {
  const dir = join(work, name)
  mkdirSync(dir, {recursive: true})
  writeFileSync(join(dir, 'run.log'), bytes)
  return dir
}

async function analyse(run: string): Promise<Analysed> {
  const ran = await runBuilt(['analyze', run, '--json'])
  expect(ran.code, ran.stderr).toBe(0)
  return JSON.parse(ran.stdout) as Analysed
}

function tasksOf(a: Analysed): readonly (readonly [string, string, number])[] {
  return a.tasks.map((t) => [t.taskId, t.recorded.outcome, t.recorded.turnCount] as const)
}

/** The log with `extra` appended to line `line` (1-based). */
function withBytesOnLine(line: number, extra: Uint8Array): Buffer {
  let at = 0
  for (let l = 1; l <= line; l++) at = LOG.indexOf(0x0a, at) + 1
  return Buffer.concat([LOG.subarray(0, at - 1), extra, LOG.subarray(at - 1)])
}

describe('text encodings (built CLI)', () => {
  it('a NUL on line 3: the log is found in its folder and read given directly; only that line is skipped, and named', async () => {
    const dir = place('nul', withBytesOnLine(3, Buffer.from([0x00, 0x41])))
    for (const run of [dir, join(dir, 'run.log')]) {
      const a = await analyse(run)
      expect(tasksOf(a), run).toEqual(baseline)
      expect(a.ingestIssues.filter((i) => i.code === 'binary'), run).toEqual([expect.objectContaining({file: 'run.log', line: 3})])
    }
  }, 60_000)

  it('UTF-16 logs, little- and big-endian, with and without a byte-order mark, are read as the UTF-8 original', async () => {
    const le = Buffer.from(LOG.toString('utf8'), 'utf16le')
    const be = Buffer.from(le).swap16()
    const cases = {
      'le-bom': Buffer.concat([Buffer.from([0xff, 0xfe]), le]),
      'le': le,
      'be-bom': Buffer.concat([Buffer.from([0xfe, 0xff]), be]),
      'be': be,
    }
    for (const [name, bytes] of Object.entries(cases)) {
      const a = await analyse(place(`utf16-${name}`, bytes))
      expect(tasksOf(a), name).toEqual(baseline)
      expect(a.ingestIssues.map((i) => i.code), name).toEqual(['utf-16'])
    }
  }, 120_000)

  it('bytes that are not UTF-8 on lines 5 and 9: one issue, naming line 5; nothing else lost', async () => {
    const once = withBytesOnLine(5, Buffer.from([0x20, 0xff, 0xfe]))
    let at = 0
    for (let l = 1; l <= 9; l++) at = once.indexOf(0x0a, at) + 1
    const twice = Buffer.concat([once.subarray(0, at - 1), Buffer.from([0x20, 0xc3, 0x28]), once.subarray(at - 1)])
    const a = await analyse(place('bad-utf8', twice))
    expect(tasksOf(a)).toEqual(baseline)
    expect(a.ingestIssues.filter((i) => i.code === 'invalid-utf8')).toEqual([expect.objectContaining({file: 'run.log', line: 5, severity: 'warning'})])
  }, 60_000)
})
