import type {IngestIssue} from '../../model/ingest-issue.js'
import type {TaskRun} from '../../model/run-record.js'

/**
 * A task file's `autobuild_state` (its turns, their feedback and save times) is written by the run
 * that last worked on the task, which need not be the logged run it is paired with: a log can hold
 * several runs of one task (each paired with the same file), and a worktree outlives the runs. Data
 * of another run is never used, so the state is dropped from the task file (with an ingest note)
 * when its turns or times do not fit this run:
 *
 * - it records more turns than this run had, when the run's end is logged;
 * - the time between two of its turns differs from the log's (progress timestamps) by more than
 *   ten minutes and a quarter (times are compared as differences: the file's clock is local, the
 *   log's UTC).
 */
export function checkAutobuildState(task: TaskRun, issues: IngestIssue[]): TaskRun {
  const file = task.taskFile
  const state = asObject(file?.frontmatter['autobuild_state'])
  const turns = Array.isArray(state?.['turns']) ? (state['turns'] as unknown[]).map(asObject).filter((t): t is Record<string, unknown> => t !== null) : []
  if (file === null || state === null || turns.length === 0) return task
  const why = mismatch(task, turns)
  if (why === null) return task
  const {autobuild_state: _dropped, ...frontmatter} = file.frontmatter
  issues.push({file: file.file, code: 'conflict', severity: 'info',
    message: `${task.taskId} (attempt ${task.attempt}): the task file's autobuild_state describes another run of the task (${why}): its turns, feedback and times are not used for this run`})
  return {...task, taskFile: {...file, frontmatter}}
}

function mismatch(task: TaskRun, turns: readonly Record<string, unknown>[]): string | null {
  const numbers = turns.map((t) => t['turn']).filter((n): n is number => typeof n === 'number')
  const logLast = task.turnCount?.value ?? Math.max(0, ...task.turns.map((t) => t.turn))
  const stateLast = Math.max(0, ...numbers)
  if (task.outcome !== null && logLast > 0 && stateLast > logLast) return `it records turn ${stateLast}, this run ended after turn ${logLast}`
  const fileTimes = new Map<number, number>()
  for (const t of turns) {
    const at = typeof t['timestamp'] === 'string' ? parseTime(t['timestamp']) : null
    if (typeof t['turn'] === 'number' && at !== null) fileTimes.set(t['turn'], at)
  }
  const logTimes = new Map<number, number>()
  for (const t of task.turns) {
    const at = parseTime(t.endedAt)
    if (at !== null) logTimes.set(t.turn, at)
  }
  const common = [...fileTimes.keys()].filter((n) => logTimes.has(n)).sort((a, b) => a - b)
  for (let i = 1; i < common.length; i++) {
    const a = common[i - 1]!
    const b = common[i]!
    const inFile = fileTimes.get(b)! - fileTimes.get(a)!
    const inLog = logTimes.get(b)! - logTimes.get(a)!
    const gap = Math.abs(inFile - inLog)
    if (gap > 10 * 60_000 && gap > Math.abs(inLog) / 4) {
      return `from turn ${a} to turn ${b} it took ${minutes(inFile)}, the log's run ${minutes(inLog)}`
    }
  }
  return null
}

function minutes(ms: number): string {
  return `${Math.round(ms / 60_000)} min`
}

function asObject(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null
}

/** ISO-like timestamps as opaque times (compared with each other only). */
function parseTime(s: string | null | undefined): number | null {
  if (!s) return null
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})/.exec(s)
  return m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])) : null
}
