import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {test} from '@fast-check/vitest'
import {afterAll, describe, expect} from 'vitest'
import {removeTree} from '../../../scripts/fuzz/materialise.js'
import {runCase} from '../../../scripts/fuzz/model/run-case.js'
import {Worker} from '../../../scripts/fuzz/pool.js'

// The CLI robustness fuzzer (scripts/fuzz/README.md) on a small scale, in a worker process as `npm run fuzz`
// runs it (the e2e tier also runs `npm run fuzz` itself, through the built CLI). The checks that keep the
// harness honest are in test/fuzz/harness.test.ts.

const SEED = 20261122
const root = mkdtempSync(join(tmpdir(), 'gr-fuzz-test-'))
let n = 0
const freshDir = () => join(root, `case-${++n}`)
afterAll(() => removeTree(root))

describe('the CLI fuzzer (scripts/fuzz)', () => {
  // Each case runs in a worker process, as in `npm run fuzz`: a case that hangs or kills its process fails
  // alone instead of taking the test run with it.
  const worker = new Worker(120_000)
  afterAll(() => worker.kill())
  const cases = runCase({cliEvery: 0, maxEntries: 6})
  test.prop([cases], {numRuns: 30, seed: SEED})(
    `30 generated RUN folders, in-process: exit 0 or 2, no stack trace, one JSON document, RUN unchanged`,
    async (c) => {
      const result = await worker.run(c, freshDir(), false, null)
      expect(result.failures).toEqual([])
    },
    600_000,
  )
})
