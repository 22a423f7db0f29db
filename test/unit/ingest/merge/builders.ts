import type {Fact} from '../../../../src/model/evidence.js'
import type {CoachTurn, FeedbackRecord, PlayerTurn, TaskRun, TurnRecord} from '../../../../src/model/run-record.js'

const LOG = 'run.log'
const at = <T>(value: T, line: number): Fact<T> => ({value, evidence: [{file: LOG, line}]})

export interface LoggedTurn {
  readonly turn: number
  readonly hash?: string
  readonly decision?: 'approve' | 'feedback' | 'error'
  readonly met?: number
  readonly total?: number
  readonly feedback?: string
  readonly player?: 'success' | 'error'
}

const NO_PLAYER: PlayerTurn = {status: null, error: null, filesCreated: null, filesModified: null, toolInputKeys: null, reportSource: null, promisesRecovered: null, sdkTurns: null}
const NO_COACH: CoachTurn = {decision: null, criteriaMet: null, criteriaTotal: null, verified: null, rejected: null, pending: null, feedback: null, gates: null, testCommand: null,
  independentTests: null, diagnosticDump: null, missingCriteria: null, issueCategories: null, zeroTestAnomaly: null}

/** A turn as the log ingest records it (line numbers are made up: 100 × turn + k). */
export function loggedTurn(t: LoggedTurn): TurnRecord {
  const line = t.turn * 100
  const feedback: FeedbackRecord | null = t.feedback === undefined ? null
    : t.feedback.endsWith('...') ? {text: t.feedback.slice(0, -3), completeness: 'truncated', truncatedAt: 80, evidence: [{file: LOG, line: line + 5}]}
      : {text: t.feedback, completeness: 'full', truncatedAt: null, evidence: [{file: LOG, line: line + 5}]}
  return {
    turn: t.turn,
    player: {...NO_PLAYER, status: t.player ? at(t.player, line + 1) : null},
    coach: {...NO_COACH, decision: t.decision ? at(t.decision, line + 2) : null, criteriaMet: t.met === undefined ? null : at(t.met, line + 3),
      verified: t.met === undefined ? null : at(t.met, line + 4), criteriaTotal: t.total === undefined ? null : at(t.total, line + 3), feedback},
    stateRecovery: null,
    checkpoint: t.hash ? at({hash: t.hash, testsPassed: null, testCount: null}, line + 6) : null,
    perspectiveReset: null,
    startedAt: null,
    endedAt: null,
    artifacts: {playerReport: [], coachReport: null, taskWorkResults: [], feedbackFile: null, workState: null, coachEvidence: null, turnState: null},
  }
}

export function loggedTask(taskId: string, attempt: number, turns: readonly LoggedTurn[], outcome: string | null = 'approved'): TaskRun {
  return {
    taskId, attempt, featureId: null, mode: at('task-work', 10), taskType: null, complexity: null, maxTurns: null,
    outcome: outcome === null ? null : at(outcome, 999), turnCount: outcome === null ? null : at(turns.length, 999),
    turns: turns.map(loggedTurn), stall: null, events: [], criteria: null, taskFile: null, artifactDir: null, summary: null,
  }
}
