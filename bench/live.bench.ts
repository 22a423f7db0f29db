/**
 * `live` with the dashboard open on long simulated builds. The simulator runs as a real child
 * process; the dashboard is rendered by ink (React production build, as `live` runs it) into a fake
 * 120×50 terminal, with a fake keyboard pressing ↓/↑ twice a second, in this process.
 *
 * - growing: the longest seed incident (db-003-timeout: 3 tasks, 18 turns of DB-003, 40 minutes)
 *   LOOPS times in a row at SPEED× — the records grow, and memory with them (as `analyze` would).
 * - flat: one task whose one turn lasts 9 minutes (ok-single-turn-promises) at 40×, while the
 *   Player's spinner prints 3,000 lines a second (megabytes of log, no new record): memory must stay
 *   flat however long the log and however many redraws.
 *
 * Measured: frames drawn per second (mean and the busiest second; at most 10 by design), key press →
 * the frame showing it, event-loop delay, re-analyses and their mean time, heap after a forced GC
 * (per loop, or every second), peak RSS. Run with `npm run bench live` (node --expose-gc).
 */
import {EventEmitter} from 'node:events'
import {rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {monitorEventLoopDelay} from 'node:perf_hooks'
import {Writable} from 'node:stream'
import {fileURLToPath} from 'node:url'
import {startLiveSession} from '../src/live/session.js'
import {analyzeRun} from '../src/explain/analyze-run.js'
import {createReplayMemo} from '../src/live/replay-memo.js'
import {chooseProfiles} from '../src/services/run-options.js'
import type {RunRecord} from '../src/model/run-record.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const LOOPS = Number(process.env.LIVE_BENCH_LOOPS ?? 6)
const SPEED = Number(process.env.LIVE_BENCH_SPEED ?? 200)

function emit(name: string, value: number | string, unit: string, extra: {target?: string; met?: boolean; note?: string} = {}): void {
  console.log(`BENCH ${JSON.stringify({name, value, unit, ...extra})}`)
}

class FakeTty extends Writable {
  isTTY = true
  columns = 120
  rows = 50
  frames: number[] = []
  override _write(_chunk: unknown, _enc: BufferEncoding, done: () => void): void {
    done()
  }
}

class FakeKeyboard extends EventEmitter {
  isTTY = true
  private data: string | null = null
  press(key: string): void {
    this.data = key
    this.emit('readable')
    this.emit('data', key)
  }
  read(): string | null {
    const d = this.data
    this.data = null
    return d
  }
  setEncoding(): void {}
  setRawMode(): void {}
  resume(): void {}
  pause(): void {}
  ref(): void {}
  unref(): void {}
}

process.env.NODE_ENV ??= 'production'
const {renderDashboard} = await import('../src/render/ink/run-dashboard.js')
const profiles = await chooseProfiles({names: [], with: [], without: []})
const mb = (b: number) => b / 2 ** 20
const gc = () => (globalThis as {gc?: () => void}).gc?.()

interface Measured {
  seconds: number
  frames: number[]
  keyLatency: number[]
  loopDelay: ReturnType<typeof monitorEventLoopDelay>
  heap: number[]
  peakRss: number
  recomputes: number
  recomputeMs: number
  hits: number
  misses: number
  bytes: number
  runs: number
  taskRuns: number
  turns: number
}

/** The first, middle and last heap sample (after a forced GC). */
function startMiddleEnd(heap: readonly number[]): string {
  const at = (i: number) => (heap[i] === undefined ? '?' : mb(heap[i]).toFixed(1))
  return `${at(0)} / ${at(Math.floor((heap.length - 1) / 2))} / ${at(heap.length - 1)}`
}

async function measure(incident: string, speed: number, simArgs: string[], heapEveryMs: number): Promise<Measured> {
  const dir = join(tmpdir(), `gr-live-bench-${process.pid}-${incident}`)
  rmSync(dir, {recursive: true, force: true})
  const memo = createReplayMemo()
  const analyze = (run: RunRecord) => {
    return analyzeRun(run, {profiles, memo, tool: {name: 'guardkit-replay', version: 'bench'}})
  }
  const stdout = new FakeTty()
  const stdin = new FakeKeyboard()
  const loopDelay = monitorEventLoopDelay({resolution: 10})
  loopDelay.enable()
  const started = performance.now()
  const session = await startLiveSession({
    source: {
      kind: 'spawn',
      command: process.execPath,
      args: [join(root, 'fixtures/sim/guardkit-sim.mjs'), join(root, 'fixtures/runs', incident), '--worktree', join(dir, 'wt'), '--speed', String(speed), ...simArgs],
      cwd: tmpdir(),
      env: process.env,
    },
    recordDir: join(dir, 'rec'),
    runPath: join(dir, 'rec'),
    worktree: null,
    stopOn: [],
    graceMs: 5000,
    timeScale: speed,
    tool: {name: 'guardkit-replay', version: 'bench'},
    analyze,
    onEvent: () => undefined,
    handleSignals: false,
  })
  const frames: number[] = []
  const keyLatency: number[] = []
  let pendingKey: number | null = null
  // every frame ink draws: counted, and the first after a key press answers it
  const onRender = () => {
    const now = performance.now()
    frames.push(now)
    if (pendingKey !== null) {
      keyLatency.push(now - pendingKey)
      pendingKey = null
    }
  }
  const actions = {quit: session.quit, interrupt: session.interrupt, activity: () => session.store.userActivity()}
  const ink = renderDashboard({source: session.store, actions, confirmQuit: true, stdout: stdout as unknown as NodeJS.WriteStream, stdin: stdin as unknown as NodeJS.ReadStream, onRender})
  let up = false
  const keys = setInterval(() => {
    pendingKey = performance.now()
    stdin.press(up ? '\u001B[A' : '\u001B[B')
    up = !up
  }, 500)
  const heap: number[] = []
  let peakRss = 0
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 250)
  const heapTimer = setInterval(() => {
    gc()
    heap.push(process.memoryUsage().heapUsed)
  }, heapEveryMs)
  const result = await session.done
  clearInterval(keys)
  clearInterval(sampler)
  clearInterval(heapTimer)
  ink.unmount()
  loopDelay.disable()
  rmSync(dir, {recursive: true, force: true})
  const stats = session.store.stats
  return {
    seconds: (performance.now() - started) / 1000,
    frames, keyLatency: keyLatency.sort((a, b) => a - b), loopDelay, heap, peakRss,
    recomputes: stats.recomputes, recomputeMs: stats.recomputeMs, hits: memo.stats.hits, misses: memo.stats.misses,
    bytes: session.store.bytesRead, runs: result.run.attempts.length, taskRuns: result.run.tasks.length,
    turns: result.run.tasks.reduce((n, t) => n + t.turns.length, 0),
  }
}

