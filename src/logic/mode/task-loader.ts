import type {LogicFlags} from '../changes.js'
import {PyException} from '../python/builtins.js'
import {joinPath, pathName} from '../python/pathlib.js'
import {compareCodePoints} from '../../shared/code-point-order.js'
import type {WorktreeView} from '../worktree.js'
import {extractAcceptanceCriteria} from './extract-acceptance-criteria.js'
import {parseFrontmatter} from './frontmatter.js'

/**
 * The part of TaskLoader's task dict the modelled functions read (docs/guardkit-logic.md §9.2, §9.3): the YAML
 * frontmatter, the body, and the acceptance criteria extracted from them.
 */
export interface TaskData {
  readonly frontmatter: Record<string, unknown>
  readonly content: string
  readonly acceptance_criteria: readonly unknown[]
  /** Worktree-relative path of the task file. */
  readonly file_path: string
}

/** Where `TaskLoader.load_task` looks, in order (not `completed`). */
export const TASK_SEARCH_DIRS = ['tasks/backlog', 'tasks/in_progress', 'tasks/design_approved', 'tasks/in_review', 'tasks/blocked'] as const

/**
 * `TaskLoader._parse_task_file(path)`: python-frontmatter over the file's text (read in text mode,
 * so `\r\n` and `\r` become `\n`), then `_extract_acceptance_criteria`. Raises YAMLError (as
 * PyException) for invalid front matter.
 */
export function parseTaskFile(text: string, filePath: string, flags: LogicFlags): TaskData {
  const {metadata, content} = parseFrontmatter(text.replace(/\r\n?/g, '\n'))
  return {frontmatter: metadata, content, acceptance_criteria: extractAcceptanceCriteria(content, metadata, flags), file_path: filePath}
}

/**
 * The first `rglob("{task_id}*.md")` hit under the search dirs, in their order (so `TASK-1` can
 * pick `TASK-10-….md`). Python's order within a directory is the file system's; this takes files of
 * a directory before its subdirectories', by code point.
 */
export function findTaskFile(taskId: string, worktree: WorktreeView, dirs: readonly string[] = TASK_SEARCH_DIRS): string | null {
  for (const dir of dirs) {
    const hits = worktree.listFiles(dir).filter((f) => {
      const name = pathName(f)
      return name.startsWith(taskId) && name.endsWith('.md') && name.length >= taskId.length + 3
    })
    if (hits.length > 0) return hits.sort(compareRglob)[0]!
  }
  return null
}

function compareRglob(a: string, b: string): number {
  const pa = a.split('/')
  const pb = b.split('/')
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    if (pa[i] === pb[i]) continue
    const aFile = i === pa.length - 1
    const bFile = i === pb.length - 1
    if (aFile !== bFile) return aFile ? -1 : 1
    return compareCodePoints(pa[i]!, pb[i]!)
  }
  return pa.length - pb.length
}

export type LoadTaskResult =
  | {readonly ok: true; readonly task: TaskData}
  | {readonly ok: false; readonly notFound: boolean; readonly exception: string}

/** `TaskLoader.load_task(task_id, repo_root=worktree)`: TaskNotFoundError, or the parsed task file. */
export function loadTask(taskId: string, worktree: WorktreeView, flags: LogicFlags): LoadTaskResult {
  const file = findTaskFile(taskId, worktree)
  if (file === null) return {ok: false, notFound: true, exception: `TaskNotFoundError: Task ${taskId} not found`}
  const text = worktree.readText(joinPath(worktree.root, file))
  if (text === null) return {ok: false, notFound: false, exception: `UnknownContent: ${file} was found but its content was not recorded`}
  try {
    return {ok: true, task: parseTaskFile(text, file, flags)}
  } catch (error) {
    if (error instanceof PyException) return {ok: false, notFound: false, exception: error.text}
    throw error
  }
}
