import {spawn} from 'node:child_process'
import {existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

/** The attacks of docs/security.md, run through the built CLI (`npm run build` first; `npm test` builds). */
export const root = fileURLToPath(new URL('../../..', import.meta.url))
export const BIN = join(root, 'bin/run.js')
export const SIM = join(root, 'fixtures/sim/guardkit-sim.mjs')
export const fixture = (name: string) => join(root, 'fixtures/runs', name)

export function builtCliPresent(): boolean {
  return existsSync(join(root, 'dist/cli/execute.js'))
}

const dirs: string[] = []
export function tempDir(prefix = 'gr-sec-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  dirs.push(dir)
  return dir
}
export function removeTempDirs(): void {
  for (const d of dirs.splice(0)) rmSync(d, {recursive: true, force: true})
}

export interface Ran {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
  /** The process had to be killed: it did not end within the time given. */
  readonly hung: boolean
}

export interface Started {
  readonly done: Promise<Ran>
  readonly output: () => {readonly stdout: string; readonly stderr: string}
}

/**
 * `node bin/run.js ARGS` in its own process group; killed with the group (SIGKILL) when it has not
 * ended after `timeoutMs`, so a hang fails the test instead of stalling the suite.
 */
export function startBuilt(args: readonly string[], options: {cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; input?: string} = {}): Started {
  const inherited = {...process.env}
  for (const name of ['GUARDKIT_REPLAY_DEBUG', 'CI', 'GITHUB_ACTIONS', 'GITHUB_STEP_SUMMARY']) delete inherited[name]
  const env = {...inherited, NO_COLOR: '1', OCLIF_SKIP_NEW_VERSION_CHECK: 'true', ...options.env}
  const child = spawn(process.execPath, [BIN, ...args], {cwd: options.cwd ?? root, env, stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'], detached: true})
  if (options.input !== undefined) child.stdin!.end(options.input)
  let stdout = ''
  let stderr = ''
  let hung = false
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString('utf8')))
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString('utf8')))
  const timer = setTimeout(() => {
    hung = true
    try {
      process.kill(-child.pid!, 'SIGKILL')
    } catch {
      // already gone
    }
  }, options.timeoutMs ?? 60_000)
  const done = new Promise<Ran>((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({code, signal, stdout, stderr, hung})
    }),
  )
  return {done, output: () => ({stdout, stderr})}
}

export function runBuilt(args: readonly string[], options: Parameters<typeof startBuilt>[1] = {}): Promise<Ran> {
  return startBuilt(args, options).done
}

export async function waitFor(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** The JSON objects of `live --json` (one per line). */
export function jsonEvents(stdout: string): Record<string, any>[] {
  return stdout.split('\n').filter((l) => l.trim().startsWith('{')).map((l) => JSON.parse(l) as Record<string, any>)
}

/** Every regular file below `dir`, with its bytes. */
export function filesBelow(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>()
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name)
      const st = statSync(p, {throwIfNoEntry: false})
      if (st?.isDirectory()) walk(p)
      else if (st?.isFile()) out.set(p, readFileSync(p))
    }
  }
  walk(dir)
  return out
}
