import {defineConfig} from 'vitest/config'
import {BaseSequencer, type TestSpecification} from 'vitest/node'

/**
 * Files as vitest orders them (the longest of the last run first; without one, as in a clean clone, the largest),
 * then the files known to be long before the rest, so that none of them starts last and keeps one worker busy
 * alone while the other has nothing left to do: the property files of the unit tier (whole-run properties take tens
 * of seconds), and in the e2e tier the live simulations (builds paced in real time) and the CLI files (the built CLI
 * run dozens of times under pseudo-terminals).
 */
const LONG = [/\.props\.test\./, /\/test\/e2e\/live\//, /\/test\/e2e\/cli\//]
class LongFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const long = (f: TestSpecification) => LONG.some((re) => re.test(f.moduleId))
    return [...sorted.filter(long), ...sorted.filter((f) => !long(f))]
  }
}

/**
 * Three tiers (docs/contributing.md, "Tests"):
 * - unit (`npm test`): everything under test/ but test/e2e and test/corpus; needs nothing outside the clone;
 * - e2e (`npm run test:e2e`): real child processes, tmux, chromium, the live simulator, the built CLI;
 * - corpus (`npm run test:corpus`): the checks against ../shared (corpus, oracle vectors, diagnoses).
 * `npx vitest run test/unit/ingest` runs the files of any tier under that path.
 */
export default defineConfig({
  test: {
    environment: 'node',
    // oclif v4 writes with console.log; vitest's console interception would hide it from @oclif/test's capture
    disableConsoleIntercept: true,
    testTimeout: 30_000,
    // vitest's default is one worker fewer than the cores, i.e. a single worker on the 2-core machines this runs on
    maxWorkers: 2,
    hookTimeout: 30_000,
    coverage: {provider: 'v8', include: ['src/**'], reporter: ['text', 'json-summary']},
    sequence: {sequencer: LongFirst},
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.{ts,tsx}'],
          exclude: ['test/e2e/**', 'test/corpus/**'],
          // One module graph per worker instead of one per file: importing src/ again for each of ~130 files was
          // most of the tier's time (the corpus tier likewise). Tests share no state through modules (each resets
          // what it sets), so a test that starts to depend on another file's leftovers fails as a bug of its own.
          isolate: false,
        },
      },
      // real processes running the built CLI, built first when dist/ is stale (test/e2e/setup/build.ts); one module
      // graph per worker, as in the unit tier: importing src/ again for each file that also runs a command in-process
      // cost more than a tenth of the tier's CPU
      {extends: true, test: {name: 'e2e', include: ['test/e2e/**/*.test.{ts,tsx}'], globalSetup: ['test/e2e/setup/build.ts'], isolate: false}},
      {extends: true, test: {name: 'corpus', include: ['test/corpus/**/*.test.{ts,tsx}'], isolate: false}},
    ],
  },
})
