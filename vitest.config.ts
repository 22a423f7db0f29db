import {defineConfig} from 'vitest/config'

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
    hookTimeout: 30_000,
    coverage: {provider: 'v8', include: ['src/**'], reporter: ['text', 'json-summary']},
    projects: [
      {extends: true, test: {name: 'unit', include: ['test/**/*.test.{ts,tsx}'], exclude: ['test/e2e/**', 'test/corpus/**']}},
      {extends: true, test: {name: 'e2e', include: ['test/e2e/**/*.test.{ts,tsx}']}},
      {extends: true, test: {name: 'corpus', include: ['test/corpus/**/*.test.{ts,tsx}']}},
    ],
  },
})
