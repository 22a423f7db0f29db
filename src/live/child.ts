import {spawn, type ChildProcess} from 'node:child_process'
import {constants} from 'node:os'

/** How the command ended. `code` is what `live` exits with (a signal `n` gives 128 + n, as a shell does). */
export type ChildExit =
  | {readonly kind: 'exited'; readonly code: number}
  | {readonly kind: 'signalled'; readonly signal: NodeJS.Signals; readonly code: number}
  | {readonly kind: 'failed-to-start'; readonly code: number; readonly message: string}

export interface ChildOptions {
  readonly command: string
  readonly args: readonly string[]
  readonly cwd: string
  readonly env: NodeJS.ProcessEnv
  /** stdout and stderr bytes, in the order they arrive. */
  readonly onOutput: (chunk: Buffer, stream: 'stdout' | 'stderr') => void
}

export interface ChildHandle {
  readonly pid: number | null
  /** Settles once the command has ended and both pipes are drained (or it could not start). */
  readonly exited: Promise<ChildExit>
  readonly running: boolean
  /** Sends a signal to the command's whole process group. */
  signal(signal: NodeJS.Signals): boolean
  /**
   * Stops the command gracefully: SIGINT (GuardKit cancels and saves its state), SIGTERM after
   * `graceMs`, SIGKILL 5 s later. Resolves when it has ended.
   */
  stop(graceMs: number): Promise<ChildExit>
  /** Ends everything still holding the pipes: kills the group, destroys the streams. */
  dispose(): void
}

/** After the command itself exits, how long its children may keep the pipes open. */
const DRAIN_MS = 2000
const KILL_AFTER_TERM_MS = 5000

/**
 * Spawns CMD in its own process group (`detached`), with the caller's environment and working
 * directory, stdin closed, stdout and stderr piped. Killing the group on stop reaches the shell
 * wrappers and the agents below it, and destroying the pipes lets `live` end even when a grandchild
 * keeps them open (an open pipe keeps Node's event loop alive after the dashboard has quit).
 */
export function spawnChild(options: ChildOptions): ChildHandle {
  let child: ChildProcess
  let running = true
  let resolveExit!: (e: ChildExit) => void
  const exited = new Promise<ChildExit>((r) => (resolveExit = r))
  const timers: NodeJS.Timeout[] = []
  let settled = false
  const settle = (e: ChildExit) => {
    if (settled) return
    settled = true
    running = false
    for (const t of timers) clearTimeout(t)
    resolveExit(e)
  }
  try {
    child = spawn(options.command, [...options.args], {cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe']})
  } catch (error) {
    settle(startFailure(options.command, error))
    return inert(exited)
  }
  child.stdout?.on('data', (chunk: Buffer) => options.onOutput(chunk, 'stdout'))
  child.stderr?.on('data', (chunk: Buffer) => options.onOutput(chunk, 'stderr'))
  child.on('error', (error) => {
    if (child.pid === undefined) settle(startFailure(options.command, error))
  })
  let exit: ChildExit | null = null
  child.on('exit', (code, signal) => {
    running = false
    exit = signal ? {kind: 'signalled', signal, code: 128 + (constants.signals[signal] ?? 0)} : {kind: 'exited', code: code ?? 0}
    // a grandchild may hold the pipes: give it a moment, then end the group and the pipes
    const t = setTimeout(() => {
      signalGroup(child, 'SIGKILL')
      child.stdout?.destroy()
      child.stderr?.destroy()
      settle(exit!)
    }, DRAIN_MS)
    t.unref()
    timers.push(t)
  })
  child.on('close', () => {
    if (exit !== null) settle(exit)
  })

  const handle: ChildHandle = {
    pid: child.pid ?? null,
    exited,
    get running() {
      return running
    },
    signal: (signal) => (running ? signalGroup(child, signal) : false),
    stop(graceMs) {
      if (!running) return exited
      signalGroup(child, 'SIGINT')
      const term = setTimeout(() => {
        signalGroup(child, 'SIGTERM')
        const kill = setTimeout(() => signalGroup(child, 'SIGKILL'), KILL_AFTER_TERM_MS)
        kill.unref()
        timers.push(kill)
      }, graceMs)
      term.unref()
      timers.push(term)
      return exited
    },
    dispose() {
      if (running) signalGroup(child, 'SIGKILL')
      child.stdout?.destroy()
      child.stderr?.destroy()
      for (const t of timers) clearTimeout(t)
    },
  }
  return handle
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): boolean {
  if (child.pid === undefined) return false
  try {
    process.kill(-child.pid, signal)
    return true
  } catch {
    try {
      return child.kill(signal)
    } catch {
      return false
    }
  }
}

function startFailure(command: string, error: unknown): ChildExit {
  const code = (error as NodeJS.ErrnoException).code ?? 'EUNKNOWN'
  const why = code === 'ENOENT' ? 'command not found' : code === 'EACCES' ? 'permission denied (not executable?)' : (error as Error).message
  return {kind: 'failed-to-start', code: code === 'ENOENT' ? 127 : 126, message: `cannot start ${command}: ${why} (${code})`}
}

function inert(exited: Promise<ChildExit>): ChildHandle {
  return {pid: null, exited, running: false, signal: () => false, stop: () => exited, dispose: () => undefined}
}
