import type {IngestIssue} from '../../model/ingest-issue.js'
import type {FsPort} from '../fs/file-port.js'
import type {IngestLimits} from './limits.js'
import {listDir, type Entry, type RunRoot} from './run-paths.js'

export interface DiscoveredFile {
  readonly abs: string
  /** RUN-relative, `/`-separated. */
  readonly rel: string
  readonly size: number
}

export interface DiscoveredTaskFolder {
  readonly taskId: string
  /** RUN-relative folder. */
  readonly rel: string
  readonly files: readonly (DiscoveredFile & {readonly name: string})[]
}

export interface DiscoveredWorktree {
  /** RUN-relative root of the worktree (`.` when RUN is one). */
  readonly rel: string
  readonly taskFolders: readonly DiscoveredTaskFolder[]
  /** `tasks/**\/TASK-*.md`, with their worktree-relative path. */
  readonly taskFiles: readonly (DiscoveredFile & {readonly inWorktree: string})[]
  readonly featureFiles: readonly DiscoveredFile[]
  readonly configFile: DiscoveredFile | null
}

/** `feature-events.jsonl` / `events.jsonl`: GuardKit's event logs (June 2026; docs/ingest.md). */
export function isEventLog(name: string): boolean {
  return name === 'feature-events.jsonl' || name === 'events.jsonl'
}

/** Whether a directory's entries mark it as a worktree (or a copy of one). */
export function isWorktreeRoot(entries: readonly Entry[]): boolean {
  return entries.some((e) => e.kind === 'dir' && (e.name === '.guardkit' || e.name === 'tasks'))
}

/**
 * The GuardKit files of one worktree: `.guardkit/autobuild/TASK-*\/*`, `.guardkit/features/FEAT-*.yaml`,
 * `.guardkit/config.yaml`, `tasks/**\/TASK-*.md`. Returns the nested worktrees of a repository root
 * (`.guardkit/worktrees/*`) for the caller to collect.
 */
export async function collectWorktree(
  port: FsPort, root: RunRoot, dir: {abs: string; rel: string}, entries: readonly Entry[],
  limits: IngestLimits, issues: IngestIssue[], visited: Set<string>,
): Promise<{worktree: DiscoveredWorktree; nested: Entry[]; eventFiles: DiscoveredFile[]}> {
  const taskFolders: DiscoveredTaskFolder[] = []
  const eventFiles: DiscoveredFile[] = []
  const featureFiles: DiscoveredFile[] = []
  const taskFiles: (DiscoveredFile & {inWorktree: string})[] = []
  let configFile: DiscoveredFile | null = null
  let nested: Entry[] = []
  const guardkit = entries.find((e) => e.kind === 'dir' && e.name === '.guardkit')
  if (guardkit) {
    for (const e of await listDir(port, root, guardkit.abs, issues, visited, limits.maxFolderEntries)) {
      if (e.kind === 'file' && e.name === 'config.yaml') configFile = file(e)
      else if (e.kind === 'dir' && e.name === 'autobuild') taskFolders.push(...(await collectTaskFolders(port, root, e, limits, issues, visited, eventFiles)))
      else if (e.kind === 'dir' && e.name === 'features') {
        for (const f of await listDir(port, root, e.abs, issues, visited, limits.maxFolderEntries)) {
          if (f.kind === 'file' && /^FEAT-.*\.ya?ml$/.test(f.name)) featureFiles.push(file(f))
        }
      } else if (e.kind === 'dir' && e.name === 'worktrees') {
        nested = (await listDir(port, root, e.abs, issues, visited, limits.maxFolderEntries)).filter((w) => w.kind === 'dir')
      }
    }
  }
  const tasks = entries.find((e) => e.kind === 'dir' && e.name === 'tasks')
  if (tasks) await collectTaskFiles(port, root, tasks, 'tasks', 1, limits, issues, visited, taskFiles)
  return {worktree: {rel: dir.rel, taskFolders, taskFiles, featureFiles, configFile}, nested, eventFiles}
}

async function collectTaskFolders(port: FsPort, root: RunRoot, autobuild: Entry, limits: IngestLimits, issues: IngestIssue[], visited: Set<string>, eventFiles: DiscoveredFile[]): Promise<DiscoveredTaskFolder[]> {
  const out: DiscoveredTaskFolder[] = []
  const entries = await listDir(port, root, autobuild.abs, issues, visited, limits.maxFolderEntries)
  for (const e of entries) {
    if (e.kind !== 'dir') continue
    if (e.name.startsWith('FEAT-')) {
      // a feature's own folder (its review summary, its event log): only the event log is read
      for (const f of await listDir(port, root, e.abs, issues, visited, limits.maxFolderEntries)) if (f.kind === 'file' && isEventLog(f.name)) eventFiles.push(file(f))
      continue
    }
    if (!e.name.startsWith('TASK-')) {
      issues.push({file: e.rel, code: 'ignored-file', severity: 'info', message: 'a folder in .guardkit/autobuild/ not named TASK-*: ignored'})
      continue
    }
    const files: (DiscoveredFile & {name: string})[] = []
    for (const f of await listDir(port, root, e.abs, issues, visited, limits.maxFolderEntries)) {
      if (f.kind === 'file') files.push({...file(f), name: f.name})
      else issues.push({file: f.rel, code: 'ignored-file', severity: 'info', message: 'a folder inside a task artifact folder: ignored'})
    }
    if (files.length === 0) issues.push({file: e.rel, code: 'empty-dir', severity: 'info', message: 'an empty task artifact folder'})
    out.push({taskId: e.name, rel: e.rel, files})
  }
  if (out.length === 0) issues.push({file: autobuild.rel, code: 'empty-dir', severity: 'info', message: 'no TASK-* artifact folders in .guardkit/autobuild/'})
  return out
}

async function collectTaskFiles(
  port: FsPort, root: RunRoot, dir: Entry, inWorktree: string, depth: number,
  limits: IngestLimits, issues: IngestIssue[], visited: Set<string>, out: (DiscoveredFile & {inWorktree: string})[],
): Promise<void> {
  for (const e of await listDir(port, root, dir.abs, issues, visited, limits.maxFolderEntries)) {
    const path = `${inWorktree}/${e.name}`
    if (e.kind === 'file' && /^TASK-.*\.md$/.test(e.name)) out.push({...file(e), inWorktree: path})
    else if (e.kind === 'dir' && depth < limits.maxTaskDepth) await collectTaskFiles(port, root, e, path, depth + 1, limits, issues, visited, out)
  }
}

function file(e: Entry): DiscoveredFile {
  return {abs: e.abs, rel: e.rel, size: e.size}
}
