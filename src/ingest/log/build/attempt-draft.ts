import type {Evidence, Fact} from '../../../model/evidence.js'
import type {RunAttempt, RunSettings, Wave} from '../../../model/run-record.js'
import type {LogEvent, TableRow} from '../events.js'
import type {TaskDraft} from './task-draft.js'
import {keep} from './keep.js'

/** One AutoBuild run captured in a log (a shell prompt + an orchestration start). */
export interface AttemptDraft {
  readonly attempt: number
  readonly file: string
  startLine: number
  endLine: number
  command: string | null
  kind: 'feature' | 'task' | null
  featureId: string | null
  readonly tasks: Map<string, TaskDraft>
  readonly waves: Map<number, {taskIds: string[]; evidence: Evidence[]}>
  readonly statuses: Map<string, string>
  featureResult: Fact<string> | null
  settings: {-readonly [K in keyof RunSettings]: RunSettings[K]}
  /**
   * Summary tables not yet claimed by their task's `Orchestration complete` (FIFO, matched by status);
   * `status` null for a table whose title was cut, until the status box printed right after it names it.
   */
  readonly pendingTables: PendingTable[]
  /** The latest console/progress timestamp (2026-03 on), for events printed without one. */
  lastTs: string | null
  /** Progress lines seen without and with a timestamp (an era marker each, tallied once per attempt). */
  progressPlain: boolean
  progressStamped: boolean
}

/** A summary table not yet claimed, with the status box printed right after it (its lines, where it starts). */
export interface PendingTable {
  status: string | null
  readonly headless: boolean
  rows: readonly TableRow[]
  line: number
  endLine: number
  box: {readonly lines: readonly string[]; readonly line: number} | null
}

export function newAttempt(attempt: number, file: string, startLine: number, command: string | null): AttemptDraft {
  return {
    attempt, file, startLine, endLine: startLine, command, kind: null, featureId: null, tasks: new Map(), waves: new Map(), statuses: new Map(),
    featureResult: null, pendingTables: [], lastTs: null, progressPlain: false, progressStamped: false,
    settings: {maxTurns: null, sdkTimeoutSeconds: null, taskTimeoutSeconds: null, resetTurns: null, enablePerspectiveReset: null, rollbackOnPollution: null, fresh: null, coachTestExecution: null, serviceContainers: null, maxParallel: null},
  }
}

const MAX_PENDING_TABLES = 50
/** Records kept per run setting that is logged again on every Coach validation. */
const MAX_SETTING_EVIDENCE = 500
/**
 * From a summary table's last row to its status box's first line (docs/record-formats.md §5.5): the table's bottom
 * border, a blank line, the box's top border, then `│ Status: …`.
 */
const STATUS_BOX_GAP = 4

