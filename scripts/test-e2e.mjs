// npm run test:e2e (docs/contributing.md, "Tests"): the e2e tests and the CLI fuzzer side by side. Much of the e2e
// tier waits — on simulated builds paced in real time, on tmux, on chromium — while the fuzzer keeps a core busy;
// one after the other, each left a core idle for most of its time. The build both use is made first when dist/ is
// stale (scripts/build-stamp.mjs; after `npm test` it is not), not by each of them at once.
import {spawnSync} from 'node:child_process'
import {staleness} from './build-stamp.mjs'
import {runSideBySide} from './side-by-side.mjs'

const stale = staleness()
if (stale !== null) {
  process.stdout.write(`── build: ${stale}: npm run build\n`)
  if (spawnSync('npm', ['run', 'build'], {stdio: 'inherit'}).status !== 0) process.exit(1)
}
const ok = await runSideBySide('npm run test:e2e', [
  {name: 'e2e tests', args: ['exec', '--', 'vitest', 'run', '--project', 'e2e'], live: true},
  // scripts/fuzz/README.md: 200 generated RUN folders, each in-process and through the built CLI
  {name: 'fuzz', args: ['run', 'fuzz', '--', '--runs', '200', '--seed', '20261122', '--cli-every', '1', '--quiet'], always: true},
])
process.exitCode = ok ? 0 : 1
