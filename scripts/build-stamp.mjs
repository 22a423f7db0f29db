// What dist/ was built from (docs/contributing.md "The build"): a sha256 over the build's inputs — every file's
// path and bytes — taken as the build's first step (`--begin`: an edit made while it bundles is then not taken
// for built) and written to dist/.inputs-sha256 as its last step, once dist/ is whole. A
// build whose inputs hash the same is current: `npm test`, the e2e tier and the fuzzer skip it then, and build
// when it is not. Contents, never mtimes: a checkout, a copy or a clock step moves mtimes without changing what
// would be built, and an edit within the same second need not move them.
//
// `node scripts/build-stamp.mjs --begin` hashes the inputs before the build reads them; `node scripts/build-stamp.mjs`
// writes that hash as the stamp (a build without --begin hashes at the end); `--check` exits 1 when dist/ is
// missing or stale, saying why.
import {createHash} from 'node:crypto'
import {existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

export const REPO = fileURLToPath(new URL('..', import.meta.url))
/** What `npm run build` reads, besides node_modules (package-lock.json pins that). */
export const BUILD_INPUTS = ['src', 'bin', 'package.json', 'package-lock.json', 'tsconfig.json', 'scripts/bundle.mjs', 'scripts/build-stamp.mjs']
const STAMP = 'dist/.inputs-sha256'
/** The hash of the inputs as the build began; becomes the stamp when the build ends. */
const BEGUN = 'dist/.inputs-sha256.begun'

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

export function beginBuild(repo = REPO) {
  mkdirSync(join(repo, 'dist'), {recursive: true})
  writeFileSync(join(repo, BEGUN), `${inputsHash(repo)}\n`)
}

export function writeStamp(repo = REPO) {
  if (existsSync(join(repo, BEGUN))) renameSync(join(repo, BEGUN), join(repo, STAMP))
  else writeFileSync(join(repo, STAMP), `${inputsHash(repo)}\n`)
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv[2] === '--check') {
    const why = staleness()
    if (why !== null) {
      process.stderr.write(`${why}: npm run build\n`)
      process.exit(1)
    }
  } else if (process.argv[2] === '--begin') {
    beginBuild()
  } else {
    writeStamp()
  }
}
