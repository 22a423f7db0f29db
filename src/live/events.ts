import type {LiveWarning} from './warnings.js'

/**
 * What `live` reports while it runs without the dashboard: one line (or one JSON object, with
 * `--json`) per event. Field names are stable; `time` is when it happened (ISO, UTC).
 */
export type LiveEvent =
  | {readonly type: 'start'; readonly mode: 'spawn' | 'attach'; readonly command: readonly string[] | null; readonly log: string | null; readonly record: string; readonly pid: number | null}
  | {readonly type: 'worktree'; readonly path: string; readonly source: 'flag' | 'output' | 'cwd'}
  | {readonly type: 'artifact'; readonly path: string; readonly version: number; readonly bytes: number; readonly seenAt: string; readonly reads: number; readonly invalid: string | null}
  | {readonly type: 'removed'; readonly path: string}
  | {readonly type: 'skipped'; readonly path: string; readonly code: 'special-file' | 'symlink-outside' | 'too-large'; readonly message: string}
  | {readonly type: 'gap'; readonly path: string; readonly message: string}
  | {readonly type: 'turn'; readonly taskId: string; readonly attempt: number; readonly turn: number; readonly decision: string; readonly criteriaMet: number | null; readonly criteriaTotal: number | null}
  | {readonly type: 'outcome'; readonly taskId: string; readonly attempt: number; readonly outcome: string; readonly turns: number | null}
  | {readonly type: 'warning'; readonly code: string; readonly severity: string; readonly taskId: string; readonly attempt: number; readonly turn: number | null; readonly seenAtTurn: number | null; readonly source: LiveWarning['source']; readonly message: string}
  | {readonly type: 'notice'; readonly message: string}
  | {readonly type: 'stopping'; readonly reason: string; readonly code: string | null}
  | {readonly type: 'exit'; readonly code: number; readonly detail: string}
  | {readonly type: 'recording'; readonly path: string; readonly files: number; readonly versions: number; readonly gaps: number}
  | {readonly type: 'report'; readonly report: unknown}

export type TimedEvent = LiveEvent & {readonly time: string}

export function warningEvent(w: LiveWarning): LiveEvent {
  return {type: 'warning', code: w.code, severity: w.severity, taskId: w.taskId, attempt: w.attempt, turn: w.turn, seenAtTurn: w.seenAtTurn, source: w.source, message: w.message}
}

/** One line of plain output (no escape codes), or null for events the plain output leaves out. */
export function formatEventLine(e: LiveEvent): string | null {
  switch (e.type) {
    case 'start':
      if (e.mode !== 'spawn') return `following ${e.log}; recording to ${e.record}`
      // no pid: the command did not start (a missing program); the exit line that follows says why
      return e.pid === null
        ? `starting ${(e.command ?? []).join(' ')}; recording to ${e.record}`
        : `started ${(e.command ?? []).join(' ')} (pid ${e.pid}); recording to ${e.record}`
    case 'worktree':
      return `watching worktree ${e.path} (${e.source === 'flag' ? '--worktree' : e.source === 'output' ? 'named in the output' : 'current directory'})`
    case 'artifact':
      return `recorded ${e.path}${e.version > 1 ? ` (version ${e.version})` : ''}${e.invalid ? `: still invalid, ${e.invalid}` : ''}`
    case 'removed':
      return `removed ${e.path} (moved or deleted in the worktree)`
    case 'skipped':
      return `not recorded ${e.path}: ${e.message}`
    case 'gap':
      return `gap ${e.path}: ${e.message}`
    case 'turn':
      return `${e.taskId} turn ${e.turn}: ${e.decision}${e.criteriaMet === null ? '' : ` (${e.criteriaMet}/${e.criteriaTotal ?? '?'} criteria)`}`
    case 'outcome':
      return `${e.taskId}: ${e.outcome}${e.turns === null ? '' : ` after ${e.turns} turn${e.turns === 1 ? '' : 's'}`}`
    case 'warning':
      return `WARNING ${e.code} ${e.taskId} turn ${e.turn ?? '?'}: ${e.message}`
    case 'notice':
      return e.message
    case 'stopping':
      return `stopping the build: ${e.reason}`
    case 'exit':
      return `exited: ${e.detail}`
    case 'recording':
      return `recording written to ${e.path}: ${e.files} files, ${e.versions} earlier versions, ${e.gaps} gaps (guardkit-replay ${e.path})`
    case 'report':
      return null
  }
}
