import type {IngestIssue} from '../../model/ingest-issue.js'
import type {TaskRun} from '../../model/run-record.js'
import type {ArtifactTask} from '../artifacts/assemble-task.js'

/** How an artifact folder was matched to a task run of the logs. */
export type PairBasis = 'checkpoints' | 'only-run' | 'latest-run'

export interface Pairing {
  /** Index into the log's tasks → the folder paired with it. */
  readonly paired: ReadonlyMap<number, {readonly folder: ArtifactTask; readonly basis: PairBasis}>
  /** Folders that belong to no logged run of their task. */
  readonly unpaired: readonly ArtifactTask[]
  readonly issues: readonly IngestIssue[]
}

interface Score {
  readonly index: number
  readonly matches: number
  readonly contradictions: number
}

/**
 * Pairs artifact folders with the logged runs of their task (docs/ingest.md, "Pairing"). The
 * folder's checkpoints.json holds full commit ids; the log prints their first 8 characters in
 * `Checkpoint created: <hash> for turn N`. A folder goes to the run with the most turns whose
 * hashes agree; when neither side has hashes, to the task's only run, or its latest (the folder is
 * overwritten by every run). A folder whose hashes agree with no run is from a run the logs do
 * not hold, and is read on its own.
 */
export function pairArtifactFolders(logTasks: readonly TaskRun[], folders: readonly ArtifactTask[]): Pairing {
  const paired = new Map<number, {folder: ArtifactTask; basis: PairBasis; score: number}>()
  const unpaired: ArtifactTask[] = []
  const issues: IngestIssue[] = []
  for (const folder of folders) {
    const candidates = logTasks.flatMap((t, index) => (t.taskId === folder.taskId ? [score(t, index, folder)] : []))
    if (candidates.length === 0) {
      unpaired.push(folder)
      continue
    }
    const withMatches = candidates.filter((c) => c.matches > 0)
    let chosen: Score | undefined
    let basis: PairBasis
    if (withMatches.length > 0) {
      chosen = withMatches.sort((a, b) => b.matches - a.matches || a.contradictions - b.contradictions || b.index - a.index)[0]!
      basis = 'checkpoints'
    } else if (folder.checkpoints.size > 0 && candidates.some((c) => c.contradictions > 0) && candidates.every((c) => c.contradictions > 0 || !hasHashes(logTasks[c.index]!))) {
      issues.push({file: folder.dir, code: 'unpaired-artifacts', severity: 'warning',
        message: `the checkpoint hashes in checkpoints.json match no logged run of ${folder.taskId}: the folder is from a run the logs do not hold, and is read on its own`})
      unpaired.push(folder)
      continue
    } else {
      chosen = candidates.sort((a, b) => latest(logTasks, b) - latest(logTasks, a))[0]!
      basis = candidates.length === 1 ? 'only-run' : 'latest-run'
      if (basis === 'latest-run') {
        issues.push({file: folder.dir, code: 'pairing-guess', severity: 'info',
          message: `no checkpoint hashes to pair the folder with one of ${candidates.length} logged runs of ${folder.taskId}: paired with the latest (attempt ${logTasks[chosen.index]!.attempt})`})
      }
    }
    const previous = paired.get(chosen.index)
    if (previous && previous.score >= chosen.matches) {
      issues.push({file: folder.dir, code: 'unpaired-artifacts', severity: 'warning',
        message: `${previous.folder.dir} is already paired with this run of ${folder.taskId}: this folder is read on its own`})
      unpaired.push(folder)
      continue
    }
    if (previous) unpaired.push(previous.folder)
    paired.set(chosen.index, {folder, basis, score: chosen.matches})
  }
  return {paired: new Map([...paired].map(([i, p]) => [i, {folder: p.folder, basis: p.basis}])), unpaired, issues}
}

function score(task: TaskRun, index: number, folder: ArtifactTask): Score {
  let matches = 0
  let contradictions = 0
  for (const turn of task.turns) {
    const logged = turn.checkpoint?.value.hash
    const stored = folder.checkpoints.get(turn.turn)?.hash
    if (!logged || !stored) continue
    if (sameCommit(logged, stored)) matches++
    else contradictions++
  }
  return {index, matches, contradictions}
}

function hasHashes(task: TaskRun): boolean {
  return task.turns.some((t) => Boolean(t.checkpoint?.value.hash))
}

/** Log order of a task run: later attempts, then later in the log. */
function latest(tasks: readonly TaskRun[], s: Score): number {
  return tasks[s.index]!.attempt * 1_000_000 + s.index
}

/** Whether two commit ids (full or abbreviated) name the same commit. */
export function sameCommit(a: string, b: string): boolean {
  const x = a.toLowerCase()
  const y = b.toLowerCase()
  const n = Math.min(x.length, y.length)
  return n >= 7 && x.slice(0, n) === y.slice(0, n)
}
