import {spawn, type ChildProcess} from 'node:child_process'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {tempDir} from '../../helpers/temp-dirs.js'

export {removeTempDirs, tempDir, waitFor} from '../../helpers/temp-dirs.js'

export const root = fileURLToPath(new URL('../../..', import.meta.url))
/** The built CLI, what a user runs (the e2e tier builds it first when dist/ is stale: test/e2e/setup/build.ts). */
export const CLI = join(root, 'bin/run.js')
export const SIM = join(root, 'fixtures/sim/guardkit-sim.mjs')
export const fixture = (name: string) => join(root, 'fixtures/runs', name)

/** The simulator as a command line for `live -- …`. */
export function simCommand(incident: string, worktree: string, speed: number, extra: string[] = []): string[] {
  return [process.execPath, SIM, fixture(incident), '--worktree', worktree, '--speed', String(speed), ...extra]
}


export interface Ran {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
}

/** `node bin/run.js ARGS` as a real process, without CI (so a TTY check is the only thing deciding the output). */
export function startCli(args: string[], options: {cwd?: string; env?: NodeJS.ProcessEnv} = {}): {child: ChildProcess; done: Promise<Ran>; output: () => {stdout: string; stderr: string}} {
  const env = {...process.env, ...options.env}
  delete env.GUARDKIT_REPLAY_DEBUG
  const child = spawn(process.execPath, [CLI, ...args], {cwd: options.cwd ?? root, env, stdio: ['ignore', 'pipe', 'pipe']})
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString('utf8')))
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString('utf8')))
  const done = new Promise<Ran>((resolve) => child.on('close', (code, signal) => resolve({code, signal, stdout, stderr})))
  return {child, done, output: () => ({stdout, stderr})}
}

export async function runCliProcess(args: string[], options: {cwd?: string; env?: NodeJS.ProcessEnv} = {}): Promise<Ran> {
  return startCli(args, options).done
}

/** The JSON objects of `live --json` (one per line). */
export function jsonEvents(stdout: string): Record<string, any>[] {
  return stdout.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Record<string, any>)
}


/** What one incident's live run gave: its warnings by task and code (the evidence turn), and more. */
export interface IncidentRun {
  readonly code: number | null
  readonly stderr: string
  readonly events: Record<string, any>[]
  readonly table: Record<string, Record<string, number | null>>
  readonly record: string
  readonly dir: string
}

/** At most this many simulated builds at once: more would starve them of CPU and make warnings late. */
const SLOTS = 2
let busy = 0
const waiting: (() => void)[] = []
async function slot<T>(run: () => Promise<T>): Promise<T> {
  if (busy >= SLOTS) await new Promise<void>((r) => waiting.push(r))
  busy++
  try {
    return await run()
  } finally {
    busy--
    waiting.shift()?.()
  }
}

/** `live --json` over the simulated incident at `speed` (real processes, real file watching). */
export function runIncident(incident: string, speed: number, extraLive: string[] = [], extraSim: string[] = []): Promise<IncidentRun> {
  return slot(() => runIncidentNow(incident, speed, extraLive, extraSim))
}

async function runIncidentNow(incident: string, speed: number, extraLive: string[], extraSim: string[]): Promise<IncidentRun> {
  const dir = tempDir()
  const record = join(dir, 'rec')
  const live = await runCliProcess(['live', '--json', '--record', record, '--time-scale', String(speed), ...extraLive, '--', ...simCommand(incident, join(dir, 'wt'), speed, extraSim)], {cwd: dir})
  const events = jsonEvents(live.stdout)
  const table: Record<string, Record<string, number | null>> = {}
  for (const w of events.filter((e) => e.type === 'warning')) (table[w.taskId] ??= {})[w.code] = w.turn
  return {code: live.code, stderr: live.stderr, events, table, record, dir}
}
