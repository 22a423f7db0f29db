/**
 * The worktree files a recording keeps (the ones ingest reads, docs/ingest.md "Worktrees"), by
 * worktree-relative `/`-separated path. Hidden files (editors' and atomic writers' temporaries)
 * are never recorded.
 */
export type RecordedKind = 'artifact' | 'feature' | 'config' | 'task-file'

const MAX_TASK_DEPTH = 6

export function recordedKind(rel: string): RecordedKind | null {
  const parts = rel.split('/')
  const name = parts.at(-1) ?? ''
  if (name.startsWith('.') || name.endsWith('~') || name.endsWith('.swp')) return null
  if (parts[0] === '.guardkit') {
    if (parts.length === 4 && parts[1] === 'autobuild' && parts[2]!.startsWith('TASK-')) return 'artifact'
    if (parts.length === 3 && parts[1] === 'features' && /^FEAT-.*\.ya?ml$/.test(name)) return 'feature'
    if (parts.length === 2 && name === 'config.yaml') return 'config'
    return null
  }
  if (parts[0] === 'tasks' && parts.length >= 2 && parts.length <= MAX_TASK_DEPTH + 1 && /^TASK-.*\.md$/.test(name)) return 'task-file'
  return null
}

/** GuardKit overwrites these while the build runs: every version seen is kept. */
export function keepsVersions(rel: string): boolean {
  return recordedKind(rel) === 'artifact'
}

/** Artifacts are JSON: a half-written one does not parse yet. */
export function isJsonArtifact(rel: string): boolean {
  return recordedKind(rel) === 'artifact' && rel.endsWith('.json')
}

/** Directories under the worktree that hold recorded files, and whether to watch them recursively. */
export const WATCHED_DIRS: readonly {readonly rel: string; readonly recursive: boolean}[] = [
  {rel: '.', recursive: false},
  {rel: '.guardkit', recursive: false},
  {rel: '.guardkit/autobuild', recursive: true},
  {rel: '.guardkit/features', recursive: false},
  {rel: 'tasks', recursive: true},
]
