import {formatPath, joinPath, parsePath} from '../python/pathlib.js'
import type {WorktreeView} from '../worktree.js'
import {PyException, pyTypeName} from './py-values.js'

/**
 * Filesystem questions the Coach asks with `(worktree_path / p).exists()`. pathlib keeps `..`
 * lexically, but the operating system resolves it when it stats the path, so `/wt/../wt/x` exists
 * when `/wt/x` does; the view is asked about the resolved path (symlinks are not modelled). A `//`
 * root, read as `/` by the kernel too, is resolved by the view itself (`resolveDoubleSlashRoot`).
 */
export function existsInWorktree(view: WorktreeView, path: string): boolean {
  return view.exists(resolveDotDot(joinPath(view.root, path)))
}

/** Lexical `..` resolution of an absolute path, as the kernel does it (`/..` is `/`). */
export function resolveDotDot(absolute: string): string {
  const p = parsePath(absolute)
  if (!p.root) return absolute
  const parts: string[] = []
  for (const part of p.parts) {
    if (part === '..') parts.pop()
    else parts.push(part)
  }
  return formatPath({root: p.root, parts})
}

/** `Path(value)` accepts only str (JSON has no bytes or PathLike). */
export function requirePathString(value: unknown): string {
  if (typeof value === 'string') return value
  throw new PyException('TypeError', `expected str, bytes or os.PathLike object, not ${pyTypeName(value)}`)
}

/** `.guardkit/autobuild/{task_id}/{file}` under the worktree, as GuardKit builds it. */
export function autobuildPath(view: WorktreeView, taskId: string, file: string): string {
  return joinPath(view.root, '.guardkit', 'autobuild', taskId, file)
}
