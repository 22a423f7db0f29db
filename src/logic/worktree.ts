import {formatPath, joinPath, normalizePath, parsePath, relativeTo} from './python/pathlib.js'

/**
 * What the logic may know about the worktree on disk. GuardKit reads files (player reports,
 * task files, test files) and checks existence; the replay cannot, so those facts are inputs.
 * Paths may be absolute (under `root`) or worktree-relative, as GuardKit's own strings are.
 *
 * A fact that the records do not hold is `unknown`: the view answers with its policy and notes
 * the question in `unknowns`, so the replay can mark what depended on it as approximate.
 */
export interface WorktreeView {
  /** Absolute worktree path as GuardKit saw it (`/worktree/root` in the oracle harness). */
  readonly root: string
  exists(path: string): boolean
  isDir(path: string): boolean
  isFile(path: string): boolean
  /** File text, or null when the file is absent or its content was not recorded. */
  readText(path: string): string | null
  /** Worktree-relative paths of files under `dir` (recursive), sorted by code point. */
  listFiles(dir: string): string[]
  /** Questions the records could not answer, in the order they were asked. */
  readonly unknowns: readonly string[]
}

export interface VirtualWorktreeInput {
  readonly root: string
  /** Worktree-relative path → content (null: exists, content not recorded). A trailing `/` marks a directory. */
  readonly files: Readonly<Record<string, string | null>>
  /**
   * What to answer for paths the records say nothing about. `absent` is exact when the input lists
   * every file (the oracle harness); `unknown-absent` answers "absent" but records the question.
   */
  readonly missing?: 'absent' | 'unknown-absent'
}

export function createVirtualWorktree(input: VirtualWorktreeInput): WorktreeView {
  const root = normalizePath(input.root)
  const fsRoot = resolveDoubleSlashRoot(root)
  const files = new Map<string, string | null>()
  const dirs = new Set<string>()
  for (const [raw, content] of Object.entries(input.files)) {
    const isDirEntry = raw.endsWith('/')
    const rel = normalizePath(raw)
    if (isDirEntry) dirs.add(rel)
    else files.set(rel, content)
    let parent = rel
    while (parent.includes('/')) {
      parent = parent.slice(0, parent.lastIndexOf('/'))
      dirs.add(parent)
    }
  }
  const unknowns: string[] = []
  const toRel = (path: string): string | null => relativeTo(resolveDoubleSlashRoot(joinPath(root, path)), fsRoot)
  const miss = (question: string): false => {
    if (input.missing === 'unknown-absent') unknowns.push(question)
    return false
  }
  return {
    root,
    unknowns,
    exists(path) {
      const rel = toRel(path)
      if (rel === null) return miss(`exists ${path}`)
      if (rel === '.' || files.has(rel) || dirs.has(rel)) return true
      return miss(`exists ${path}`)
    },
    isDir(path) {
      const rel = toRel(path)
      if (rel === null) return miss(`is_dir ${path}`)
      if (rel === '.' || dirs.has(rel)) return true
      if (files.has(rel)) return false
      return miss(`is_dir ${path}`)
    },
    isFile(path) {
      const rel = toRel(path)
      if (rel === null) return miss(`is_file ${path}`)
      if (files.has(rel)) return true
      if (dirs.has(rel)) return false
      return miss(`is_file ${path}`)
    },
    readText(path) {
      const rel = toRel(path)
      if (rel === null || !files.has(rel)) {
        miss(`read ${path}`)
        return null
      }
      const content = files.get(rel) ?? null
      if (content === null) unknowns.push(`content of ${path}`)
      return content
    },
    listFiles(dir) {
      const rel = toRel(dir)
      if (rel === null) return []
      const prefix = rel === '.' ? '' : rel + '/'
      return [...files.keys()].filter((f) => f.startsWith(prefix)).sort(cmp)
    },
  }
}

/**
 * pathlib keeps a `//` root lexically (POSIX leaves it implementation-defined), but Linux and macOS
 * read `//x` as `/x` when they stat it, so `Path("//wt/x").exists()` is true when `/wt/x` exists.
 */
export function resolveDoubleSlashRoot(absolute: string): string {
  const p = parsePath(absolute)
  return p.root === '//' ? formatPath({root: '/', parts: p.parts}) : absolute
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
