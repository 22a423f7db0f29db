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

/**
 * Wall and CPU (user + system) time of one run, by /usr/bin/time: on a machine shared with other work
 * the wall time moves with the load, the CPU time much less.
 */
async function measure(args: readonly string[]): Promise<{wall: number; cpu: number}> {
  // a terminal is not needed: the text report is laid out for COLUMNS=100 either way
  const {stderr} = await run('/usr/bin/time', ['-f', 'TIME %e %U %S', process.execPath, ...args], {cwd: root, maxBuffer: 64 << 20, env: {...process.env, COLUMNS: '100', NO_COLOR: '1'}})
  const m = /TIME ([\d.]+) ([\d.]+) ([\d.]+)\s*$/.exec(stderr)
  if (m === null) throw new Error(`no timing from /usr/bin/time: ${stderr.slice(-200)}`)
  return {wall: Number(m[1]) * 1000, cpu: (Number(m[2]) + Number(m[3])) * 1000}
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
  const times = new Map(cases.map(([name]) => [name, [] as {wall: number; cpu: number}[]]))
  for (const [, args] of cases) await measure(args) // warm the file cache
  for (let i = 0; i < rounds; i++) for (const [name, args] of cases) times.get(name)!.push(await measure(args))
  const node = times.get('node -e 0')!
  const [nodeWall, nodeCpu] = [median(node.map((t) => t.wall)), median(node.map((t) => t.cpu))]
  for (const [name] of cases) {
    const wall = median(times.get(name)!.map((t) => t.wall))
    const cpu = median(times.get(name)!.map((t) => t.cpu))
    const isAnalyze = name.startsWith('analyze')
    emit(`${name}, wall`, wall, 'ms', {
      ...(isAnalyze ? {target: '≤ 5 × node -e 0', met: wall / nodeWall <= 5} : {}),
      note: `median of ${rounds}; ${(wall / nodeWall).toFixed(1)} × node -e 0`,
    })
    emit(`${name}, CPU`, cpu, 'ms', {note: `user + system, median of ${rounds}; ${(cpu / nodeCpu).toFixed(1)} × node -e 0`})
  }
}
