import {execFile} from 'node:child_process'
import {existsSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {promisify} from 'node:util'

export const root = fileURLToPath(new URL('../../..', import.meta.url))
const run = promisify(execFile)

export interface CliResult {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** The built CLI (bin/run.js, what a user runs), from the repository root; `npm test` builds first. */
export async function builtCli(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  if (!existsSync(`${root}dist/cli/execute.js`)) throw new Error('dist/ is missing: run `npm run build` first')
  try {
    const {stdout, stderr} = await run(process.execPath, [`${root}bin/run.js`, ...args], {
      cwd: root,
      env: {...process.env, NO_COLOR: '1', OCLIF_SKIP_NEW_VERSION_CHECK: 'true', ...env},
      maxBuffer: 64 << 20,
    })
    return {code: 0, stdout, stderr}
  } catch (error) {
    const e = error as {code?: number; stdout?: string; stderr?: string}
    return {code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? ''}
  }
}
