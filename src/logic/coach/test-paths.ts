import {compareCodePoints} from '../../shared/code-point-order.js'
import type {LogicFlags} from '../changes.js'
import {LOGGERS, type LogSink} from '../log-sink.js'
import {isAbsolutePath, pathName, relativeTo} from '../python/pathlib.js'
import type {WorktreeView} from '../worktree.js'
import {pyGet, pyIterate} from './py-values.js'
import {existsInWorktree, requirePathString} from './worktree-fs.js'

/**
 * `CoachValidator._normalize_to_relative(filepath)` (fixed, D20, docs/guardkit-logic.md §6.5): an absolute path under
 * the worktree becomes worktree-relative by pathlib's lexical `relative_to` (no symlink
 * resolution, `..` kept); anything else comes back unchanged, so `./tests/x.py` and `tests/x.py`
 * stay two strings and Windows paths are never recognised on POSIX.
 */
export function normalizeToRelative(filepath: string, worktreeRoot: string): string {
  if (!isAbsolutePath(filepath)) return filepath
  return relativeTo(filepath, worktreeRoot) ?? filepath
}

/** `test_*.py` or `*_test.py` by `Path(p).name` (a backslash is not a separator on POSIX). */
export function isTestFileName(path: string): boolean {
  const name = pathName(path)
  return (name.startsWith('test_') && name.endsWith('.py')) || name.endsWith('_test.py')
}

/** `pytest {files} -v --tb=short`, the command format of every task-specific detection. */
export function pytestCommand(files: readonly string[]): string {
  return `pytest ${files.join(' ')} -v --tb=short`
}

/**
 * `CoachValidator._detect_tests_from_results(results)` (docs/guardkit-logic.md §6.5): test files named in
 * `files_created` then `files_modified` that exist in the worktree, deduplicated and sorted as
 * strings. Legacy keeps each string as written: `worktree / "/abs/x"` is `/abs/x`, so the absolute
 * and the relative form of one file both exist and both reach pytest (as in fixtures/runs/db-003-timeout).
 */
export function detectTestsFromResults(results: unknown, view: WorktreeView, flags: LogicFlags, sink: LogSink): string | null {
  const found: string[] = []
  for (const key of ['files_created', 'files_modified']) {
    for (const raw of pyIterate(pyGet(results, key, []))) {
      const written = requirePathString(raw)
      // relPathDedup (D20): normalise to worktree-relative before the name test, the existence test and the dedup.
      const path = flags.relPathDedup ? normalizeToRelative(written, view.root) : written
      if (isTestFileName(path) && existsInWorktree(view, path)) found.push(path)
    }
  }
  if (found.length === 0) return null
  const unique = [...new Set(found)].sort(compareCodePoints)
  sink.emit('INFO', LOGGERS.coach, `Task-specific tests detected via task_work_results: ${unique.length} file(s)`)
  return pytestCommand(unique)
}
