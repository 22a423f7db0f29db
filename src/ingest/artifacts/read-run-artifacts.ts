import type {IngestIssue} from '../../model/ingest-issue.js'
import type {Discovery, IngestLimits} from '../discover.js'
import {DEFAULT_LIMITS} from '../discover.js'
import type {FsPort} from '../fs/file-port.js'
import {readWorktree, type WorktreeRecords} from './read-worktree.js'

/** Every worktree discovery found in RUN, read and parsed; bad files become issues. */
export async function readRunArtifacts(port: FsPort, discovery: Discovery, limits: IngestLimits = DEFAULT_LIMITS): Promise<{worktrees: WorktreeRecords[]; issues: IngestIssue[]}> {
  const issues: IngestIssue[] = []
  const worktrees: WorktreeRecords[] = []
  if (discovery.root === null) return {worktrees, issues}
  for (const wt of discovery.worktrees) worktrees.push(await readWorktree(port, discovery.root.abs, wt, limits, discovery.fixture, issues))
  return {worktrees, issues}
}
