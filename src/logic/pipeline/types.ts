/** A JSON object as GuardKit writes or reads it (key order = insertion order). */
export type JsonRecord = Record<string, unknown>

/** `_detect_git_changes()`: `git diff --name-only HEAD` and untracked files, repo-relative. */
export interface GitChanges {
  readonly modified: readonly string[]
  readonly created: readonly string[]
}
