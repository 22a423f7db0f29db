import {Errors, run, type Config} from '@oclif/core'
import {captureOutput} from '@oclif/test'
// @ts-expect-error plain JS module without types
import {withDefaultCommand} from '../../bin/argv.js'
// @ts-expect-error plain JS module without types
import {loadDevConfig} from '../../bin/dev-config.js'
import type {CommandOutcome} from './invariants.js'

/**
 * Runs a command in this process against the TypeScript sources, as `node bin/dev.js` would, and
 * reports what the user of the real binary would see. The argv goes to oclif as it is (no re-split,
 * unlike `runCommand`), stdout is kept raw (no ANSI stripping), and a thrown error becomes what
 * oclif's handler prints and the exit code it exits with.
 */

let config: Promise<Config> | undefined

export async function runInProcess(argv: readonly string[]): Promise<CommandOutcome> {
  config ??= loadDevConfig() as Promise<Config>
  const loaded = await config
  const args = withDefaultCommand([...argv]) as string[]
  process.exitCode = undefined
  const started = performance.now()
  const result = await captureOutput(() => run(args, loaded), {stripAnsi: false})
  const ms = performance.now() - started
  const error = result.error as (Error & {oclif?: {exit?: number}; code?: string}) | undefined
  const exitCode = typeof process.exitCode === 'number' ? process.exitCode : process.exitCode === undefined ? undefined : Number(process.exitCode)
  process.exitCode = undefined
  if (error === undefined) return {exit: exitCode ?? 0, signal: null, stdout: result.stdout, stderr: result.stderr, ms, timedOut: false}
  // what @oclif/core's handle() prints: the message (pretty) when there is one, else the stack
  const exitError = error instanceof Errors.ExitError || error.code === 'EEXIT'
  const printed = exitError ? '' : error.message ? `${error.name === 'Error' || error.name === 'CLIError' ? 'Error' : error.name}: ${error.message}` : (error.stack ?? String(error))
  return {exit: error.oclif?.exit ?? 1, signal: null, stdout: result.stdout, stderr: result.stderr + (printed === '' ? '' : `${printed}\n`), ms, timedOut: false}
}