function report(label: string, m: Measured): void {
  let busiest = 0
  for (let i = 0, j = 0; i < m.frames.length; i++) {
    while (m.frames[i]! - m.frames[j]! > 1000) j++
    busiest = Math.max(busiest, i - j + 1)
  }
  const p = (q: number) => m.keyLatency[Math.min(m.keyLatency.length - 1, Math.floor(m.keyLatency.length * q))] ?? -1
  emit(`${label}: frames drawn (mean)`, m.frames.length / m.seconds, 'per s', {target: '≤ 10', met: m.frames.length / m.seconds <= 10})
  emit(`${label}: frames drawn (busiest second)`, busiest, '', {target: '≤ 10', met: busiest <= 10})
  emit(`${label}: key → frame median / p95`, `${p(0.5).toFixed(0)} / ${p(0.95).toFixed(0)}`, 'ms', {target: 'p95 < 250 ms', met: p(0.95) < 250})
  emit(`${label}: event-loop delay p50 / p99 / max`, `${(m.loopDelay.percentile(50) / 1e6).toFixed(0)} / ${(m.loopDelay.percentile(99) / 1e6).toFixed(0)} / ${(m.loopDelay.max / 1e6).toFixed(0)}`, 'ms')
  emit(`${label}: re-analyses`, m.recomputes, '', {note: `mean ${(m.recomputeMs / Math.max(1, m.recomputes)).toFixed(0)} ms (read the recording + analyse); replays reused ${m.hits} of ${m.hits + m.misses}`})
  emit(`${label}: peak RSS`, mb(m.peakRss), 'MiB')
}

const loops = await measure('db-003-timeout', SPEED, ['--loop', String(LOOPS)], (2424 / SPEED) * 1000)
emit('growing: build', `${LOOPS} × db-003-timeout at ${SPEED}×`, '', {note: `${loops.runs} runs, ${loops.taskRuns} task runs, ${loops.turns} turns, ${(loops.bytes / 1024).toFixed(0)} KiB of log in ${loops.seconds.toFixed(0)} s`})
report('growing', loops)
const growth = loops.heap.length > 3 ? (loops.heap.at(-1)! - loops.heap[2]!) / (loops.heap.length - 3) : 0
emit('growing: heap after GC, per loop', loops.heap.map((h) => mb(h).toFixed(1)).join(' '), 'MiB')
emit('growing: heap after GC, start / middle / end', startMiddleEnd(loops.heap), 'MiB', {note: 'grows with the records the run holds, as analyze would'})
emit('growing: heap growth per loop (from loop 3)', mb(growth), 'MiB', {note: `${(growth / 1024 / Math.max(1, loops.turns / LOOPS)).toFixed(0)} KiB per turn recorded`})

gc()
const flat = await measure('ok-single-turn-promises', 40, ['--noise', '3000'], 1000)
emit('flat: build', 'ok-single-turn-promises at 40×, 3000 spinner lines/s', '', {note: `${flat.turns} turn, ${(flat.bytes / 2 ** 20).toFixed(1)} MiB of log in ${flat.seconds.toFixed(0)} s`})
report('flat', flat)
const samples = flat.heap.slice(2)
const half = Math.floor(samples.length / 2)
const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)
emit('flat: heap after GC, every second', flat.heap.map((h) => mb(h).toFixed(1)).join(' '), 'MiB')
emit('flat: heap after GC, start / middle / end', startMiddleEnd(flat.heap), 'MiB')
emit('flat: heap, second half − first half', mb(avg(samples.slice(half)) - avg(samples.slice(0, half))), 'MiB', {target: '< 2 MiB', met: Math.abs(mb(avg(samples.slice(half)) - avg(samples.slice(0, half)))) < 2})
process.exit(0)
