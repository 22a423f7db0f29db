import {Worker} from 'node:worker_threads'
import {workerUrl} from '../worker-url.js'
import {collectSooner} from './heap.js'
import type {FromAnalyser} from './attempt-analyser.js'
import type {StartAnalyser} from './speculation.js'

/**
 * The analyser on a worker thread (analysis-worker.ts). Any failure of the thread — it does not start,
 * it throws, it exits — is reported once through `failed`: the analysis is then done as without it.
 */
export const startWorkerAnalyser: StartAnalyser = (settings, receive, failed) => {
  // two heaps now allocate fast: both collect sooner (heap.ts)
  collectSooner()
  // a young generation of 16 MB, not 32: an attempt's analysis is short-lived garbage (docs/performance.md "Memory")
  const worker = new Worker(workerUrl('stream/analysis-worker'), {workerData: settings, execArgv: [], resourceLimits: {maxYoungGenerationSizeMb: 16}})
  // the thread never keeps the process alive: it is ended when the report is drawn
  worker.unref()
  let closed = false
  const fail = (error: Error) => {
    if (closed) return
    closed = true
    void worker.terminate()
    failed(error)
  }
  worker.on('message', (message: FromAnalyser) => receive(message))
  worker.on('error', fail)
  worker.on('exit', (code) => fail(new Error(`the analysis thread exited (${code})`)))
  return {
    post(message) {
      if (!closed) worker.postMessage(message)
    },
    close() {
      if (closed) return
      closed = true
      void worker.terminate()
    },
  }
}
