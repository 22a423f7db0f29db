import {compareCodePoints} from '../../shared/code-point-order.js'
import type {LogicFlags} from '../changes.js'
import {loadYaml} from '../mode/frontmatter.js'
import {parseTaskFile} from '../mode/task-loader.js'
import {isPyDict, PyException} from '../python/builtins.js'
import {joinPath, parsePath} from '../python/pathlib.js'
import type {WorktreeView} from '../worktree.js'

/**
 * How the invoker finds and reads the task file for Fix 5 (docs/guardkit-logic.md §2 S000 Fix 5 (a), §4.4): the first
 * `rglob("{task_id}*.md")` under the worktree's task folders, and only its YAML frontmatter.
 */
export const TASK_FOLDERS = ['backlog', 'design_approved', 'in_progress', 'in_review', 'completed', 'blocked'] as const

export interface TaskFileLookup {
  /** Worktree-relative path of the file GuardKit would pick, or null (`_find_task_file` returned None). */
  readonly path: string | null
  /** Every match, in the order the model searched; more than one means rglob order decided. */
  readonly candidates: readonly string[]
}

/** `_find_task_file(task_id)`: folders in GuardKit's order; inside one, files before sub-folders. */
export function findTaskFile(worktree: WorktreeView, taskId: string): TaskFileLookup {
  const candidates: string[] = []
  for (const folder of TASK_FOLDERS) {
    const dir = `tasks/${folder}`
    const hits = worktree.listFiles(dir).filter((f) => {
      const name = f.slice(f.lastIndexOf('/') + 1)
      return name.startsWith(taskId) && name.endsWith('.md') && name.length >= taskId.length + 3
    })
    candidates.push(...hits.sort(compareWalkOrder))
  }
  return {path: candidates[0] ?? null, candidates}
}

/** pathlib's rglob yields a directory's own entries before descending into its sub-directories. */
function compareWalkOrder(a: string, b: string): number {
  const pa = parsePath(a).parts
  const pb = parsePath(b).parts
  const n = Math.min(pa.length, pb.length)
  for (let i = 0; i < n; i++) {
    if (pa[i] === pb[i]) continue
    const aIsFile = i === pa.length - 1
    const bIsFile = i === pb.length - 1
    if (aIsFile !== bIsFile) return aIsFile ? -1 : 1
    return compareCodePoints(pa[i]!, pb[i]!)
  }
  return pa.length - pb.length
}

/**
 * `_load_task_metadata(task_file)`: the YAML between the leading `---` and the next `---`
 * (`content.split("---", 2)`), loaded as PyYAML's safe_load does; anything unreadable gives `{}`.
 * Not python-frontmatter: the oracle harness stubbed that module out, yet Fix 5 read the
 * frontmatter criteria (create_player_report_from_task_work, "Fix 5 with frontmatter AC").
 */
export function loadTaskMetadata(content: string): Record<string, unknown> {
  if (!content.startsWith('---')) return {}
  const rest = content.slice(3)
  const end = rest.indexOf('---')
  if (end < 0) return {}
  try {
    const value = loadYaml(rest.slice(0, end))
    return isPyDict(value) ? value : {}
  } catch (error) {
    if (error instanceof PyException) return {}
    throw error
  }
}

/** What direct mode reads from the task file before it builds a synthetic report (docs/guardkit-logic.md §5.1). */
export interface DirectModeTaskFacts {
  /** Raw frontmatter `task_type` (null when absent). */
  readonly taskType: string | null
  readonly criteria: {readonly taskLoader: unknown; readonly frontmatter: unknown}
  readonly taskFile: string | null
}

/**
 * The task facts of a direct-mode turn: `task_type` and frontmatter criteria from
 * `_load_task_metadata`, and (DMCP-004) the criteria `TaskLoader._parse_task_file` extracts,
 * body included. A task file that is missing or unreadable gives no criteria.
 */
export function directModeTaskFacts(worktree: WorktreeView, taskId: string, flags: LogicFlags): DirectModeTaskFacts {
  const {path} = findTaskFile(worktree, taskId)
  const text = path === null ? null : worktree.readText(joinPath(worktree.root, path))
  if (path === null || text === null) return {taskType: null, criteria: {taskLoader: null, frontmatter: null}, taskFile: path}
  const metadata = loadTaskMetadata(text)
  const taskType = typeof metadata.task_type === 'string' ? metadata.task_type : null
  let taskLoader: unknown = null
  try {
    taskLoader = parseTaskFile(text, path, flags).acceptance_criteria
  } catch (error) {
    if (!(error instanceof PyException)) throw error
  }
  return {taskType, criteria: {taskLoader, frontmatter: metadata.acceptance_criteria ?? null}, taskFile: path}
}
