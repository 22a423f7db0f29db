// A temporary folder in memory (/dev/shm) for a test step, where the machine has one (docs/contributing.md, "Tests").
// The tests write and remove thousands of small files — generated runs, recordings, fuzz cases of up to 800 files —
// and on this machine's ext4 disk creating 800 empty files costs ~0.5 s of system time, on tmpfs ~0.02 s. A step
// given it as TMPDIR keeps every file it makes there; nothing is moved between it and the repository (a rename
// across file systems would fail). The folder is removed when this process exits.
import {accessSync, constants, mkdtempSync, rmSync} from 'node:fs'
import {join} from 'node:path'

/** TMPDIR for a step: a fresh folder in /dev/shm, or {} where there is none (the system's temporary folder is used). */
export function memoryTmpEnv(prefix) {
  let dir
  try {
    accessSync('/dev/shm', constants.W_OK)
    dir = mkdtempSync(join('/dev/shm', prefix))
  } catch {
    return {}
  }
  process.on('exit', () => rmSync(dir, {recursive: true, force: true}))
  return {TMPDIR: dir}
}
