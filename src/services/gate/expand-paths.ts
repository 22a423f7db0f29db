import {readdir, stat} from 'node:fs/promises'
import {dirname, relative, resolve, sep} from 'node:path'
import {compareCodePoints} from '../../shared/code-point-order.js'
import {UsageError} from '../../shared/errors.js'
import {expandGlob, globBase, isGlob} from './glob.js'
import {neutralised} from '../../shared/neutralise.js'

/** One run of the corpus. */
export interface CorpusRun {
  readonly abs: string
  /** Relative to the working directory, `/`-separated: how the report names it and how shards split. */
  readonly path: string
  /** The search for an expectations.yaml goes up from the run's folder to here (the PATH argument's root). */
  readonly stopAt: string
}

/** Files and folders that make a directory one run (a recording, a fixture, a worktree copy). */
const RUN_FILES = new Set(['guardkit-replay.json', 'expected.yaml'])
const RUN_DIRS = new Set(['.guardkit', 'tasks'])
const EXPECTATIONS = 'expectations.yaml'
const SKIP_DIRS = new Set(['node_modules', '__pycache__'])
const MAX_DEPTH = 6

/**
 * PATH arguments → the runs of the corpus (docs/ci.md, "PATH"): a file is a run (a captured log); a
 * directory holding a recording manifest, an `expected.yaml`, `.guardkit/` or `tasks/` is a run; any
 * other directory is a corpus folder whose sub-directories (not `.`/`_`-prefixed) are classified in
 * turn and whose `*.log` files are runs (a folder with neither, holding other files, is one run).
 * Globs are expanded here when the shell did not. Sorted by path, duplicates dropped; a PATH that
 * does not exist or a glob that matches nothing is a usage error.
 */
export async function expandCorpus(args: readonly string[], cwd: string): Promise<CorpusRun[]> {
  const found = new Map<string, CorpusRun>()
  const add = (abs: string, stopAt: string): void => {
    if (!found.has(abs)) found.set(abs, {abs, path: shownPath(abs, cwd), stopAt})
  }
  for (const arg of args) {
    if (isGlob(arg) && !(await exists(resolve(cwd, arg)))) {
      const matches = await expandGlob(arg, cwd)
      if (matches.length === 0) throw new UsageError(neutralised`No file or directory matches ${arg}.`, 'Check the pattern (quote it so that the gate, not the shell, expands `**`).')
      const stopAt = resolve(cwd, globBase(arg))
      for (const m of matches) await classify(resolve(cwd, m), stopAt, add, 0)
      continue
    }
    const abs = resolve(cwd, arg)
    const kind = await kindOf(abs)
    if (kind === null) throw new UsageError(neutralised`PATH not found: ${arg}`, 'Pass run directories, log files, corpus folders or globs.')
    await classify(abs, kind === 'dir' && !(await isRunDir(abs)) ? abs : dirname(abs), add, 0)
  }
  return [...found.values()].sort((a, b) => compareCodePoints(a.path, b.path))
}

async function classify(abs: string, stopAt: string, add: (abs: string, stopAt: string) => void, depth: number): Promise<void> {
  const kind = await kindOf(abs)
  if (kind === 'file') return add(abs, stopAt)
  if (kind !== 'dir') return
  const entries = await list(abs)
  if (isRun(entries)) return add(abs, stopAt)
  const dirs = entries.filter((e) => e.dir && !e.name.startsWith('.') && !e.name.startsWith('_') && !SKIP_DIRS.has(e.name))
  const logs = entries.filter((e) => !e.dir && e.name.endsWith('.log'))
  if (dirs.length === 0 && logs.length === 0) {
    if (entries.some((e) => !e.dir && e.name !== EXPECTATIONS)) add(abs, stopAt)
    return
  }
  for (const f of logs) add(resolve(abs, f.name), stopAt)
  if (depth >= MAX_DEPTH) return
  for (const d of dirs) await classify(resolve(abs, d.name), stopAt, add, depth + 1)
}

async function isRunDir(abs: string): Promise<boolean> {
  return isRun(await list(abs))
}

function isRun(entries: readonly {name: string; dir: boolean}[]): boolean {
  return entries.some((e) => (e.dir ? RUN_DIRS.has(e.name) : RUN_FILES.has(e.name)))
}

async function list(abs: string): Promise<{name: string; dir: boolean}[]> {
  try {
    const all = await readdir(abs, {withFileTypes: true})
    // a corpus may link its runs in from elsewhere: a symlink counts as what it points to
    const entries = await Promise.all(all.map(async (d) => ({name: d.name, dir: d.isSymbolicLink() ? (await kindOf(resolve(abs, d.name))) === 'dir' : d.isDirectory()})))
    return entries.sort((a, b) => compareCodePoints(a.name, b.name))
  } catch (error) {
    throw new UsageError(neutralised`Cannot read ${abs}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`)
  }
}

async function kindOf(abs: string): Promise<'file' | 'dir' | null> {
  try {
    const s = await stat(abs)
    return s.isDirectory() ? 'dir' : s.isFile() ? 'file' : null
  } catch {
    return null
  }
}

async function exists(abs: string): Promise<boolean> {
  return (await kindOf(abs)) !== null
}

/** Relative to the working directory, `/`-separated, `.` for the directory itself. */
export function shownPath(abs: string, cwd: string): string {
  const rel = relative(cwd, abs)
  return rel === '' ? '.' : rel.split(sep).join('/')
}

/** The expectations.yaml a run reads: the nearest one from the run's folder up to `stopAt`. */
export function expectationCandidates(run: CorpusRun): string[] {
  const out: string[] = []
  let dir = dirname(run.abs)
  for (;;) {
    out.push(resolve(dir, EXPECTATIONS))
    if (dir === run.stopAt || !dir.startsWith(run.stopAt) || dirname(dir) === dir) break
    dir = dirname(dir)
  }
  return out
}
