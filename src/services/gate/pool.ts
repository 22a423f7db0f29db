import {Worker} from 'node:worker_threads'
import type {GateRun} from '../../render/gate-report.js'
import {BugError} from '../../shared/errors.js'
import {workerUrl} from '../worker-url.js'
import {gateRunJob, type GateSettings, type RunJob} from './gate-run.js'
import type {WorkerRequest, WorkerResponse} from './worker.js'

/** Below this many runs, starting threads costs more than it saves. */
const MIN_RUNS_FOR_WORKERS = 24

export interface PoolOptions {
  /** Worker threads; 1 (or a small corpus) gates in this thread. */
  readonly jobs: number
  /** Called as each run is done (in completion order), for the progress display. */
  readonly onRun?: (run: GateRun, done: number) => void
  /** Below this many runs the gate stays in this thread (default MIN_RUNS_FOR_WORKERS; tests: fewer). */
  readonly minRunsForWorkers?: number
  /** Called once, before the first run, with the number of threads gating (1: this thread alone). */
  readonly onThreads?: (threads: number) => void
}

/**
 * Gate every run, on `jobs` worker threads when the corpus is large enough (each thread reads and
 * replays whole runs; this thread only collects). Results come back in the order of `jobs`,
 * whatever order the threads finish in, so the report does not depend on scheduling.
 */
export async function gateRuns(list: readonly RunJob[], settings: GateSettings, options: PoolOptions): Promise<GateRun[]> {
  const threads = Math.min(options.jobs, list.length)
  if (threads <= 1 || list.length < (options.minRunsForWorkers ?? MIN_RUNS_FOR_WORKERS)) {
    options.onThreads?.(1)
    return gateInThread(list, settings, options)
  }
  options.onThreads?.(threads)
  return gateOnWorkers(list, settings, threads, options)
}

async function gateInThread(list: readonly RunJob[], settings: GateSettings, options: PoolOptions): Promise<GateRun[]> {
  const out: GateRun[] = []
  for (const job of list) {
    out.push(await gateOne(job, settings))
    options.onRun?.(out.at(-1)!, out.length)
  }
  return out
}

async function gateOne(job: RunJob, settings: GateSettings): Promise<GateRun> {
  try {
    return await gateRunJob(job, settings)
  } catch (error) {
    throw new BugError(`gating ${job.path} failed: ${(error as Error).message}`, {cause: error})
  }
}

function gateOnWorkers(list: readonly RunJob[], settings: GateSettings, threads: number, options: PoolOptions): Promise<GateRun[]> {
  const results: (GateRun | undefined)[] = new Array(list.length)
  const workers: Worker[] = []
  let next = 0
  let done = 0
  return new Promise<GateRun[]>((resolve, reject) => {
    let failed = false
    const fail = (error: Error): void => {
      if (failed) return
      failed = true
      for (const w of workers) void w.terminate()
      reject(error)
    }
    const feed = (w: Worker): void => {
      if (next >= list.length) {
        void w.terminate()
        return
      }
      const id = next++
      w.postMessage({id, job: list[id]!, settings} satisfies WorkerRequest)
    }
    for (let i = 0; i < threads; i++) {
      const w = new Worker(workerUrl('gate/worker'), {execArgv: []})
      workers.push(w)
      w.on('message', (m: WorkerResponse) => {
        if ('error' in m) {
          const bug = new BugError(`gating ${list[m.id]!.path} failed: ${m.error.message}`)
          if (m.error.stack) bug.stack = m.error.stack
          return fail(bug)
        }
        results[m.id] = m.run
        done++
        options.onRun?.(m.run, done)
        if (done === list.length) {
          for (const x of workers) void x.terminate()
          resolve(results as GateRun[])
        } else feed(w)
      })
      w.on('error', (e) => fail(new BugError(`a gate worker thread failed: ${e.message}`, {cause: e})))
      feed(w)
    }
  })
}
