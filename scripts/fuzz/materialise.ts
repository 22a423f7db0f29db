import {spawnSync} from 'node:child_process'
import {chmodSync, lstatSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {readFixture} from './model/sources.js'
import type {Entry, RunCase} from './model/types.js'
import {applyDamage, renderContent} from './render-content.js'

/**
 * Writes a case to disk:
 *
 * ```
 * <base>/r/<runName>/   RUN
 * <base>/outside/       what links "outside RUN" point at: a log and a worktree
 * <base>/link           a symbolic link to RUN (for cases that name RUN through one)
 * ```
 *
 * Later entries replace earlier ones at the same path; an entry whose folder is taken by a file (or
 * whose path is not a path) is skipped and listed. Nothing is written outside `<base>`.
 */
export interface Materialised {
  readonly base: string
  /** RUN's absolute path. */
  readonly run: string
  readonly outside: string
  readonly link: string
  /** RUN as the command line names it, and the working directory that naming needs. */
  readonly arg: {readonly path: string; readonly cwd: string | null}
  readonly skipped: readonly string[]
}

export function materialise(c: RunCase, base: string): Materialised {
  const runParent = join(base, 'r')
  const run = join(runParent, c.runName)
  const outside = join(base, 'outside')
  const link = join(base, 'link')
  mkdirSync(run, {recursive: true})
  writeOutside(outside)
  symlinkSync(run, link)

  // last one wins at each path
  const last = new Map<string, number>()
  c.entries.forEach((e, i) => last.set(e.path, i))
  const entries = c.entries.filter((e, i) => last.get(e.path) === i)
  const skipped: string[] = []

  const bytes = new Map<string, Uint8Array>()
  const render = (e: Entry & {type: 'file'}) => applyDamage(renderContent(e.content, {fixture: readFixture, entryBytes: (p) => bytes.get(p) ?? null}), e.damage)
  for (const e of entries) if (e.type === 'file' && e.content.kind !== 'manifest') bytes.set(e.path, render(e))
  for (const e of entries) if (e.type === 'file' && e.content.kind === 'manifest') bytes.set(e.path, render(e))

  const ordered = [...entries.filter((e) => e.type !== 'symlink' && e.type !== 'fifo'), ...entries.filter((e) => e.type === 'symlink' || e.type === 'fifo')]
  const modes: {abs: string; mode: number; depth: number}[] = []
  for (const e of ordered) {
    const abs = place(run, e.path)
    if (abs === null) {
      skipped.push(`${e.path} (not a path)`)
      continue
    }
    try {
      writeEntry(e, abs, bytes, {run, outside})
      if ((e.type === 'file' || e.type === 'dir') && e.mode !== undefined) modes.push({abs, mode: e.mode, depth: e.path.split('/').length})
    } catch (error) {
      skipped.push(`${e.path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`)
    }
  }
  // deepest first, so a locked folder does not stop chmod below it
  for (const m of modes.sort((a, b) => b.depth - a.depth)) chmodSync(m.abs, m.mode)

  return {base, run, outside, link, arg: runArgPath(c, run, runParent, link, entries), skipped}
}

/** RUN-relative `/`-separated path → absolute path below RUN, or null when it would not stay below RUN. */
function place(run: string, path: string): string | null {
  if (path === '') return run
  const segments = path.split('/').filter((s, i, all) => !(s === '' && i === all.length - 1))
  if (segments.length === 0 || segments.some((s) => s === '' || s === '.' || s === '..' || s.includes('\0'))) return null
  return join(run, ...segments)
}

function parentsFree(abs: string, run: string): boolean {
  let dir = abs
  while ((dir = dir.slice(0, dir.lastIndexOf('/'))).length > run.length) {
    try {
      if (!lstatSync(dir).isDirectory()) return false
    } catch {
      // not there yet: mkdir makes it
    }
  }
  return true
}

function writeEntry(e: Entry, abs: string, bytes: ReadonlyMap<string, Uint8Array>, where: {run: string; outside: string}): void {
  if (!parentsFree(abs, where.run)) throw new Error('a parent is a file')
  if (abs !== where.run) mkdirSync(abs.slice(0, abs.lastIndexOf('/')), {recursive: true})
  const existing = lstatOrNull(abs)
  switch (e.type) {
    case 'file':
      if (existing?.isDirectory()) throw new Error('a folder is there')
      writeFileSync(abs, bytes.get(e.path) ?? new Uint8Array(0))
      return
    case 'dir':
      if (existing !== null && !existing.isDirectory()) throw new Error('a file is there')
      mkdirSync(abs, {recursive: true})
      return
    case 'many': {
      if (existing !== null && !existing.isDirectory()) throw new Error('a file is there')
      mkdirSync(abs, {recursive: true})
      for (let i = 0; i < e.count; i++) writeFileSync(join(abs, `${e.prefix}${i}`), '')
      return
    }
    case 'symlink':
      if (existing !== null) throw new Error('taken')
      symlinkSync(e.target.replaceAll('<outside>', where.outside).replaceAll('<run>', where.run), abs)
      return
    case 'fifo': {
      if (existing !== null) throw new Error('taken')
      const r = spawnSync('mkfifo', [abs])
      if (r.status !== 0) throw new Error('mkfifo failed')
      return
    }
  }
}

function lstatOrNull(abs: string) {
  try {
    return lstatSync(abs)
  } catch {
    return null
  }
}

function runArgPath(c: RunCase, run: string, runParent: string, link: string, entries: readonly Entry[]): Materialised['arg'] {
  switch (c.arg.as) {
    case 'absolute':
      return {path: run, cwd: null}
    case 'symlink':
      return {path: link, cwd: null}
    case 'relative':
      return {path: c.arg.dotSlash ? `./${c.runName}` : c.runName, cwd: runParent}
    case 'file': {
      const files = entries.filter((e) => e.type === 'file' || e.type === 'symlink' || e.type === 'fifo')
      const picked = files[c.arg.pick % Math.max(1, files.length)]
      return {path: picked === undefined ? run : (place(run, picked.path) ?? run), cwd: null}
    }
  }
}

function writeOutside(outside: string): void {
  mkdirSync(join(outside, 'worktree/.guardkit/autobuild/TASK-X-001'), {recursive: true})
  writeFileSync(join(outside, 'secret.log'), 'INFO:guardkit.cli.autobuild:Starting feature orchestration: FEAT-OUT (max_turns=5)\nsecret: do not read\n')
  writeFileSync(join(outside, 'worktree/.guardkit/autobuild/TASK-X-001/player_turn_1.json'), '{"task_id": "TASK-X-001", "turn": 1, "secret": true}\n')
}

/** Removes a case's folder, locked entries included (modes are restored first; links are not followed). */
export function removeTree(base: string): void {
  const unlock = (dir: string) => {
    try {
      chmodSync(dir, 0o700)
      for (const name of readdirSync(dir)) {
        const abs = join(dir, name)
        const st = lstatSync(abs)
        if (st.isDirectory()) unlock(abs)
        else if (st.isFile()) chmodSync(abs, 0o600)
      }
    } catch {
      // rmSync reports what is left
    }
  }
  unlock(base)
  rmSync(base, {recursive: true, force: true})
}
