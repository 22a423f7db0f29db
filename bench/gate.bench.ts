/**
 * Gate throughput (docs/ci.md "Performance"): 1,000 recorded runs × 2 profiles (legacy →
 * fixed) in under 10 s on this machine, with the peak memory of the whole process (its worker
 * threads included); and `--shard` splits whose merge equals the unsharded report.
 *
 * The corpus is generated under .bench/ (gitignored, reused while the fixtures are unchanged):
 * the authored fixtures of fixtures/runs/ (logs, worktree copies, recordings) copied round-robin
 * into 1,000 run folders, every tenth with its log varied (the AutoBuild lines shifted by a
 * prompt-free preamble line, so no two runs of a fixture are byte-identical and nothing is cached).
 * Each measurement is a fresh CLI process (the built dist/ when it is newer than the sources, else
 * the sources through tsx), start-up included; its peak RSS comes from a preload that reports
 * process.resourceUsage().maxRSS at exit.
 */
import {execFile} from 'node:child_process'
import {cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {availableParallelism, loadavg} from 'node:os'
import {fileURLToPath} from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const fixtures = `${root}fixtures/runs/`
const RUNS = 1000
const TARGET_SECONDS = 10

function emit(name: string, value: number | string, unit: string, extra: {target?: string; met?: boolean; note?: string} = {}): void {
  console.log(`BENCH ${JSON.stringify({name, value, unit, ...extra})}`)
}

function fixtureNames(): string[] {
  return readdirSync(fixtures).filter((f) => !f.startsWith('_') && !f.startsWith('.') && existsSync(`${fixtures}${f}/expected.yaml`)).sort()
}

/** .bench/gate-corpus-<stamp>/run-0000-<fixture>/…, 1,000 of them; regenerated when the fixtures change. */
function generateCorpus(): string {
  const names = fixtureNames()
  const stamp = names.reduce((a, n) => a + statSync(`${fixtures}${n}`).mtimeMs + (existsSync(`${fixtures}${n}/run.log`) ? statSync(`${fixtures}${n}/run.log`).size : 0), 0).toFixed(0)
  const dir = `${root}.bench/gate-corpus-${stamp}/`
  if (existsSync(dir) && readdirSync(dir).length === RUNS) return dir
  for (const old of existsSync(`${root}.bench`) ? readdirSync(`${root}.bench`).filter((f) => f.startsWith('gate-corpus-')) : []) rmSync(`${root}.bench/${old}`, {recursive: true, force: true})
  mkdirSync(dir, {recursive: true})
  for (let i = 0; i < RUNS; i++) {
    const name = names[i % names.length]!
    const target = `${dir}run-${String(i).padStart(4, '0')}-${name}`
    cpSync(`${fixtures}${name}`, target, {recursive: true})
    rmSync(`${target}/README.md`, {force: true})
    const log = `${target}/run.log`
    // a recording's files are hashed in its manifest: vary only logs that are not part of one
    if (i % 10 === 9 && existsSync(log) && !existsSync(`${target}/guardkit-replay.json`)) {
      writeFileSync(log, Buffer.concat([Buffer.from(`# bench copy ${i} of ${name}\n`), readFileSync(log)]))
    }
  }
  return dir
}

/** The built CLI when dist/ is newer than every source file, else the sources (tsx). */
function cli(): {entry: string; built: boolean} {
  const dist = `${root}dist/commands/gate.js`
  if (existsSync(dist) && existsSync(`${root}dist/services/gate/worker.js`)) {
    const built = statSync(dist).mtimeMs
    const stale = readdirSync(`${root}src`, {recursive: true}).map(String).filter((f) => f.endsWith('.ts')).some((f) => statSync(`${root}src/${f}`).mtimeMs > built)
    if (!stale) return {entry: `${root}bin/run.js`, built: true}
  }
  return {entry: `${root}bin/dev.js`, built: false}
}

interface Measured {
  readonly seconds: number
  /** user + system CPU of the whole process, worker threads included */
  readonly cpu: number
  readonly maxRss: number
  readonly stdout: string
  readonly code: number
  /** 1-minute load average when it ended: other work on the machine inflates wall time */
  readonly load: number
}

function gate(args: readonly string[]): Promise<Measured> {
  const {entry} = cli()
  const preload = `${root}bench/report-rss.mjs`
  return new Promise((resolve, reject) => {
    const t0 = performance.now()
    execFile(process.execPath, ['--import', preload, entry, ...args], {cwd: root, maxBuffer: 1 << 30, env: {...process.env, CI: 'true', OCLIF_SKIP_NEW_VERSION_CHECK: 'true', GITHUB_ACTIONS: '', GITHUB_STEP_SUMMARY: ''}}, (error, stdout, stderr) => {
      const seconds = (performance.now() - t0) / 1000
      const m = /MAXRSS (\d+) CPU ([\d.]+)/.exec(stderr)
      const code = error ? ((error as {code?: number}).code ?? -1) : 0
      if (!m || code > 1) return reject(new Error(`gate ${args.join(' ')} exited ${code}: ${stderr.slice(-2000)}`))
      resolve({seconds, cpu: Number(m[2]), maxRss: Number(m[1]), stdout, code, load: loadavg()[0]!})
    })
  })
}

const corpus = generateCorpus()
const out = `${root}.bench/`
const base = ['gate', corpus, '--baseline', 'legacy', '--candidate', 'fixed', '--json', '--no-progress']
const {built} = cli()
const where = built ? 'built CLI (dist/)' : 'sources via tsx (run `npm run build` for the shipped figures)'

const ROUNDS = 5
const rounds: Measured[] = []
for (let i = 0; i < ROUNDS; i++) rounds.push(await gate(base))
rounds.sort((a, b) => a.seconds - b.seconds)
const best = rounds[0]!
const median = rounds[Math.floor(ROUNDS / 2)]!
const report = JSON.parse(median.stdout) as {summary: {runs: number; tasks: number; improved: number; regressed: number; unchanged: number; changed: number}}
const s = report.summary
emit('corpus', `${s.runs} runs, ${s.tasks} task runs`, '', {note: `${fixtureNames().length} fixtures copied round-robin into ${corpus.replace(root, '')}; legacy → fixed: ${s.improved} improved, ${s.changed} changed, ${s.unchanged} unchanged, ${s.regressed} regressed`})
const busy = (r: Measured): string => `${r.seconds.toFixed(2)} s (cpu ${r.cpu.toFixed(1)} s, load ${r.load.toFixed(1)})`
emit(`gate ${RUNS} runs × 2 profiles, wall (best of ${ROUNDS})`, best.seconds, 's', {target: `< ${TARGET_SECONDS} s`, met: best.seconds < TARGET_SECONDS, note: `${where}, ${availableParallelism()} worker threads, start-up included; median ${median.seconds.toFixed(2)} s; rounds ${rounds.map(busy).join(', ')}`})
emit('gate CPU time (user + system, all threads)', Math.min(...rounds.map((r) => r.cpu)), 's', {note: 'wall on an idle machine ≈ CPU time / cores; the load average says how idle it was'})
emit('gate throughput (best round)', s.runs / best.seconds, 'runs/s', {note: `${(s.tasks / best.seconds).toFixed(0)} task runs/s, each replayed under legacy and fixed`})
emit('gate peak RSS (process, worker threads included)', Math.round(Math.max(...rounds.map((r) => r.maxRss)) / 1e6), 'MB')

const single = await gate([...base, '--jobs', '1'])
emit('gate, one thread (--jobs 1), wall', single.seconds, 's', {note: `cpu ${single.cpu.toFixed(1)} s, peak RSS ${Math.round(single.maxRss / 1e6)} MB, load ${single.load.toFixed(1)}`})

// --shard: two halves, merged, must equal the whole
const halves = [await gate([...base, '--shard', '1/2']), await gate([...base, '--shard', '2/2'])]
const files = halves.map((h, i) => {
  const f = `${out}gate-shard-${i + 1}.json`
  writeFileSync(f, h.stdout)
  return f
})
const merged = await gate(['gate', 'merge', ...files, '--json'])
const strip = (doc: string): string => {
  const {merged: _m, shard: _s, ...rest} = JSON.parse(doc) as Record<string, unknown>
  return JSON.stringify(rest)
}
const equal = strip(merged.stdout) === strip(median.stdout)
emit('--shard 1/2 + 2/2 merged = unsharded report', equal ? 'identical' : 'DIFFERENT', '', {target: 'identical', met: equal, note: `shard walls ${halves.map((h) => h.seconds.toFixed(2)).join(' s, ')} s (each on ${availableParallelism()} threads); merge ${merged.seconds.toFixed(2)} s`})
