/**
 * Start-up of the built CLI against Node's own (`node -e 0`): `--help`, and `analyze` of the largest
 * corpus log as text and as JSON. The budget (docs/cli.md "Start-up"): analyze ≤ 5 × `node -e 0`.
 * The four invocations run interleaved, round after round, so that a burst of load on this shared
 * machine falls on all of them alike; each figure is the median of its rounds.
 */
import {execFile} from 'node:child_process'
import {existsSync, readdirSync, statSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {promisify} from 'node:util'

const root = fileURLToPath(new URL('..', import.meta.url))
const corpus = fileURLToPath(new URL('../../shared/corpus/logs/', import.meta.url))
const run = promisify(execFile)

function emit(name: string, value: number | string, unit: string, extra: {target?: string; met?: boolean; note?: string} = {}): void {
  console.log(`BENCH ${JSON.stringify({name, value, unit, ...extra})}`)
}

async function wall(args: readonly string[]): Promise<number> {
  const t0 = performance.now()
  // a terminal is not needed: the text report is laid out for COLUMNS=100 either way
  await run(process.execPath, [...args], {cwd: root, maxBuffer: 64 << 20, env: {...process.env, COLUMNS: '100', NO_COLOR: '1'}})
  return performance.now() - t0
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]!
}

if (!existsSync(`${root}dist/commands/analyze.js`)) {
  emit('start-up', 'skipped', '', {note: 'run `npm run build` first'})
} else if (!existsSync(corpus)) {
  emit('start-up', 'skipped', '', {note: 'the corpus of logs is not beside the repository'})
} else {
  const logs = readdirSync(corpus).filter((f) => f.endsWith('.log'))
  const largest = logs.reduce((a, b) => (statSync(`${corpus}${a}`).size >= statSync(`${corpus}${b}`).size ? a : b))
  const cases: ReadonlyArray<readonly [string, readonly string[]]> = [
    ['node -e 0', ['-e', '0']],
    ['--help', [`${root}bin/run.js`, '--help']],
    [`analyze ${largest} (text)`, [`${root}bin/run.js`, 'analyze', `${corpus}${largest}`]],
    [`analyze ${largest} --json`, [`${root}bin/run.js`, 'analyze', `${corpus}${largest}`, '--json']],
  ]
  const rounds = 11
  const times = new Map(cases.map(([name]) => [name, [] as number[]]))
  for (const [, args] of cases) await wall(args) // warm the file cache
  for (let i = 0; i < rounds; i++) for (const [name, args] of cases) times.get(name)!.push(await wall(args))
  const node = median(times.get('node -e 0')!)
  for (const [name] of cases) {
    const m = median(times.get(name)!)
    const ratio = m / node
    const isAnalyze = name.startsWith('analyze')
    emit(`${name}, wall`, m, 'ms', {
      ...(isAnalyze ? {target: '≤ 5 × node -e 0', met: ratio <= 5} : {}),
      note: `median of ${rounds}; ${ratio.toFixed(1)} × node -e 0`,
    })
  }
}
