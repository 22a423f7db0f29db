import {runBuilt} from './built-cli.js'
import {checkCase, type CaseResult} from './check-case.js'
import {runInProcess} from './in-process.js'
import type {RunCase} from './model/types.js'

/**
 * A child process that runs cases in-process for the fuzzer (pool.ts), so that a case which kills its
 * process (a fatal V8 error, a stack overflow in native code, a hang) is reported as a failure of that
 * case instead of ending the fuzz run.
 */

export type ToWorker = {readonly type: 'case'; readonly id: number; readonly case: RunCase; readonly base: string; readonly keep: boolean; readonly cli: {readonly runJs: string; readonly timeoutMs: number} | null}
export type FromWorker =
  | {readonly type: 'ready'}
  | {readonly type: 'result'; readonly id: number; readonly result: CaseResult; readonly rss: number}
  | {readonly type: 'error'; readonly id: number; readonly message: string}
  | {readonly type: 'command'; readonly id: number; readonly name: string}

/** Errors that escaped every command (a promise nobody awaited): they belong to the running case. */
const escaped: string[] = []
process.on('unhandledRejection', (reason) => escaped.push(`an unhandled promise rejection: ${describe(reason)}`))
process.on('uncaughtException', (error) => escaped.push(`an uncaught exception: ${describe(error)}`))

function describe(x: unknown): string {
  return x instanceof Error ? `${x.name}: ${x.message}` : String(x)
}

const send = (m: FromWorker) => process.send?.(m)

// the fuzzer is gone (killed, interrupted): so is this worker, even when a case hangs in a blocked read
process.on('disconnect', () => process.exit(1))

process.on('message', (m: ToWorker) => {
  if (m.type !== 'case') return
  escaped.length = 0
  checkCase(m.case, m.base, {cli: m.cli, inProcess: runInProcess, runBuilt, keep: m.keep, onCommand: (name) => send({type: 'command', id: m.id, name})}).then(
    (result) => {
      const failures = [...result.failures, ...escaped]
      send({type: 'result', id: m.id, result: {...result, failures}, rss: process.memoryUsage().rss})
    },
    (error: unknown) => send({type: 'error', id: m.id, message: error instanceof Error ? (error.stack ?? error.message) : String(error)}),
  )
})

send({type: 'ready'})