/** Records about the run or a wave (no task of their own). */
export function applyAttemptEvent(att: AttemptDraft, e: LogEvent, ev: Evidence): void {
  switch (e.kind) {
    case 'cli-start':
      att.kind = e.mode
      att.featureId = e.featureId
      setSettings(att, e.params, ev)
      break
    case 'feature-init':
    case 'ab-init':
      setSettings(att, e.params, ev)
      break
    case 'cv-test-env': {
      // a repository setting, read by the Coach on each validation: kept on the run with every record of it (up to a
      // cap), so that a task's explanation cites the record of its own validation; records that disagree leave `mixed`
      const known = att.settings.coachTestExecution
      if (known == null) att.settings.coachTestExecution = {value: keep(e.execution), evidence: [ev]}
      else {
        const value = known.value === e.execution ? known.value : 'mixed'
        att.settings.coachTestExecution = {value, evidence: known.evidence.length < MAX_SETTING_EVIDENCE ? [...known.evidence, ev] : known.evidence}
      }
      break
    }
    case 'cv-service-start': {
      // the record names no task: kept on the run, like the test-execution setting
      const known = att.settings.serviceContainers
      if (known == null) att.settings.serviceContainers = {value: [keep(e.service)], evidence: [ev]}
      else {
        const value = known.value.includes(e.service) ? known.value : [...known.value, keep(e.service)]
        att.settings.serviceContainers = {value, evidence: known.evidence.length < MAX_SETTING_EVIDENCE ? [...known.evidence, ev] : known.evidence}
      }
      break
    }
    case 'waves-start':
      if (e.taskTimeout !== null) att.settings.taskTimeoutSeconds ??= {value: e.taskTimeout, evidence: [ev]}
      break
    case 'wave-start':
    case 'c-wave': {
      const w = att.waves.get(e.wave) ?? {taskIds: [], evidence: []}
      for (const id of e.taskIds) if (!w.taskIds.includes(id)) w.taskIds.push(id)
      if (w.evidence.length < 4) w.evidence.push(ev)
      att.waves.set(e.wave, w)
      break
    }
    case 'feature-complete':
      att.featureResult = {value: e.status, evidence: [ev]}
      break
    case 'c-feature-result':
      att.featureResult ??= {value: e.result.toLowerCase() === 'success' ? 'completed' : 'failed', evidence: [ev]}
      break
    case 'feature-failed':
    case 'cli-error':
      att.featureResult ??= {value: 'failed', evidence: [ev]}
      break
    case 'c-summary-table':
      if (att.pendingTables.length < MAX_PENDING_TABLES) att.pendingTables.push({status: e.status, headless: e.status === null, rows: e.rows, line: ev.line ?? 0, endLine: e.endLine, box: null})
      break
    case 'c-status-box': {
      // GuardKit prints the status box right after the summary table (docs/record-formats.md §5.5): it names a cut table's status
      // and its lines say what stopped the loop, which the task's explanation follows
      const last = att.pendingTables[att.pendingTables.length - 1]
      if (last === undefined || (ev.line ?? 0) <= last.endLine || (ev.line ?? 0) - last.endLine > STATUS_BOX_GAP) break
      if (last.status === null) last.status = e.status
      if (last.status.toUpperCase() === e.status.toUpperCase()) last.box ??= {lines: e.lines, line: ev.line ?? 0}
      break
    }
    case 'c-task-status':
    case 'c-task-result':
      if (e.taskId !== undefined) att.statuses.set(e.taskId, e.kind === 'c-task-status' ? e.status : e.ok ? 'SUCCESS' : 'FAILED')
      break
    default:
      break
  }
}

function setSettings(att: AttemptDraft, params: Readonly<Record<string, string>>, ev: Evidence): void {
  const s = att.settings
  const num = (v: string | undefined) => (v === undefined || v === 'None' ? null : Number.parseFloat(v))
  const maxTurns = num(params.max_turns)
  if (maxTurns !== null && Number.isFinite(maxTurns)) s.maxTurns ??= {value: maxTurns, evidence: [ev]}
  const sdk = num(params.sdk_timeout)
  if (sdk !== null && Number.isFinite(sdk)) s.sdkTimeoutSeconds ??= {value: sdk, evidence: [ev]}
  const taskTimeout = num(params.task_timeout)
  if (taskTimeout !== null && Number.isFinite(taskTimeout)) s.taskTimeoutSeconds ??= {value: taskTimeout, evidence: [ev]}
  const reset = params.reset_turns
  if (reset !== undefined && /^\[[\d, ]*\]$/.test(reset)) {
    s.resetTurns ??= {value: reset.slice(1, -1).split(',').filter((x) => x.replace(/\s/g, '') !== '').map((x) => Number(x)), evidence: [ev]}
  }
  if (params.enable_perspective_reset !== undefined) s.enablePerspectiveReset ??= {value: params.enable_perspective_reset === 'True', evidence: [ev]}
  if (params.rollback_on_pollution !== undefined) s.rollbackOnPollution ??= {value: params.rollback_on_pollution === 'True', evidence: [ev]}
  if (params.fresh === 'True' || params.fresh === 'False') s.fresh ??= {value: params.fresh === 'True', evidence: [ev]}
  const parallel = num(params.max_parallel)
  if (parallel !== null && Number.isInteger(parallel) && parallel >= 1) s.maxParallel ??= {value: parallel, evidence: [ev]}
}

export function finishAttempt(att: AttemptDraft, truncated: boolean): RunAttempt {
  const waves: Wave[] = [...att.waves.entries()].sort(([a], [b]) => a - b).map(([wave, w]) => {
    const statuses: Record<string, string> = {}
    for (const id of w.taskIds) {
      const s = att.statuses.get(id)
      if (s !== undefined) statuses[id] = s
    }
    return {wave, taskIds: w.taskIds, evidence: w.evidence, statuses}
  })
  return {
    attempt: att.attempt,
    file: att.file,
    startLine: att.startLine,
    endLine: att.endLine,
    command: att.command,
    kind: att.kind ?? 'feature',
    featureId: att.featureId,
    taskIds: [...att.tasks.keys()],
    waves,
    featureResult: att.featureResult,
    truncated,
    settings: {...att.settings},
  }
}
