import type {LogicFlags} from '../../../../../src/logic/changes.js'
import {collectingSink, type LogRecord} from '../../../../../src/logic/log-sink.js'
import {builtinProfile} from '../../../../../src/logic/profiles.js'
import {createVirtualWorktree} from '../../../../../src/logic/worktree.js'
import type {CoachContext} from '../../../../../src/logic/coach/requirements/index.js'

export const ROOT = '/worktree/root'
export const COACH_LOGGER = 'guardkit.orchestrator.quality_gates.coach_validator'

export function flagsOf(profile: string): LogicFlags {
  const p = builtinProfile(profile)
  if (!p) throw new Error(`no profile ${profile}`)
  return p.flags
}

/** A validator (`self`) over a virtual worktree holding the given player reports of `taskId`. */
export function coach(
  profile: string,
  opts: {taskId?: string | null; reports?: Record<number, unknown>; files?: Record<string, string | null>} = {},
): CoachContext & {records: LogRecord[]} {
  const taskId = opts.taskId === undefined ? 'TASK-X' : opts.taskId
  const files: Record<string, string | null> = {...opts.files}
  for (const [turn, report] of Object.entries(opts.reports ?? {})) {
    files[`.guardkit/autobuild/${taskId ?? 'TASK-X'}/player_turn_${turn}.json`] = typeof report === 'string' ? report : JSON.stringify(report)
  }
  const sink = collectingSink()
  return {taskId, worktree: createVirtualWorktree({root: ROOT, files}), flags: flagsOf(profile), log: sink, records: sink.records}
}

export const warnings = (records: readonly LogRecord[]) => records.filter((r) => r.level === 'WARNING').map((r) => r.message)
