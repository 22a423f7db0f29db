/**
 * End-to-end memory and throughput on a log of many AutoBuild runs (docs/performance.md): `analyze
 * --json` and `inspect --json` of a ~1 GB log, given as a path and piped on stdin, each run in a
 * fresh CLI process with start-up included. Targets: peak RSS <= 300 MB and >= 100 MB/s.
 *
 * The log (under .bench/, reused while the corpus is unchanged; never committed) is the corpus logs
 * concatenated over and over until 1 GiB: ~6,500 runs, ~20,000 task runs. It repeats the corpus;
 * nothing in the program may memoise across task runs by content (that would measure nothing).
 * Peak RSS and CPU time come from a preload (bench/report-rss.mjs). MB/s are over wall time (what a
 * user waits) and over CPU time (less moved by the other tenants of a shared machine); both are
 * given as the median with the lowest and highest of BENCH_ROUNDS runs (default 3).
 */
import {spawn} from 'node:child_process'
import {createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, statSync} from 'node:fs'
import {loadavg} from 'node:os'
import {fileURLToPath} from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const corpus = fileURLToPath(new URL('../../shared/corpus/logs/', import.meta.url))
const SIZE = 2 ** 30
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)

function emit(name: string, value: number | string, unit: string, extra: {target?: string; met?: boolean; note?: string} = {}): void {
  console.log(`BENCH ${JSON.stringify({name, value, unit, ...extra})}`)
}

async function generate(): Promise<string> {
  const names = readdirSync(corpus).filter((f) => f.endsWith('.log')).sort()
  const unit = Buffer.from(names.map((n) => `${readFileSync(`${corpus}${n}`, 'utf8')}\n`).join(''))
  const file = `${root}.bench/many-runs-1g-${unit.length}.log`
  if (existsSync(file) && statSync(file).size >= SIZE) return file
  mkdirSync(`${root}.bench`, {recursive: true})
  const ws = createWriteStream(file)
  for (let written = 0; written < SIZE; written += unit.length) {
    if (!ws.write(unit)) await new Promise<void>((r) => ws.once('drain', () => r()))
  }
  await new Promise<void>((r) => ws.end(() => r()))
  return file
}

interface Measured {
  readonly wall: number
  readonly cpu: number
  readonly rss: number
  readonly out: number
}

/** One CLI run; stdout is counted and dropped (a consumer that keeps up). */
function measure(args: readonly string[], stdinFile: string | null): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const node = [process.execPath, '--import', `${root}bench/report-rss.mjs`, `${root}bin/run.js`, ...args].map((a) => `'${a}'`).join(' ')
    const command = stdinFile === null ? node : `cat '${stdinFile}' | ${node}`
    const t0 = performance.now()
    const child = spawn('/bin/sh', ['-c', command], {cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: {...process.env, OCLIF_SKIP_NEW_VERSION_CHECK: 'true'}})
    let out = 0
    let err = ''
    child.stdout.on('data', (c: Buffer) => (out += c.length))
    child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')))
    child.on('close', (code) => {
      const wall = (performance.now() - t0) / 1000
      const m = /MAXRSS (\d+) CPU ([\d.]+)/.exec(err)
      if (code !== 0 || m === null) return reject(new Error(`exit ${code}: ${err.slice(-500)}`))
      resolve({wall, cpu: Number(m[2]), rss: Number(m[1]), out})
    })
  })
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

if (!existsSync(`${root}dist/commands/analyze.js`)) {
  emit('end to end on a 1 GiB log', 'skipped', '', {note: 'run `npm run build` first'})
} else if (!existsSync(corpus)) {
  emit('end to end on a 1 GiB log', 'skipped', '', {note: 'the corpus logs are not beside the clone (npm run test:corpus names the folder)'})
} else {
  const file = await generate()
  const mb = statSync(file).size / 1e6
  for (const command of ['analyze', 'inspect'] as const) {
    for (const via of ['file', 'stdin'] as const) {
      const runs: Measured[] = []
      const load: string[] = []
      for (let i = 0; i < ROUNDS; i++) {
        load.push(loadavg()[0]!.toFixed(1))
        runs.push(await measure([command, via === 'file' ? file : '-', '--json'], via === 'stdin' ? file : null))
      }
      const wall = runs.map((r) => mb / r.wall)
      const cpu = runs.map((r) => mb / r.cpu)
      const rss = Math.max(...runs.map((r) => r.rss)) / 1e6
      const name = `${command} --json, ${mb.toFixed(0)} MB ${via === 'file' ? 'as a path' : 'on stdin'}`
      const spread = (xs: number[]) => `median of ${ROUNDS}; ${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}`
      emit(`${name}: peak RSS`, Math.round(rss), 'MB', {target: '<= 300 MB', met: rss <= 300, note: `largest of ${ROUNDS}; JSON written ${(runs[0]!.out / 1e6).toFixed(0)} MB`})
      emit(`${name}: wall`, median(wall), 'MB/s', {target: '>= 100 MB/s', met: median(wall) >= 100, note: `${spread(wall)}; 1-min load average before each: ${load.join(', ')}`})
      emit(`${name}: CPU`, median(cpu), 'MB/s', {note: `${spread(cpu)}; MB of log per CPU second (both threads)`})
    }
  }
}
