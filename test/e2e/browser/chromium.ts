import {existsSync} from 'node:fs'
import {chromium, type Browser} from 'playwright-core'

/**
 * Debian's chromium, driven by playwright-core (no browser download: `.ci/run` installs the
 * package when it is missing). The flags are the ones known to work on this project's machines
 * (docs/html-report.md): without the background-networking ones Chromium tries to reach Google's
 * hosts, which the closed network refuses. playwright-core gives every launch a fresh, empty
 * user-data-dir of its own and removes it on close.
 */
export const CHROMIUM = '/usr/bin/chromium'

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export function chromiumInstalled(): boolean {
  return existsSync(CHROMIUM)
}

/** CI runs the browser test always: a missing chromium there is a failure, not a skip. */
export {inCi} from '../../helpers/ci.js'

export function launchChromium(): Promise<Browser> {
  return chromium.launch({executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 30_000})
}
