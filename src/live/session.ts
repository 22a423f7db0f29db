import {resolve} from 'node:path'
import type {AnalysisReport} from '../explain/analysis.js'
import type {IngestLimits} from '../ingest/index.js'
import type {RunRecord} from '../model/run-record.js'
import {spawnChild, type ChildExit, type ChildHandle} from './child.js'
import {warningEvent, type LiveEvent} from './events.js'
import {LiveStore} from './live-store.js'
import {LiveRecorder} from './recorder.js'
import {tailFile, type Tail} from './tail.js'
import type {LiveWarning} from './warnings.js'
import {watchWorktree, type WatchedFile, type WorktreeWatcher} from './watch.js'

export type LiveSource =
  | {readonly kind: 'spawn'; readonly command: string; readonly args: readonly string[]; readonly cwd: string; readonly env: NodeJS.ProcessEnv}
  | {readonly kind: 'attach'; readonly log: string; readonly cwd: string; readonly follow: boolean}

export interface LiveSessionOptions {
  readonly source: LiveSource
  /** The recording directory (created; the caller checked it is new or empty). */
  readonly recordDir: string
  /** The recording as the user names it (the report's `run.path`). */
  readonly runPath: string
  /** `--worktree`: null to find it in the command's output (else the current directory, at the end). */
  readonly worktree: string | null
  readonly stopOn: readonly string[]
  /** How long the command gets to stop after SIGINT before SIGTERM (ms). */
  readonly graceMs: number
  readonly timeScale: number
  readonly tool: {readonly name: string; readonly version: string}
  readonly analyze: (run: RunRecord) => AnalysisReport
  readonly limits?: IngestLimits
  readonly polling?: boolean
  /** Attach mode: after the run's end is in the log, stop once it has been quiet this long (ms). */
  readonly idleExitMs?: number
  /** The command's output, passed through (plain and JSON modes). */
  readonly passthrough?: (chunk: Buffer, stream: 'stdout' | 'stderr') => void
  readonly onEvent: (event: LiveEvent) => void
  /** Take over SIGINT/SIGTERM/SIGHUP of this process while the session runs. */
  readonly handleSignals: boolean
  readonly clock?: () => number
}

export interface LiveResult {
  /** What `live` exits with: the command's exit code (0 in attach mode). */
  readonly exitCode: number
  readonly exit: ChildExit | null
  readonly run: RunRecord
  readonly report: AnalysisReport
  readonly warnings: readonly LiveWarning[]
  /** The warning `--stop-on` stopped the build for. */
  readonly stoppedBy: LiveWarning | null
  readonly recordError: Error | null
}

export interface LiveSession {
  readonly store: LiveStore
  readonly done: Promise<LiveResult>
  /** Ctrl-C: the first asks the command to stop (SIGINT), the second sends SIGTERM, the third SIGKILL. */
  interrupt(): void
  /** `q` (confirmed): stop the build gracefully, or stop following the log. */
  quit(): void
}

/**
 * One `live` run: the command spawned (or the log tailed), its output passed through, teed to
 * `DIR/run.log` and fed to the live store; the worktree found in the output (or given) watched and
 * every artifact version recorded as it lands; warnings raised as the evidence appears, the build
 * stopped on `--stop-on` codes; at the end the recording finished and the final report made from it.
 */
