// What dist/ was built from (docs/contributing.md "The build"): a sha256 over the build's inputs — every file's
// path and bytes — written to dist/.inputs-sha256 as the last step of `npm run build`, once dist/ is whole. A
// build whose inputs hash the same is current: `npm test`, the e2e tier and the fuzzer skip it then, and build
// when it is not. Contents, never mtimes: a checkout, a copy or a clock step moves mtimes without changing what
// would be built, and an edit within the same second need not move them.
//
// `node scripts/build-stamp.mjs` writes the stamp; `node scripts/build-stamp.mjs --check` exits 1 when dist/ is
// missing or stale, saying why.
import {createHash} from 'node:crypto'
import {existsSync, readdirSync, readFileSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

export const REPO = fileURLToPath(new URL('..', import.meta.url))
/** What `npm run build` reads, besides node_modules (package-lock.json pins that). */
export const BUILD_INPUTS = ['src', 'bin', 'package.json', 'package-lock.json', 'tsconfig.json', 'scripts/bundle.mjs', 'scripts/build-stamp.mjs']
const STAMP = 'dist/.inputs-sha256'

/** The sha256 of the inputs: each file's path and bytes, in path order. */
export function inputsHash(repo = REPO) {
  const hash = createHash('sha256')
  const add = (rel) => {
    const abs = join(repo, rel)
    if (!existsSync(abs)) return
    if (statSync(abs).isDirectory()) {
      for (const name of readdirSync(abs).sort()) add(`${rel}/${name}`)
      return
    }
    const bytes = readFileSync(abs)
    hash.update(`${rel}\0${bytes.length}\0`).update(bytes)
  }
  for (const input of BUILD_INPUTS) add(input)
  return hash.digest('hex')
}

/** Why dist/ is not the build of the inputs as they are, or null when it is. */
export function staleness(repo = REPO) {
  const stamp = join(repo, STAMP)
  if (!existsSync(join(repo, 'dist/cli/execute.js')) || !existsSync(join(repo, 'oclif.manifest.json')) || !existsSync(stamp)) return 'dist/ is missing'
  return readFileSync(stamp, 'utf8').trim() === inputsHash(repo) ? null : 'the sources changed since the last build'
}

export function writeStamp(repo = REPO) {
  writeFileSync(join(repo, STAMP), `${inputsHash(repo)}\n`)
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv[2] === '--check') {
    const why = staleness()
    if (why !== null) {
      process.stderr.write(`${why}: npm run build\n`)
      process.exit(1)
    }
  } else {
    writeStamp()
  }
}
