// npm run test:e2e (docs/contributing.md, "Tests"): the e2e tests and the CLI fuzzer side by side. Much of the e2e
// tier waits — on simulated builds paced in real time, on tmux, on chromium — while the fuzzer keeps a core busy;
// one after the other, each left a core idle for most of its time. The build both use is made first when dist/ is
// stale (scripts/build-stamp.mjs; after `npm test` it is not), not by each of them at once.
import {spawnSync} from 'node:child_process'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {staleness} from './build-stamp.mjs'
import {memoryTmpEnv} from './memory-tmp.mjs'
import {runSideBySide} from './side-by-side.mjs'

const stale = staleness()
if (stale !== null) {
  process.stdout.write(`── build: ${stale}: npm run build\n`)
  if (spawnSync('npm', ['run', 'build'], {stdio: 'inherit'}).status !== 0) process.exit(1)
}
// The fuzzer writes every case to disk (up to 800 files in a folder, megabyte files) and removes it: in memory
// (memory-tmp.mjs) the fuzzer took ~76 s of CPU against ~88 s. The folder of a failing case is kept where it would be
// without (--keep-dir), not in the folder removed at the end.
const fuzzTmp = memoryTmpEnv('guardkit-replay-fuzz-')
const ok = await runSideBySide('npm run test:e2e', [
  // two workers (vitest.config.ts): four files in flight made each file about twice as long beside the fuzzer and
  // the corpus tier and the tier no shorter (266 against 254–269 s): the machine's two cores are the bound
  // their temporary files (recordings, reports, generated runs) in memory too (memory-tmp.mjs)
  {name: 'e2e tests', args: ['exec', '--', 'vitest', 'run', '--project', 'e2e'], live: true, env: memoryTmpEnv('guardkit-replay-e2e-')},
  // scripts/fuzz/README.md: 200 generated RUN folders, each in-process; every fourth one also through the built CLI,
  // and every one naming RUN relative to the working directory, which only the built CLI is given (a CLI start is ~15
  // times a case in-process; every case through it made the fuzzer the tier's longest step)
  {name: 'fuzz', args: ['run', 'fuzz', '--', '--runs', '200', '--seed', '20261122', '--cli-every', '4', '--quiet', '--keep-dir', join(tmpdir(), 'guardkit-replay-fuzz-failures')], always: true, env: fuzzTmp},
])
process.exitCode = ok ? 0 : 1
