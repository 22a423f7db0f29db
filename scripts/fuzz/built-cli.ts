import {spawn, spawnSync} from 'node:child_process'
import {cpSync, mkdtempSync, symlinkSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {staleness} from '../build-stamp.mjs'
import type {CommandOutcome} from './invariants.js'

/**
 * The built CLI (`node bin/run.js`) as a real process. The build is made when dist/ is missing or
 * is not the build of the sources as they are (scripts/build-stamp.mjs: a hash of the build's inputs),
 * then copied to a private folder (node_modules linked), so that a rebuild by someone else in the same
 * checkout cannot pull dist/ from under a long fuzz run.
 */

export const REPO = fileURLToPath(new URL('../../', import.meta.url))

/** Builds when stale (`npm run build`, output to stderr); throws when the build fails. */
export function ensureBuilt(log: (line: string) => void, repo = REPO): void {
  const why = staleness(repo)
  if (why === null) return
  log(`building the CLI (${why}): npm run build`)
  const r = spawnSync('npm', ['run', 'build'], {cwd: repo, stdio: ['ignore', 2, 2]})
  if (r.status !== 0) throw new Error(`npm run build failed (exit ${r.status ?? r.signal}); fix the build or pass --no-build / --cli-every 0`)
}

/** A private copy of the built CLI; returns its bin/run.js. */
export function snapshotBuild(repo = REPO): string {
  const dir = mkdtempSync(join(tmpdir(), 'guardkit-replay-fuzz-cli-'))
  for (const part of ['bin', 'dist', 'oclif.manifest.json', 'package.json']) cpSync(join(repo, part), join(dir, part), {recursive: true})
  symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'))
  return join(dir, 'bin/run.js')
}

/** Output kept per stream: enough for any report of a generated run. */
const MAX_OUTPUT = 256 * 1024 * 1024

export function runBuilt(runJs: string, argv: readonly string[], options: {cwd: string | null; timeoutMs: number}): Promise<CommandOutcome> {
  const env: NodeJS.ProcessEnv = {...process.env, CI: '1'}
  for (const name of ['GUARDKIT_REPLAY_DEBUG', 'FORCE_COLOR', 'NODE_ENV', 'NODE_OPTIONS', 'DEBUG']) delete env[name]
  const started = performance.now()
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [runJs, ...argv], {cwd: options.cwd ?? REPO, env, stdio: ['ignore', 'pipe', 'pipe']})
    const out: Buffer[] = []
    const err: Buffer[] = []
    let size = 0
    const keep = (into: Buffer[]) => (chunk: Buffer) => {
      size += chunk.length
      if (size <= MAX_OUTPUT) into.push(chunk)
    }
    child.stdout.on('data', keep(out))
    child.stderr.on('data', keep(err))
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      child.kill('SIGKILL')
    }, options.timeoutMs)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({
        exit: code,
        signal: timedOut ? null : signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        ms: performance.now() - started,
        timedOut,
      })
    })
  })
}
