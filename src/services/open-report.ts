import {spawn} from 'node:child_process'

/** What `--open` did: which opener it started, or why it could not. Never an error for the command. */
export type Opened = {readonly ok: true; readonly opener: string} | {readonly ok: false; readonly opener: string; readonly why: string}

export interface OpenOptions {
  readonly platform?: NodeJS.Platform
  readonly env?: NodeJS.ProcessEnv
}

/**
 * Opens a written report in the default browser (`--open`; docs/cli.md): `open` on macOS, `start` on
 * Windows, `xdg-open` elsewhere (`GUARDKIT_REPLAY_OPENER` names another). The opener runs detached and
 * is not waited for — the command ends at once, whatever the browser does —; only its start is: a
 * missing opener is reported, not thrown.
 */
export function openReport(file: string, options: OpenOptions = {}): Promise<Opened> {
  const env = options.env ?? process.env
  const platform = options.platform ?? process.platform
  const [command, ...args] = env.GUARDKIT_REPLAY_OPENER !== undefined && env.GUARDKIT_REPLAY_OPENER !== ''
    ? [env.GUARDKIT_REPLAY_OPENER]
    : platform === 'darwin' ? ['open'] : platform === 'win32' ? ['cmd', '/c', 'start', '""'] : ['xdg-open']
  return new Promise((resolve) => {
    let child
    try {
      child = spawn(command!, [...args, file], {detached: true, stdio: 'ignore', env, windowsHide: true})
    } catch (error) {
      resolve({ok: false, opener: command!, why: (error as Error).message})
      return
    }
    child.once('spawn', () => {
      child.unref()
      resolve({ok: true, opener: command!})
    })
    child.once('error', (error: NodeJS.ErrnoException) => resolve({ok: false, opener: command!, why: error.code === 'ENOENT' ? `no ${command} on this machine` : error.message}))
  })
}

/** The line `--open` adds to "Wrote FILE": what was started, or what to do instead. */
export function describeOpened(file: string, opened: Opened): string {
  return opened.ok ? `Opening ${file} in the default browser (${opened.opener}).` : `Could not open ${file} (${opened.why}): open it in a browser yourself.`
}
