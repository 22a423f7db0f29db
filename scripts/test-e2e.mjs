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
  // two workers (vitest.config.ts): four files in flight made each file about twice as long beside the fuzzer and
  // the corpus tier and the tier no shorter (266 against 254–269 s): the machine's two cores are the bound
  {name: 'e2e tests', args: ['exec', '--', 'vitest', 'run', '--project', 'e2e'], live: true},
  // scripts/fuzz/README.md: 200 generated RUN folders, each in-process; every fourth one also through the built CLI,
  // and every one naming RUN relative to the working directory, which only the built CLI is given (a CLI start is ~15
  // times a case in-process; every case through it made the fuzzer the tier's longest step)
  {name: 'fuzz', args: ['run', 'fuzz', '--', '--runs', '200', '--seed', '20261122', '--cli-every', '4', '--quiet'], always: true},
])
process.exitCode = ok ? 0 : 1
