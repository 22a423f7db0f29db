import {parentPort, workerData} from 'node:worker_threads'
import {createAttemptAnalyser, type AnalyserSettings, type ToAnalyser} from './attempt-analyser.js'

/** The analyser's thread (speculation.ts): attempts come in the run's order, each drawn result goes back. */
const port = parentPort
if (port) {
  const analyser = createAttemptAnalyser(workerData as AnalyserSettings, (message, transfer) => port.postMessage(message, transfer))
  port.on('message', (message: ToAnalyser) => analyser.receive(message))
}
