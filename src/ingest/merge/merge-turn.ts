import type {Evidence, Fact} from '../../model/evidence.js'
import type {IngestIssue} from '../../model/ingest-issue.js'
import type {CoachTurn, FeedbackRecord, PlayerTurn, TurnRecord} from '../../model/run-record.js'
import {pySplitWhitespace} from '../../logic/python/strings.js'
import {sameCommit} from './pair-attempts.js'

type Conflict = (message: string, evidence: readonly Evidence[]) => void

/**
 * One turn recorded by both the log and the artifacts → one TurnRecord, field by field after the
 * precedence rules of docs/ingest.md. When both hold a value: if they agree, the value carries
 * both pieces of evidence; if they disagree, the winner is kept and the disagreement is reported.
 */
export function mergeTurn(taskId: string, log: TurnRecord, art: TurnRecord, issues: IngestIssue[]): TurnRecord {
  const conflict: Conflict = (message, evidence) => {
    const first = evidence.find((e) => e.pointer !== undefined) ?? evidence[0]
    issues.push({file: first?.file ?? '', ...(first?.line === undefined ? {} : {line: first.line}), ...(first?.pointer === undefined ? {} : {pointer: first.pointer}),
      code: 'conflict', severity: 'warning', message: `${taskId} turn ${log.turn}: ${message}`})
  }
  return {
    turn: log.turn,
    player: mergePlayer(log.player, art.player),
    coach: mergeCoach(log.coach, art.coach, conflict),
    stateRecovery: prefer(log.stateRecovery, art.stateRecovery),
    checkpoint: mergeCheckpoint(log.checkpoint, art.checkpoint, conflict),
    perspectiveReset: log.perspectiveReset,
    startedAt: log.startedAt,
    endedAt: log.endedAt,
    artifacts: art.artifacts,
  }
}

function mergePlayer(log: PlayerTurn, art: PlayerTurn): PlayerTurn {
  return {
    // the log saw the invocation; the artifacts only what was written
    status: prefer(log.status, art.status),
    error: prefer(log.error, art.error),
    filesCreated: prefer(log.filesCreated, art.filesCreated),
    filesModified: prefer(log.filesModified, art.filesModified),
    toolInputKeys: log.toolInputKeys,
    reportSource: prefer(log.reportSource, art.reportSource),
    promisesRecovered: log.promisesRecovered,
    sdkTurns: prefer(log.sdkTurns, art.sdkTurns),
    testsReported: log.testsReported ?? null,
  }
}

function mergeCoach(log: CoachTurn, art: CoachTurn, conflict: Conflict): CoachTurn {
  return {
    // GuardKit's own report is the decision; the log only echoes it
    decision: winner(art.decision, log.decision, 'the Coach decision', conflict),
    // the Criteria Progress line is what GuardKit printed (and the contract reports)
    criteriaMet: winner(log.criteriaMet, art.criteriaMet, 'the number of verified criteria', conflict),
    criteriaTotal: prefer(log.criteriaTotal, art.criteriaTotal),
    verified: winner(log.verified, art.verified, 'the number of verified criteria', null),
    rejected: winner(log.rejected, art.rejected, 'the number of rejected criteria', conflict),
    pending: prefer(log.pending, art.pending),
    feedback: mergeFeedback(log.feedback, art.feedback, conflict),
    gates: prefer(art.gates, log.gates),
    testCommand: prefer(art.testCommand, log.testCommand),
    independentTests: prefer(art.independentTests, log.independentTests),
    // GuardKit's classification of a failed test run is logged only (D23)
    ...(log.testFailureClass == null ? {} : {testFailureClass: log.testFailureClass}),
    diagnosticDump: log.diagnosticDump,
    missingCriteria: prefer(art.missingCriteria, log.missingCriteria),
    issueCategories: prefer(art.issueCategories, log.issueCategories),
    zeroTestAnomaly: prefer(log.zeroTestAnomaly?.value ? log.zeroTestAnomaly : null, art.zeroTestAnomaly, log.zeroTestAnomaly),
    // the Coach's own failure is logged only (its report, when it wrote one, is a synthetic stand-in)
    ...(log.error == null ? {} : {error: log.error}),
  }
}

/**
 * The full feedback text of the artifacts wins over the log's truncated one; the log's text must
 * be where the full one starts (the progress line cuts it, and may end it with `...`).
 */
function mergeFeedback(log: FeedbackRecord | null, art: FeedbackRecord | null, conflict: Conflict): FeedbackRecord | null {
  if (!art) return log
  if (!log) return art
  const shown = squash(log.text.replace(/(?:\.\.\.|…)$/, ''))
  const full = squash(art.text)
  if (!full.startsWith(shown) && !shown.startsWith(full)) {
    conflict('the log shows feedback that is not the start of the artifacts\' full text', [...art.evidence, ...log.evidence])
    return art
  }
  return {...art, evidence: [...art.evidence, ...log.evidence]}
}

/**
 * Whitespace runs as one space and bullet marks dropped: the log wraps and indents what the JSON
 * holds with newlines, and June 2026 displays drop the leading `- ` of the feedback.
 */
function squash(s: string): string {
  return pySplitWhitespace(s).filter((w) => w !== '-' && w !== '•').join(' ')
}

function mergeCheckpoint(log: TurnRecord['checkpoint'], art: TurnRecord['checkpoint'], conflict: Conflict): TurnRecord['checkpoint'] {
  if (!log || !art) return art ?? log
  const a = art.value.hash
  const l = log.value.hash
  if (a && l && !sameCommit(a, l)) {
    conflict(`the log's checkpoint ${l} is not checkpoints.json's ${a.slice(0, 12)}`, [...art.evidence, ...log.evidence])
    return art
  }
  return {value: {hash: a ?? l, testsPassed: art.value.testsPassed ?? log.value.testsPassed, testCount: art.value.testCount ?? log.value.testCount}, evidence: [...art.evidence, ...log.evidence]}
}

/** The first non-null fact; equal values from later sources add their evidence. */
export function prefer<T>(...facts: (Fact<T> | null | undefined)[]): Fact<T> | null {
  const present = facts.filter((f): f is Fact<T> => f !== null && f !== undefined)
  const first = present[0]
  if (!first) return null
  const agreeing = present.slice(1).filter((f) => sameValue(f.value, first.value) && f !== first)
  return agreeing.length === 0 ? first : {value: first.value, evidence: [...first.evidence, ...agreeing.flatMap((f) => f.evidence)]}
}

/** `primary` wins over `secondary`; a different value is reported (unless `conflict` is null). */
function winner<T>(primary: Fact<T> | null, secondary: Fact<T> | null, what: string, conflict: Conflict | null): Fact<T> | null {
  if (primary && secondary && !sameValue(primary.value, secondary.value)) {
    conflict?.(`${what} differs: ${JSON.stringify(primary.value)} (kept) vs ${JSON.stringify(secondary.value)}`, [...primary.evidence, ...secondary.evidence])
    return primary
  }
  return prefer(primary, secondary)
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}
