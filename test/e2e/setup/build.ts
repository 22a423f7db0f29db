import {spawnSync} from 'node:child_process'
import {REPO, staleness} from '../../../scripts/build-stamp.mjs'

/**
 * The e2e tier runs the built CLI (`bin/run.js`), what a user runs: built here first when dist/ is not the build
 * of the sources as they are (scripts/build-stamp.mjs, a hash of the build's inputs), so that a test never passes
 * or fails on a stale build. After `npm test` (which builds) nothing is done.
 */
export default function setup(): void {
  const why = staleness()
  if (why === null) return
  process.stderr.write(`e2e: building the CLI (${why}): npm run build\n`)
  const built = spawnSync('npm', ['run', 'build'], {cwd: REPO, stdio: ['ignore', 'inherit', 'inherit']})
  if (built.status !== 0) throw new Error(`npm run build failed (exit ${built.status ?? built.signal}): the e2e tier runs the built CLI`)
}
