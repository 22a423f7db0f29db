import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {availableParallelism, tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {parseArgs} from 'node:util'
import fc from 'fast-check'
import {spawnSync} from 'node:child_process'
import {ensureBuilt, REPO, snapshotBuild} from './built-cli.js'
import type {CaseResult} from './check-case.js'
import {describeCase} from './describe-case.js'
import {runCase} from './model/run-case.js'
import type {RunCase} from './model/types.js'
import {removeTree} from './materialise.js'
import {killAllWorkers, Worker} from './pool.js'
import {Stats} from './stats.js'

/**
 * `npm run fuzz -- --runs N --seed S`: CLI robustness fuzzing (scripts/fuzz/README.md). Generates RUN
 * folders (valid, damaged, hostile), runs analyze/inspect/explain/whatif on each in-process and, for a
 * sample, through the built CLI, and checks: exit 0 or 2 (never 3), no stack trace, with --json one
 * JSON document on stdout, the input unchanged on disk. A failure is shrunk and printed with its seed,
 * path and folder. Exit status: 0 all passed, 1 a failure was found, 2 bad options or setup.
 */

const HELP = `usage: npm run fuzz -- [--runs N] [--seed S] [--jobs J] [--cli-every K] [options]

  --runs N            cases to run (default 100)
  --seed S            seed (default: a random one, printed); shard k of --jobs uses S+k
  --jobs J            worker processes, each a shard with its own seed (default ${Math.min(2, availableParallelism())})
  --cli-every K       about one case in K also runs through the built CLI (default 20; 0: never)
  --no-build          use dist/ as it is (default: npm run build when dist/ is missing or stale)
  --path P            replay the counterexample at fast-check path P (with its --seed, --runs, --jobs 1)
  --no-shrink         report the first failure without shrinking it
  --max-entries N     generated entries per case besides an authored run's files (default 8)
  --case-timeout S    seconds a case may take before its worker is killed (default 120)
  --shrink-timeout S  the same while a failure is shrunk (default 20: a hang costs this much per step)
  --cli-timeout S     seconds one built-CLI command may take (default 120)
  --keep-dir DIR      where the folders of failing cases are kept (default $TMPDIR/guardkit-replay-fuzz-failures)
  --report FILE       write the statistics as JSON
  --quiet             no progress lines on stderr`

interface Options {
  runs: number
  seed: number
  jobs: number
  cliEvery: number
  build: boolean
  path: string | undefined
  shrink: boolean
  maxEntries: number
  caseTimeoutMs: number
  shrinkTimeoutMs: number
  cliTimeoutMs: number
  keepDir: string
  report: string | undefined
  quiet: boolean
}

function parseOptions(argv: string[]): Options {
  const {values} = parseArgs({
    args: argv,
    options: {
      runs: {type: 'string'}, seed: {type: 'string'}, jobs: {type: 'string'}, 'cli-every': {type: 'string'}, 'no-build': {type: 'boolean'},
      path: {type: 'string'}, 'no-shrink': {type: 'boolean'}, 'max-entries': {type: 'string'}, 'case-timeout': {type: 'string'}, 'shrink-timeout': {type: 'string'},
      'cli-timeout': {type: 'string'}, 'keep-dir': {type: 'string'}, report: {type: 'string'}, quiet: {type: 'boolean'}, help: {type: 'boolean', short: 'h'},
    },
  })
  if (values.help) {
    console.log(HELP)
    process.exit(0)
  }
  const int = (name: string, v: string | undefined, dflt: number, min: number) => {
    if (v === undefined) return dflt
    const n = Number(v)
    if (!Number.isSafeInteger(n) || n < min) throw new Error(`--${name} takes an integer ≥ ${min}, got ${JSON.stringify(v)}`)
    return n
  }
  const path = values.path
  return {
    runs: int('runs', values.runs, 100, 1),
    seed: values.seed === undefined ? (Math.random() * 2 ** 31) | 0 : int('seed', values.seed, 0, -(2 ** 31)) | 0,
    jobs: path === undefined ? int('jobs', values.jobs, Math.min(2, availableParallelism()), 1) : 1,
    cliEvery: int('cli-every', values['cli-every'], 20, 0),
    build: !values['no-build'],
    path,
    shrink: !values['no-shrink'],
    maxEntries: int('max-entries', values['max-entries'], 8, 0),
    caseTimeoutMs: int('case-timeout', values['case-timeout'], 120, 1) * 1000,
    shrinkTimeoutMs: int('shrink-timeout', values['shrink-timeout'], 20, 1) * 1000,
    cliTimeoutMs: int('cli-timeout', values['cli-timeout'], 120, 1) * 1000,
    keepDir: values['keep-dir'] ?? join(tmpdir(), 'guardkit-replay-fuzz-failures'),
    report: values.report,
    quiet: values.quiet ?? false,
  }
}

interface ShardOutcome {
  readonly shard: number
  readonly seed: number
  readonly runs: number
  readonly stats: Stats
  readonly details: fc.RunDetails<[RunCase]>
}

async function runShard(shard: number, seed: number, runs: number, o: Options, workRoot: string, cli: {runJs: string; timeoutMs: number} | null, stats: Stats): Promise<ShardOutcome> {
  const worker = new Worker(o.caseTimeoutMs)
  let n = 0
  // every generated case runs: no case is set aside for a bug known but not fixed
  const cases = runCase({cliEvery: cli === null ? 0 : o.cliEvery, maxEntries: o.maxEntries})
  const property = fc.asyncProperty(cases, async (c) => {
    const result = await worker.run(c, join(workRoot, `s${shard}-${++n}`), false, cli)
    stats.add(result)
    if (result.failures.length > 0) {
      // from here on fast-check shrinks: a case that hangs again should not cost the full limit each time
      worker.caseTimeoutMs = Math.min(o.caseTimeoutMs, o.shrinkTimeoutMs)
      throw new CaseFailure(result)
    }
  })
  try {
    const details = await fc.check(property, {seed, numRuns: runs, endOnFailure: !o.shrink, ...(o.path === undefined ? {} : {path: o.path})})
    return {shard, seed, runs, stats, details}
  } finally {
    worker.kill()
  }
}

/** The commit the sources are at, and how many files differ from it (a run is only as reproducible as that). */
function sourceVersion(): string {
  const git = (...args: string[]) => spawnSync('git', args, {cwd: REPO, encoding: 'utf8'})
  const head = git('rev-parse', '--short', 'HEAD')
  if (head.status !== 0) return 'not a git checkout'
  const dirty = git('status', '--porcelain', '--', 'src', 'bin', 'package.json').stdout.split('\n').filter((l) => l.trim() !== '').length
  return `${head.stdout.trim()}${dirty === 0 ? '' : ` with ${dirty} changed file(s) in src/, bin/, package.json`}`
}

class CaseFailure extends Error {
  constructor(readonly result: CaseResult) {
    super(result.failures.join('\n'))
    this.name = 'CaseFailure'
  }
}

async function main(): Promise<number> {
  let o: Options
  try {
    o = parseOptions(process.argv.slice(2))
  } catch (error) {
    console.error(`fuzz: ${(error as Error).message}\n\n${HELP}`)
    return 2
  }
  const log = (line: string) => {
    if (!o.quiet) console.error(`[fuzz] ${line}`)
  }
  let cli: {runJs: string; timeoutMs: number} | null = null
  if (o.cliEvery > 0) {
    try {
      if (o.build) ensureBuilt(log)
      cli = {runJs: snapshotBuild(), timeoutMs: o.cliTimeoutMs}
      snapshot = dirname(dirname(cli.runJs))
    } catch (error) {
      console.error(`fuzz: ${(error as Error).message}`)
      return 2
    }
  }
  const shards = Array.from({length: o.jobs}, (_, k) => ({shard: k, seed: (o.seed + k) | 0, runs: Math.floor(o.runs / o.jobs) + (k < o.runs % o.jobs ? 1 : 0)})).filter((s) => s.runs > 0)
  console.log(`guardkit-replay fuzz: ${o.runs} cases, seed ${o.seed}, ${shards.length} job(s) (shard seeds ${shards.map((s) => s.seed).join(', ')}), built CLI ${cli === null ? 'off' : `for about 1 case in ${o.cliEvery}`}`)
  console.log(`sources: ${sourceVersion()}, node ${process.version}`)
  console.log(`replay with: npm run fuzz -- --runs ${o.runs} --seed ${o.seed} --jobs ${o.jobs} --cli-every ${o.cliEvery} --max-entries ${o.maxEntries}${o.path === undefined ? '' : ` --path ${o.path}`}`)

  const root = mkdtempSync(join(tmpdir(), 'guardkit-replay-fuzz-'))
  caseRoot = root
  const started = performance.now()
  const live: Stats[] = []
  const timer = setInterval(() => {
    const total = new Stats()
    for (const s of live) total.merge(s)
    log(total.line(o.runs, performance.now() - started))
  }, 15_000)
  let outcomes: ShardOutcome[]
  try {
    outcomes = await Promise.all(
      shards.map((s) => {
        const stats = new Stats()
        live.push(stats)
        return runShard(s.shard, s.seed, s.runs, o, root, cli, stats)
      }),
    )
  } finally {
    clearInterval(timer)
  }
  const wallMs = performance.now() - started
  const total = new Stats()
  for (const out of outcomes) total.merge(out.stats)

  let failed = false
  for (const out of outcomes) {
    if (!out.details.failed) continue
    failed = true
    await reportFailure(out, o, cli, shards.length)
  }
  removeTree(root)

  const summary = total.toJSON(wallMs)
  console.log(`\n${failed ? 'FAILED' : 'passed'}: ${JSON.stringify(summary, null, 2)}`)
  if (o.report !== undefined) writeFileSync(o.report, `${JSON.stringify({seed: o.seed, runs: o.runs, jobs: o.jobs, cliEvery: o.cliEvery, maxEntries: o.maxEntries, sources: sourceVersion(), node: process.version, passed: !failed, ...summary}, null, 2)}\n`)
  return failed ? 1 : 0
}

async function reportFailure(out: ShardOutcome, o: Options, cli: {runJs: string; timeoutMs: number} | null, shardCount: number): Promise<void> {
  const d = out.details
  const counterexample = d.counterexample?.[0]
  console.log(`\nFAILED — shard ${out.shard + 1} of ${shardCount}: seed ${d.seed}, path ${JSON.stringify(d.counterexamplePath)}, after ${d.numRuns} case(s), shrunk ${d.numShrinks} time(s)`)
  console.log(`reproduce: npm run fuzz -- --seed ${d.seed} --runs ${out.runs} --jobs 1 --cli-every ${o.cliEvery} --max-entries ${o.maxEntries} --path ${d.counterexamplePath ?? ''}`)
  if (counterexample === undefined) {
    console.log(String(d.errorInstance))
    return
  }
  mkdirSync(o.keepDir, {recursive: true})
  const keep = join(o.keepDir, `seed-${d.seed}-path-${(d.counterexamplePath ?? 'x').replace(/:/g, '.')}`)
  rmSync(keep, {recursive: true, force: true})
  const worker = new Worker(o.caseTimeoutMs)
  let result: CaseResult
  try {
    result = await worker.run(counterexample, keep, true, cli)
  } finally {
    worker.kill()
  }
  const failures = result.failures.length > 0 ? result.failures : [`(passed when run again: flaky?) first run: ${d.errorInstance instanceof Error ? d.errorInstance.message : String(d.errorInstance)}`]
  console.log(`failures of the shrunk case:\n${failures.map((f) => `  - ${f}`).join('\n')}`)
  console.log(`the shrunk case:\n${describeCase(counterexample).replace(/^/gm, '  ')}`)
  const caseFile = join(keep, 'case.json')
  mkdirSync(keep, {recursive: true})
  writeFileSync(caseFile, `${JSON.stringify({name: 'NAME-ME', seed: d.seed, path: d.counterexamplePath, runs: out.runs, cliEvery: o.cliEvery, maxEntries: o.maxEntries, failures, case: counterexample}, null, 2)}\n`)
  console.log(`kept for inspection: ${keep} (RUN is ${join(keep, 'r', counterexample.runName)}; the case as JSON, ready for test/fuzz/regressions/: ${caseFile})`)
}

/** The private copy of the build (built-cli.ts), removed on exit however the run ends. */
let snapshot: string | null = null
/** The folder the cases are written to; a failing case's folder is kept elsewhere (--keep-dir). */
let caseRoot: string | null = null

process.on('exit', () => {
  killAllWorkers()
  for (const dir of [snapshot, caseRoot]) {
    try {
      if (dir !== null) removeTree(dir)
    } catch {
      // best effort: the process is ending
    }
  }
})
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    killAllWorkers()
    process.exit(130)
  })
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error)
    process.exit(2)
  },
)
