import {parentPort} from 'node:worker_threads'
import {gateRunJob, type GateSettings, type RunJob} from './gate-run.js'

/** A gate worker thread: gates the runs it is sent, one at a time, and posts each GateRun back. */
export type WorkerRequest = {readonly id: number; readonly job: RunJob; readonly settings: GateSettings}
export type WorkerResponse = {readonly id: number; readonly run: Awaited<ReturnType<typeof gateRunJob>>} | {readonly id: number; readonly error: {readonly message: string; readonly stack: string | null}}

const port = parentPort
if (port) {
  port.on('message', (request: WorkerRequest) => {
    gateRunJob(request.job, request.settings).then(
      (run) => port.postMessage({id: request.id, run} satisfies WorkerResponse),
      (error: unknown) => port.postMessage({id: request.id, error: {message: (error as Error).message ?? String(error), stack: (error as Error).stack ?? null}} satisfies WorkerResponse),
    )
  })
}
