// npm test: the build, the typecheck, the lint and the unit tier, all at once (docs/contributing.md, "Tests").
// They are independent — the unit tier reads none of dist/ — and each is bound by the CPU, so running them side by
// side keeps both cores busy to the end: the typecheck and the lint (one core each) fill what the unit tier's two
// workers leave idle, rather than one step waiting for another. The build is skipped when dist/ is already the
// build of the sources as they are (scripts/build-stamp.mjs: `npm ci` has just made it).
import {staleness} from './build-stamp.mjs'
import {memoryTmpEnv} from './memory-tmp.mjs'
import {runSideBySide} from './side-by-side.mjs'

const stale = staleness()
if (stale === null) process.stdout.write('── build: dist/ is the build of these sources already\n')
const ok = await runSideBySide('npm test', [
  // the longest single step first: the typecheck (one core, ~35 s of CPU)
  {name: 'typecheck', args: ['run', 'typecheck']},
  {name: 'lint', args: ['run', 'lint']},
  ...(stale === null ? [] : [{name: 'build', args: ['run', 'build']}]),
  // its temporary files in memory (memory-tmp.mjs): the record properties alone write and read back 400 recordings
  {name: 'unit tier', args: ['run', 'test:unit'], live: true, env: memoryTmpEnv('guardkit-replay-unit-')},
])
process.exitCode = ok ? 0 : 1
