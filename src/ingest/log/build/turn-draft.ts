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
import {type Candidate, toFact} from './candidate.js'
import {keep} from './keep.js'

/** Everything the log says about one turn, gathered as records arrive. */
export interface TurnDraft {
  readonly turn: number
  playerStatus: Candidate<'success' | 'error' | 'feedback'> | null
  playerError: Fact<string> | null
  filesCreated: Fact<number> | null
  filesModified: Fact<number> | null
  toolKeys: (readonly string[])[]
  toolKeysEvidence: Evidence[]
  reportSource: Candidate<NonNullable<PlayerTurn['reportSource']>['value']> | null
  promisesRecovered: Fact<number> | null
  sdkTurns: Fact<{used: number; max: number | null; ceilingHit: boolean | null}> | null
  sdkMaxTurns: number | null
  decision: Candidate<CoachDecision> | null
  criteriaMet: Fact<number> | null
  criteriaTotal: Fact<number> | null
  verified: Fact<number> | null
  rejected: Fact<number> | null
  pending: Fact<number> | null
  feedback: Candidate<FeedbackRecord> | null
  gates: Fact<QualityGates> | null
  testCommand: Fact<string> | null
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
  /** The turn produced any Player or Coach result (turns with none are left out, expected.json notes). */
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
    turn, playerStatus: null, playerError: null, filesCreated: null, filesModified: null, toolKeys: [], toolKeysEvidence: [], reportSource: null,
    promisesRecovered: null, sdkTurns: null, sdkMaxTurns: null, decision: null, criteriaMet: null, criteriaTotal: null, verified: null, rejected: null,
    pending: null, feedback: null, gates: null, testCommand: null, independentTests: null, testFailureClass: null, dump: null, missingCriteria: null,
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
      independentTests: t.independentTests,
      testFailureClass: t.testFailureClass,
      diagnosticDump: dump,
      missingCriteria: t.missingCriteria,
      issueCategories: null,
      zeroTestAnomaly: t.zeroTestAnomaly,
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
  return {...d, criteria: [...d.criteria], lines: [...d.lines]}
}

/**
 * `Feedback: {text[:80]}...` (progress line, console, summary table) → the feedback as far as the
 * log shows it. GuardKit cuts at 80 code points and appends `...` only when it cut (spec §8.2).
 */
export function feedbackFromSummary(summary: string, evidence: Evidence): FeedbackRecord | null {
  const at = summary.indexOf('Feedback: ')
  if (at !== 0) return null
  const body = summary.slice(10)
  // 80 code points and `...` need at least 83 UTF-16 units
  const cut = body.length >= 83 ? codePointsEnd(body, 80) : -1
  if (cut !== -1 && body.startsWith('...', cut)) {
    // a copy: the feedback is kept, its line need not be
    return {text: keep(body.slice(0, cut)), completeness: 'truncated', truncatedAt: 80, evidence: [evidence]}
  }
  return {text: body, completeness: 'full', truncatedAt: null, evidence: [evidence]}
}

/**
 * The UTF-16 index just past the first `n` code points of `s`, or -1 if it has fewer. A lone
 * surrogate counts as one code point, as in Array.from (walked in place: this runs for every
 * progress line, and Array.from made an array of one-character strings each time).
 */
function codePointsEnd(s: string, n: number): number {
  let i = 0
  for (let count = 0; count < n; count++) {
    if (i >= s.length) return -1
    const c = s.charCodeAt(i)
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1
  }
  return i
}

/** `12 files created, 2 modified, 1 tests (passing)` → counts (callers ask only while a turn has none: the first count wins). */
export function filesOfSummary(summary: string): {created: number; modified: number} | null {
  const m = /^(\d+) files created, (\d+) modified/.exec(summary)
  return m ? {created: Number(m[1]), modified: Number(m[2])} : null
}
