import {runCommand} from '@oclif/test'
import type {Config} from '@oclif/core'
// @ts-expect-error plain JS module without types
import {loadDevConfig} from '../../bin/dev-config.js'

let config: Promise<Config> | undefined

/**
 * Run a command in-process against the TypeScript sources (not dist/: oclif would load commands
 * listed in a stale manifest from there). Arguments are passed as an array, so paths with spaces
 * survive (runCommand with a string would re-split them).
 */
export async function runCli(args: string[]) {
  config ??= loadDevConfig() as Promise<Config>
  const quoted = args.map((a) => (/\s/.test(a) ? `"${a}"` : a))
  return runCommand(quoted, await config)
}
