import type {AnalysisReport, TaskAnalysis} from '../explain/analysis.js'
import type {Presentable} from '../render/present.js'
import {UsageError} from '../shared/errors.js'
import {analyzeRunPath, type AnalyzeOptions} from './analyze.js'
import {neutralised, neutraliseInline} from '../shared/neutralise.js'

export interface ExplainOptions extends Omit<AnalyzeOptions, 'whatif' | 'verbose' | 'format'> {
  readonly task: string
  readonly turn?: number
  /** Which AutoBuild run of the log, when the task ran more than once (default: the last). */
  readonly attempt?: number
}

/** `explain RUN --task ID [--turn N]`: the deep dump of one task or one turn, under the chosen profiles. */
export async function runExplain(runPath: string, options: ExplainOptions): Promise<Presentable & {readonly kind: 'explain'}> {
  const report = await analyzeRunPath(runPath, options)
  const task = findTask(report, options.task, options.attempt, runPath)
  const turn = options.turn ?? null
  if (turn !== null) requireTurn(task, turn, runPath)
  // --profile chooses whose view: the run's era profile, which analysis always adds, only when named
  const era = report.era.profile
  const profiles = report.profiles.map((p) => p.name).filter((name) => options.names.length === 0 || name !== era || options.names.includes(name))
  return {kind: 'explain', report, task, turn, profiles}
}

/**
 * The task the user named: exact id first, then ignoring case, then by suffix (`DB-003` for
 * `TASK-DB-003`); of several attempts, the one asked for, else the last.
 */
export function findTask(report: AnalysisReport, id: string, attempt: number | undefined, runPath: string): TaskAnalysis {
  const tasks = report.tasks
  const wanted = id.toUpperCase()
  const byId = [
    tasks.filter((t) => t.task.taskId === id),
    tasks.filter((t) => t.task.taskId.toUpperCase() === wanted),
    tasks.filter((t) => t.task.taskId.toUpperCase().endsWith(`-${wanted}`)),
  ].find((list) => list.length > 0) ?? []
  const ids = [...new Set(byId.map((t) => t.task.taskId))]
  if (ids.length > 1) throw new UsageError(neutralised`--task ${id} matches ${ids}.`, 'Give the full task id.')
  if (byId.length === 0) {
    const known = [...new Set(tasks.map((t) => t.task.taskId))]
    throw new UsageError(
      neutralised`No task ${id} in ${runPath}.`,
      known.length === 0 ? 'No task loop ran in this run; `guardkit-replay inspect RUN` shows what was found.' : neutralised`Tasks in this run: ${known}.`,
    )
  }
  if (attempt === undefined) return byId.at(-1)!
  const match = byId.find((t) => t.task.attempt === attempt)
  if (match === undefined) throw new UsageError(neutralised`${ids[0]} did not run in attempt ${attempt}.`, `It ran in attempt ${byId.map((t) => t.task.attempt).join(', ')}.`)
  return match
}

function requireTurn(task: TaskAnalysis, turn: number, runPath: string): void {
  const turns = [...new Set([...task.task.turns.map((u) => u.turn), ...Object.values(task.replays).flatMap((r) => r.turns.map((u) => u.turn))])].sort((a, b) => a - b)
  if (turns.includes(turn)) return
  const range = turns.length === 0 ? 'no turns' : turns.length === 1 ? `only turn ${turns[0]}` : `turns ${turns[0]}–${turns.at(-1)}`
  throw new UsageError(`${neutraliseInline(task.task.taskId)} has no turn ${turn} in ${neutraliseInline(runPath)}: it has ${range}.`, `Leave out --turn to see every turn.`)
}
