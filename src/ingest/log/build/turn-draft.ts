import type {Evidence, Fact} from '../../../model/evidence.js'
import type {CoachDecision} from '../../../model/outcome.js'
import type {
  Checkpoint,
  DiagnosticDump,
  FeedbackRecord,
  PlayerTurn,
  QualityGates,
  StateRecovery,
  TurnRecord,
} from '../../../model/run-record.js'
import {pyHead} from '../../../logic/python/strings.js'
import {type Candidate, toFact} from './candidate.js'
import {keep} from './keep.js'
import {parsePyStrList} from '../grammar/text.js'

/** Everything the log says about one turn, gathered as records arrive. */
export interface TurnDraft {
  readonly turn: number
  playerStatus: Candidate<'success' | 'error' | 'feedback'> | null
  playerError: Fact<string> | null
  filesCreated: Fact<number> | null
  filesModified: Fact<number> | null
  testsReported: Fact<{count: number; passing: boolean}> | null
  toolKeys: (readonly string[])[]
  toolKeysEvidence: Evidence[]
  reportSource: Candidate<NonNullable<PlayerTurn['reportSource']>['value']> | null
  promisesRecovered: Fact<number> | null
  sdkTurns: Fact<{used: number; max: number | null; ceilingHit: boolean | null}> | null
  sdkMaxTurns: number | null
  decision: Candidate<CoachDecision> | null
  coachError: Fact<string> | null
  criteriaMet: Fact<number> | null
  criteriaTotal: Fact<number> | null
  verified: Fact<number> | null
  rejected: Fact<number> | null
  pending: Fact<number> | null
  feedback: Candidate<FeedbackRecord> | null
  gates: Fact<QualityGates> | null
  testCommand: Fact<string> | null
  testVia: Fact<string> | null
  independentTests: Fact<{passed: boolean; durationSeconds: number | null; skipped?: boolean}> | null
  testFailureClass: Fact<{classification: string; confidence: string | null}> | null
  dump: {value: MutableDump; evidence: Evidence[]} | null
  missingCriteria: Fact<readonly string[]> | null
  zeroTestAnomaly: Fact<boolean> | null
  stateRecovery: {value: StateRecovery; evidence: Evidence[]} | null
  checkpoint: {value: Checkpoint; evidence: Evidence[]} | null
  perspectiveReset: Fact<boolean> | null
  startedAt: string | null
  endedAt: string | null
  /** The turn produced any Player or Coach result (turns with neither are left out of the recorded turns). */
  hasResult: boolean
}

export interface MutableDump {
  met: number
  total: number
  criteria: string[]
  requirementsMet: string
  completionPromises: string
  matchingStrategy: string
  synthetic: boolean | null
  lines: string[]
}

export const MAX_TOOL_CALLS_PER_TURN = 1000

/** Turns read from a log have no artifacts yet (the artifact merge replaces this); one shared value. */
const NO_ARTIFACTS: TurnRecord['artifacts'] = Object.freeze({
  playerReport: Object.freeze([]), coachReport: null, taskWorkResults: Object.freeze([]), feedbackFile: null, workState: null, coachEvidence: null, turnState: null,
})

export function newTurn(turn: number): TurnDraft {
  return {
    turn, playerStatus: null, playerError: null, filesCreated: null, filesModified: null, testsReported: null, toolKeys: [], toolKeysEvidence: [], reportSource: null,
    promisesRecovered: null, sdkTurns: null, sdkMaxTurns: null, decision: null, coachError: null, criteriaMet: null, criteriaTotal: null, verified: null, rejected: null,
    pending: null, feedback: null, gates: null, testCommand: null, testVia: null, independentTests: null, testFailureClass: null, dump: null, missingCriteria: null,
    zeroTestAnomaly: null, stateRecovery: null, checkpoint: null, perspectiveReset: null, startedAt: null, endedAt: null, hasResult: false,
  }
}

export function finishTurn(t: TurnDraft): TurnRecord {
  const dump = t.dump === null ? null : {value: freezeDump(t.dump.value), evidence: t.dump.evidence}
  return {
    turn: t.turn,
    player: {
      status: toFact(t.playerStatus),
      error: t.playerError,
      filesCreated: t.filesCreated,
      filesModified: t.filesModified,
      testsReported: t.testsReported,
      toolInputKeys: t.toolKeys.length === 0 ? null : {value: t.toolKeys, evidence: t.toolKeysEvidence},
      reportSource: toFact(t.reportSource),
      promisesRecovered: t.promisesRecovered,
      sdkTurns: t.sdkTurns,
    },
    coach: {
      decision: toFact(t.decision),
      criteriaMet: t.criteriaMet,
      criteriaTotal: t.criteriaTotal,
      verified: t.verified,
      rejected: t.rejected,
      pending: t.pending,
      feedback: t.feedback?.value ?? null,
      gates: t.gates,
      testCommand: t.testCommand,
      testVia: t.testVia,
      independentTests: t.independentTests,
      testFailureClass: t.testFailureClass,
      diagnosticDump: dump,
      missingCriteria: t.missingCriteria,
      issueCategories: null,
      zeroTestAnomaly: t.zeroTestAnomaly,
      ...(t.coachError === null ? {} : {error: t.coachError}),
    },
    stateRecovery: t.stateRecovery,
    checkpoint: t.checkpoint,
    perspectiveReset: t.perspectiveReset,
    startedAt: t.startedAt,
    endedAt: t.endedAt,
    artifacts: NO_ARTIFACTS,
  }
}

function freezeDump(d: MutableDump): DiagnosticDump {
  return {...d, criteria: [...d.criteria], lines: [...d.lines], requirementsMetList: parsePyStrList(d.requirementsMet)}
}

/**
 * `Feedback: {text[:80]}...` (progress line, console, summary table) → the feedback as far as the
 * log shows it. GuardKit cuts at 80 code points and appends `...` only when it cut (docs/guardkit-logic.md §8.2).
 */
export function feedbackFromSummary(summary: string, evidence: Evidence): FeedbackRecord | null {
  const at = summary.indexOf('Feedback: ')
  if (at !== 0) return null
  const body = summary.slice(10)
  // 80 code points and `...` need at least 83 UTF-16 units
  const head = body.length >= 83 ? pyHead(body, 80) : null
  if (head !== null && body.startsWith('...', head.length)) {
    // a copy: the feedback is kept, its line need not be
    return {text: keep(head), completeness: 'truncated', truncatedAt: 80, evidence: [evidence]}
  }
  return {text: body, completeness: 'full', truncatedAt: null, evidence: [evidence]}
}

/** `12 files created, 2 modified, 1 tests (passing)` → counts (callers ask only while a turn has none: the first count wins). */
export function filesOfSummary(summary: string): {created: number; modified: number; tests: {count: number; passing: boolean} | null} | null {
  const m = /^(\d+) files created, (\d+) modified(?:, (\d+) tests \((passing|failing)\))?/.exec(summary)
  return m ? {created: Number(m[1]), modified: Number(m[2]), tests: m[3] === undefined ? null : {count: Number(m[3]), passing: m[4] === 'passing'}} : null
}
