import {comparePaths, joinPath, relativeTo} from '../python/pathlib.js'
import type {WorktreeView} from '../worktree.js'

/**
 * `worktree_path.glob("tests/**\/test_{prefix}*.py")` for `_detect_test_command` (docs/guardkit-logic.md §6.5):
 * `**` is zero or more directories, the last component is an fnmatch pattern (case-sensitive on
 * POSIX, `*` also matches a leading dot). Hits are ordered as absolute `Path` objects, component by
 * component, and only then made relative: `tests/a/…` comes before `tests/a-b/…`.
 * Directories whose name matches are not listed by the view and are not returned.
 */
export function globRecursive(view: WorktreeView, baseDir: string, namePattern: string): string[] {
  const nameRe = fnmatchToRegExp(namePattern)
  const hits = view.listFiles(baseDir).filter((rel) => {
    const under = relativeTo(rel, baseDir)
    if (under === null || under === '.') return false
    const name = under.slice(under.lastIndexOf('/') + 1)
    return nameRe.test(name)
  })
  const absolute = [...new Set(hits.map((rel) => joinPath(view.root, rel)))].sort(comparePaths)
  return absolute.map((abs) => relativeTo(abs, view.root) ?? abs)
}

/** `fnmatch.translate` for one path component: `*`, `?`, `[seq]`, `[!seq]`; the rest literal. */
export function fnmatchToRegExp(pattern: string): RegExp {
  let out = ''
  const chars = Array.from(pattern)
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!
    if (c === '*') out += '[^]*'
    else if (c === '?') out += '[^]'
    else if (c === '[') {
      const close = findClassEnd(chars, i)
      if (close < 0) out += '\\['
      else {
        let body = chars.slice(i + 1, close).join('')
        const negated = body.startsWith('!')
        if (negated) body = body.slice(1)
        out += `[${negated ? '^' : ''}${body.replace(/[\\\]^]/g, (m) => '\\' + m)}]`
        i = close
      }
    } else out += escapeRegExp(c)
  }
  return new RegExp(`^${out}$`, 'u')
}

function findClassEnd(chars: readonly string[], open: number): number {
  let j = open + 1
  if (chars[j] === '!') j++
  if (chars[j] === ']') j++
  while (j < chars.length && chars[j] !== ']') j++
  return j < chars.length ? j : -1
}

function escapeRegExp(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? '\\' + c : c
}
