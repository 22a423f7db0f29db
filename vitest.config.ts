import {defineConfig} from 'vitest/config'
import {BaseSequencer, type TestSpecification} from 'vitest/node'

/**
 * Files as vitest orders them (the longest of the last run first; without one, the largest), then the property
 * files before the rest: they are the longest of the unit tier (whole-run properties take tens of seconds), and one
 * of them started last would keep a worker busy alone while the other has nothing left to do.
 */
class PropertiesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const heavy = (f: TestSpecification) => f.moduleId.includes('.props.test.')
    return [...sorted.filter(heavy), ...sorted.filter((f) => !heavy(f))]
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
    sequence: {sequencer: PropertiesFirst},
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
      // real processes, each test its own module graph: what the processes do is the subject, not import time.
      // They run the built CLI: built first when dist/ is stale (test/e2e/setup/build.ts)
      {extends: true, test: {name: 'e2e', include: ['test/e2e/**/*.test.{ts,tsx}'], globalSetup: ['test/e2e/setup/build.ts']}},
      {extends: true, test: {name: 'corpus', include: ['test/corpus/**/*.test.{ts,tsx}'], isolate: false}},
    ],
  },
})
