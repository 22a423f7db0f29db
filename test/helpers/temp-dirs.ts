import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

const dirs: string[] = []

/** A fresh folder under the system's temporary folder, removed by removeTempDirs (call it in afterAll). */
export function tempDir(prefix = 'gr-live-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  dirs.push(dir)
  return dir
}

export function removeTempDirs(): void {
  for (const d of dirs.splice(0)) rmSync(d, {recursive: true, force: true})
}

/** Polls `check` every 50 ms until it holds; fails naming `what` after `timeoutMs`. */
export async function waitFor(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}