export async function startLiveSession(options: LiveSessionOptions): Promise<LiveSession> {
  const recorder = await LiveRecorder.create(options.recordDir, options.tool)
  const title = options.source.kind === 'spawn' ? [options.source.command, ...options.source.args].join(' ') : options.source.log
  const startedWall = Date.now()
  let watcher: WorktreeWatcher | null = null
  let child: ChildHandle | null = null
  let tail: Tail | null = null
  let stopping = false
  let stoppedBy: LiveWarning | null = null
  let interrupts = 0
  let finishAttach: (() => void) | null = null
  const versions = new Map<string, number>()
  const emit = options.onEvent

  const store = new LiveStore({
    title,
    mode: options.source.kind,
    recordDir: options.recordDir,
    runPath: options.runPath,
    analyze: options.analyze,
    clock: options.clock,
    timeScale: options.timeScale,
    limits: options.limits,
    onWorktree: (path) => {
      if (watcher === null && options.worktree === null) startWatching(resolve(options.source.cwd, path), 'output')
    },
  })

  function onFile(f: WatchedFile): void {
    void recorder.recordFile(f.rel, f.bytes, f.seenAt).then(async (result) => {
      if (result === 'same' || result === undefined) return
      const version = (versions.get(f.rel) ?? 0) + 1
      versions.set(f.rel, version)
      if (f.writesSinceLast >= 2) {
        const message = `${f.writesSinceLast} writes began before the recorder could read it: a version in between may have been missed`
        recorder.addGap(f.rel, message)
        emit({type: 'gap', path: f.rel, message})
      }
      if (result === 'version') await recorder.writeInterimManifest()
      if (f.invalid !== null) store.addNotice(`${f.rel}: ${f.invalid}`)
      emit({type: 'artifact', path: f.rel, version, bytes: f.bytes.length, seenAt: f.seenAt.toISOString(), reads: f.reads, invalid: f.invalid})
      store.artifactsChanged()
    })
  }

  function startWatching(path: string, source: 'flag' | 'output' | 'cwd', modifiedSince?: number): void {
    store.setWorktree(path)
    emit({type: 'worktree', path, source})
    watcher = watchWorktree(path, {
      onFile,
      onRemoved: (rel) => {
        void recorder.removeFile(rel).then(() => {
          emit({type: 'removed', path: rel})
          store.artifactsChanged()
        })
      },
      onNotice: (message) => {
        store.addNotice(message)
        emit({type: 'notice', message})
      },
      onSkipped: (f) => {
        store.addNotice(`${f.rel}: ${f.message}`)
        emit({type: 'skipped', path: f.rel, code: f.code, message: f.message})
      },
      polling: options.polling,
      modifiedSince,
    })
  }

  function stop(reason: string, code: string | null): void {
    if (stopping) return
    stopping = true
    store.setStatus('stopping')
    emit({type: 'stopping', reason, code})
    if (child) void child.stop(options.graceMs)
    else finishAttach?.()
  }

  const interrupt = () => {
    interrupts++
    if (child === null || !child.running) return stop('interrupted', null)
    if (interrupts === 1) stop('interrupted (Ctrl-C): the command was sent SIGINT and is given time to stop', null)
    else if (interrupts === 2) child.signal('SIGTERM')
    else child.signal('SIGKILL')
  }
  const onTerm = () => stop('live was asked to end (SIGTERM/SIGHUP)', null)
  if (options.handleSignals) {
    process.on('SIGINT', interrupt)
    process.on('SIGTERM', onTerm)
    process.on('SIGHUP', onTerm)
  }

  store.on('warning', (w) => {
    emit(warningEvent(w))
    if ((options.stopOn.includes(w.code) || options.stopOn.includes(w.category)) && !stopping && child !== null) {
      stoppedBy = w
      stop(`${w.code} on ${w.taskId} (turn ${w.turn ?? '?'}): ${w.message}`, w.code)
    }
  })
  store.on('turn', (t) => emit({type: 'turn', ...t}))
  store.on('outcome', (o) => emit({type: 'outcome', ...o}))

  if (options.worktree !== null) startWatching(resolve(options.source.cwd, options.worktree), 'flag')
  const onBytes = (chunk: Buffer) => {
    recorder.appendLog(chunk)
    store.pushLog(chunk)
  }

  let exit: ChildExit | null = null
  const running = (async () => {
    if (options.source.kind === 'spawn') {
      const src = options.source
      child = spawnChild({
        command: src.command,
        args: src.args,
        cwd: src.cwd,
        env: src.env,
        onOutput: (chunk, stream) => {
          options.passthrough?.(chunk, stream)
          onBytes(chunk)
        },
      })
      emit({type: 'start', mode: 'spawn', command: [src.command, ...src.args], log: null, record: options.runPath, pid: child.pid})
      store.setStatus('running')
      exit = await child.exited
      const detail = describeExit(exit)
      if (exit.kind === 'failed-to-start') store.addNotice(exit.message)
      store.setExit({code: exit.code, detail})
      emit({type: 'exit', code: exit.code, detail})
    } else {
      const src = options.source
      emit({type: 'start', mode: 'attach', command: null, log: src.log, record: options.runPath, pid: null})
      store.setStatus('running')
      const ended = new Promise<void>((r) => (finishAttach = r))
      tail = tailFile(resolve(src.cwd, src.log), {
        onData: onBytes,
        onEvent: (e) => {
          const message = e.kind === 'waiting' ? `waiting for ${e.path} to appear` : e.kind === 'truncated' ? `${e.path} was truncated (at ${e.at} bytes): reading it again from its start` : e.kind === 'rotated' ? `${e.path} was replaced (rotated): following the new file` : null
          if (message) {
            store.addNotice(message)
            emit({type: 'notice', message})
          }
        },
      })
      const idle = src.follow ? null : setInterval(() => {
        if (runEnded(store) && quietFor(store) >= (options.idleExitMs ?? 2000)) finishAttach?.()
      }, 200)
      await ended
      if (idle) clearInterval(idle)
      await tail.stop()
    }
  })()

  let lastBytes = -1
  let lastChange = Date.now()
  function quietFor(s: LiveStore): number {
    if (s.bytesRead !== lastBytes) {
      lastBytes = s.bytesRead
      lastChange = Date.now()
    }
    return Date.now() - lastChange
  }

  const done = (async (): Promise<LiveResult> => {
    try {
      await running
      // a command that never started wrote nothing: no worktree to watch, no recording to announce
      const started = (exit as ChildExit | null)?.kind !== 'failed-to-start'
      if (watcher === null && options.source.kind === 'spawn' && started) {
        // no worktree named: the contract's fallback, the current directory (files of this session only)
        startWatching(options.source.cwd, 'cwd', startedWall)
      }
      await (watcher as WorktreeWatcher | null)?.close()
      const manifest = await recorder.finish()
      const {run, report} = await store.finalize()
      store.setStatus('finished')
      if (started) emit({type: 'recording', path: options.runPath, files: manifest?.files.length ?? 0, versions: manifest?.versions.length ?? 0, gaps: manifest?.gaps.length ?? 0})
      const exitCode = (exit as ChildExit | null)?.code ?? 0
      return {exitCode, exit, run, report, warnings: [...store.raisedWarnings], stoppedBy, recordError: recorder.error}
    } finally {
      if (options.handleSignals) {
        process.off('SIGINT', interrupt)
        process.off('SIGTERM', onTerm)
        process.off('SIGHUP', onTerm)
      }
      ;(child as ChildHandle | null)?.dispose()
      store.close()
    }
  })()

  return {
    store,
    done,
    interrupt,
    quit: () => stop(child === null ? 'stopped following (q)' : 'stopped from the dashboard (q)', null),
  }
}

/** The log holds the run's end: its last attempt has every task's outcome and, for a feature, the result. */
function runEnded(store: LiveStore): boolean {
  const run = store.analysis?.run
  const last = run?.attempts.at(-1)
  if (!last || last.truncated) return false
  return last.kind === 'task' || last.featureResult !== null
}

export function describeExit(exit: ChildExit): string {
  switch (exit.kind) {
    case 'exited':
      return `the command exited with code ${exit.code}`
    case 'signalled':
      return `the command was ended by ${exit.signal} (exit code ${exit.code})`
    case 'failed-to-start':
      return exit.message
  }
}
