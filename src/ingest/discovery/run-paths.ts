import {isAbsolute, join, relative, sep} from 'node:path'
import type {IngestIssue} from '../../model/ingest-issue.js'
import {describeErrorCode, errorCode, type FsPort} from '../fs/file-port.js'
import {DEFAULT_LIMITS} from './limits.js'

/** RUN as walked: the user's path for names, its real path for the "inside RUN" test. */
export interface RunRoot {
  readonly abs: string
  readonly real: string
}

export interface Entry {
  readonly name: string
  readonly abs: string
  /** RUN-relative, `/`-separated. */
  readonly rel: string
  readonly kind: 'file' | 'dir'
  readonly size: number
}

export function relTo(root: RunRoot, abs: string): string {
  const rel = relative(root.abs, abs)
  return rel === '' ? '.' : rel.split(sep).join('/')
}

/** A child path's RUN-relative name. */
export function joinRel(dirRel: string, name: string): string {
  return dirRel === '.' ? name : `${dirRel}/${name}`
}

function inside(root: RunRoot, real: string): boolean {
  if (real === root.real) return true
  const rel = relative(root.real, real)
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)
}

/**
 * The entries of a directory of RUN, sorted by name, each lstat-ed: a symlink is followed only when
 * its target is inside RUN (else reported, not followed), and `visited` stops directory loops.
 * Unreadable directories and entries become issues.
 */
export async function listDir(port: FsPort, root: RunRoot, dirAbs: string, issues: IngestIssue[], visited: Set<string>, maxEntries = DEFAULT_LIMITS.maxFolderEntries): Promise<Entry[]> {
  const dirRel = relTo(root, dirAbs)
  let names: string[]
  try {
    names = await port.readdir(dirAbs)
  } catch (error) {
    const code = errorCode(error)
    issues.push({file: dirRel, code: 'unreadable', severity: 'error', message: `cannot list the directory: ${describeErrorCode(code)} (${code})`})
    return []
  }
  names.sort(byCodePoint)
  if (names.length > maxEntries) {
    // a folder of a hundred thousand files is not a run's: the first ones by name are looked at, not each of them
    issues.push({file: dirRel, code: 'too-many-files', severity: 'warning',
      message: `the folder holds ${names.length} entries, more than ${maxEntries}: only the first ${maxEntries} (by name) were looked at`})
    names = names.slice(0, maxEntries)
  }
  const out: Entry[] = []
  for (const name of names) {
    const abs = join(dirAbs, name)
    const rel = joinRel(dirRel, name)
    const entry = await classify(port, root, abs, rel, name, issues, visited)
    if (entry) out.push(entry)
  }
  return out
}

async function classify(port: FsPort, root: RunRoot, abs: string, rel: string, name: string, issues: IngestIssue[], visited: Set<string>): Promise<Entry | null> {
  try {
    const st = await port.lstat(abs)
    if (st.kind === 'file') return {name, abs, rel, kind: 'file', size: st.size}
    if (st.kind === 'dir') return visit(await port.realpath(abs), visited) ? {name, abs, rel, kind: 'dir', size: 0} : null
    if (st.kind !== 'symlink') return special(rel, issues)
    let real: string
    try {
      real = await port.realpath(abs)
    } catch {
      issues.push({file: rel, code: 'symlink-broken', severity: 'info', message: 'a symbolic link whose target does not exist: skipped'})
      return null
    }
    if (!inside(root, real)) {
      issues.push({file: rel, code: 'symlink-outside', severity: 'warning', message: 'a symbolic link to a target outside RUN: not followed'})
      return null
    }
    const target = await port.stat(abs)
    // files are opened with O_NOFOLLOW, so a link inside RUN is read at its target
    if (target.kind === 'file') return {name, abs: real, rel, kind: 'file', size: target.size}
    if (target.kind === 'dir' && visit(real, visited)) return {name, abs, rel, kind: 'dir', size: 0}
    return target.kind === 'other' ? special(rel, issues) : null
  } catch (error) {
    const code = errorCode(error)
    issues.push({file: rel, code: 'unreadable', severity: 'error', message: `cannot read: ${describeErrorCode(code)} (${code})`})
    return null
  }
}

/** A FIFO, socket or device is never opened: a FIFO would block the read until a writer comes. */
function special(rel: string, issues: IngestIssue[]): null {
  issues.push({file: rel, code: 'special-file', severity: 'info', message: 'not a regular file (a FIFO, socket or device): skipped, not read'})
  return null
}

function visit(real: string, visited: Set<string>): boolean {
  if (visited.has(real)) return false
  visited.add(real)
  return true
}

export function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
