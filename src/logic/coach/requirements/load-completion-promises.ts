import type {LogicFlags} from '../../changes.js'
import {LOGGERS, type LogSink} from '../../log-sink.js'
import {PyException, isPyDict, pyLenOf, pyTypeName} from '../../python/builtins.js'
import {pyJsonLoads} from '../../python/json-loads.js'
import {joinPath} from '../../python/pathlib.js'
import {pyTruthy} from '../../python/strings.js'
import type {WorktreeView} from '../../worktree.js'
import type {PromiseSource} from './types.js'

/** What `validate_requirements` knows as `self`: the validator's own task id and worktree. */
export interface CoachContext {
  /** `CoachValidator.task_id` (may be null in a harness). */
  readonly taskId: string | null
  readonly worktree: WorktreeView
  readonly flags: LogicFlags
  readonly log: LogSink
}

export interface LoadedPromises {
  /** The first truthy `completion_promises` found (normally a list; never type-checked), or []. */
  readonly promises: unknown
  readonly source: PromiseSource
}

/** `.guardkit/autobuild/{task_id}/player_turn_{turn}.json` under the worktree. */
export function playerReportPath(root: string, taskId: string, turn: number): string {
  return joinPath(root, '.guardkit', 'autobuild', taskId, `player_turn_${turn}.json`)
}

type ReportRead = {kind: 'absent' | 'unreadable' | 'unknown'} | {kind: 'json'; value: unknown; raw: string}

function readReport(worktree: WorktreeView, path: string): ReportRead {
  if (!worktree.exists(path)) return {kind: 'absent'}
  if (worktree.isDir(path)) return {kind: 'unreadable'}
  const raw = worktree.readText(path)
  if (raw === null) return {kind: 'unknown'}
  const parsed = pyJsonLoads(raw)
  return parsed.ok ? {kind: 'json', value: parsed.value, raw} : {kind: 'unreadable'}
}

/** `type(json.loads(raw)).__name__`: a document that is one number is a float when its text says so. */
function jsonTypeName(value: unknown, raw: string): string {
  if (typeof value === 'number' && /[.eE]/.test(raw)) return 'float'
  return pyTypeName(value)
}

/**
 * `CoachValidator._load_completion_promises(task_work_results, turn)` (docs/guardkit-logic.md §7.3, D26):
 * task_work_results → `player_turn_{turn}.json` → (fixed) the most recent non-empty list of
 * `player_turn_{turn-1..1}.json`, whatever its statuses. Every error on the current report is
 * swallowed; in the prior-turn scan only JSON/IO errors are, so a report that parses to a non-dict
 * raises AttributeError (as PyException) out of `validate()`.
 */
export function loadCompletionPromises(twr: Record<string, unknown>, turn: number | null, self: CoachContext): LoadedPromises {
  const {flags, worktree, log} = self
  const inResults = twr['completion_promises']
  if (pyTruthy(inResults)) return {promises: inResults, source: {kind: 'task_work_results'}}
  if (turn === null) return {promises: [], source: {kind: 'none', reason: 'no turn number'}}
  let tid: unknown = 'task_id' in twr ? twr['task_id'] : ''
  // promiseTaskIdFallback (D26): an empty task_id in the results falls back to the validator's own.
  if (flags.promiseTaskIdFallback && !pyTruthy(tid)) tid = pyTruthy(self.taskId) ? self.taskId : ''
  if (!pyTruthy(tid)) return {promises: [], source: {kind: 'none', reason: 'task_work_results has no task_id'}}

  if (typeof tid === 'string') {
    const path = playerReportPath(worktree.root, tid, turn)
    const read = readReport(worktree, path)
    if (read.kind === 'json' && isPyDict(read.value)) {
      const promises = 'completion_promises' in read.value ? read.value['completion_promises'] : []
      if (pyTruthy(promises)) return {promises, source: {kind: 'current-report', turn, path}}
    }
  }

  // priorTurnPromises (D26): scan player_turn_{turn-1} … player_turn_1 for the first non-empty list.
  if (flags.priorTurnPromises && turn > 1) {
    if (typeof tid !== 'string') {
      throw new PyException('TypeError', `unsupported operand type(s) for /: 'PosixPath' and '${pyTypeName(tid)}'`)
    }
    for (let prev = turn - 1; prev > 0; prev--) {
      const path = playerReportPath(worktree.root, tid, prev)
      const read = readReport(worktree, path)
      if (read.kind !== 'json') continue
      if (!isPyDict(read.value)) {
        throw new PyException('AttributeError', `'${jsonTypeName(read.value, read.raw)}' object has no attribute 'get'`)
      }
      const promises = 'completion_promises' in read.value ? read.value['completion_promises'] : []
      if (pyTruthy(promises)) {
        log.emit('INFO', LOGGERS.coach, `No completion_promises in current turn — recovered from player_turn_${prev}.json (${pyLenOf(promises)} promises)`)
        return {promises, source: {kind: 'prior-report', turn: prev, path}}
      }
    }
  }
  return {promises: [], source: {kind: 'none', reason: `no completion_promises in task_work_results or player_turn_${turn}.json`}}
}
