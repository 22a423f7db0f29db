import {mkdtempSync, readdirSync, readFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {afterAll, describe, expect, it} from 'vitest'
import {removeTree} from '../../scripts/fuzz/materialise.js'
import type {RunCase} from '../../scripts/fuzz/model/types.js'
import {Worker} from '../../scripts/fuzz/pool.js'

// Cases the CLI fuzzer (scripts/fuzz/README.md) found, shrunk, each named with the seed and path that found it.
// They run in-process in a worker process with a time limit, so a case that hangs fails here instead of
// hanging `npm test`. Each failed until its bug was fixed in src/ and stays as a regression test; the fuzzer
// sets no case aside for a known bug, so a bug it finds fails every run until it is fixed.

interface Regression {
  readonly name: string
  readonly seed: number
  readonly path: string
  readonly found: string
  readonly failures: readonly string[]
  readonly case: RunCase
}

const dir = fileURLToPath(new URL('./regressions/', import.meta.url))
const regressions: Regression[] = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Regression)

const root = mkdtempSync(join(tmpdir(), 'gr-fuzz-regression-'))
afterAll(() => removeTree(root))

describe('cases found by the CLI fuzzer', () => {
  const worker = new Worker(15_000)
  afterAll(() => worker.kill())

  for (const [i, r] of regressions.entries()) {
    it(`${r.name} (found with seed=${r.seed}, path ${r.path})`, async () => {
      const result = await worker.run(r.case, join(root, `case-${i}`), false, null)
      expect(result.failures).toEqual([])
    }, 60_000)
  }
})
