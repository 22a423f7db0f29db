/**
 * `npm run bench`: runs every bench/*.bench.ts in its own Node process (so the peak memory it
 * reports is its own), then prints its figures and the machine they were measured on. A bench
 * prints one `BENCH {json}` line per figure: {name, value, unit, target?, note?}.
 */
import {spawn} from 'node:child_process'
import {readdirSync} from 'node:fs'
import {cpus, loadavg, platform, arch, totalmem} from 'node:os'
import {fileURLToPath} from 'node:url'

interface Figure {
  readonly bench: string
  readonly name: string
  readonly value: number | string
  readonly unit: string
  readonly target?: string
  readonly met?: boolean
  readonly note?: string
}

const dir = fileURLToPath(new URL('.', import.meta.url))
const only = process.argv[2]
const files = readdirSync(dir).filter((f) => f.endsWith('.bench.ts') && (only === undefined || f.includes(only))).sort()

function runBench(file: string): Promise<Figure[]> {
  return new Promise((resolve) => {
    const figures: Figure[] = []
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', `${dir}${file}`], {stdio: ['ignore', 'pipe', 'inherit']})
    let buffered = ''
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8')
      let nl: number
      while ((nl = buffered.indexOf('\n')) !== -1) {
        const line = buffered.slice(0, nl)
        buffered = buffered.slice(nl + 1)
        if (line.startsWith('BENCH ')) figures.push({bench: file, ...(JSON.parse(line.slice(6)) as Omit<Figure, 'bench'>)})
        else process.stderr.write(`  ${line}\n`)
      }
    })
    child.on('close', (code) => {
      if (code !== 0) figures.push({bench: file, name: 'exit code', value: code ?? -1, unit: '', note: 'the bench failed'})
      resolve(figures)
    })
  })
}

const machine = {
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: cpus().length,
  node: process.version,
  os: `${platform()} ${arch()}`,
  memory: `${Math.round(totalmem() / 2 ** 30)} GiB`,
  loadBefore: loadavg().map((l) => l.toFixed(2)).join(' '),
}

const all: Figure[] = []
for (const file of files) {
  process.stderr.write(`running ${file} …\n`)
  all.push(...(await runBench(file)))
}

const width = Math.max(...all.map((f) => f.name.length), 10)
console.log(`\nMachine: ${machine.cpu}, ${machine.cores} cores, ${machine.memory}, ${machine.os}, Node ${machine.node} (load average before: ${machine.loadBefore})`)
for (const file of files) {
  console.log(`\n${file}`)
  for (const f of all.filter((x) => x.bench === file)) {
    const value = typeof f.value === 'number' ? (Number.isInteger(f.value) ? String(f.value) : f.value.toFixed(1)) : f.value
    const target = f.target === undefined ? '' : `   target ${f.target}: ${f.met === undefined ? '?' : f.met ? 'met' : 'NOT met'}`
    console.log(`  ${f.name.padEnd(width)}  ${`${value} ${f.unit}`.padEnd(14)}${target}${f.note === undefined ? '' : `   (${f.note})`}`)
  }
}
