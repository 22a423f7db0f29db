import type {Finding} from '../../model/finding.js'
import type {TaskRun} from '../../model/run-record.js'
import {formatReplayOutcome} from '../../replay/types.js'
import type {AnalysisReport, TaskAnalysis} from '../analysis.js'
import {modelledReplay} from '../replay-view.js'

/**
 * `guardkit-replay compare RUN_A RUN_B` ("did my fix change anything?"): two recorded runs of the
 * same feature or task, task by task and turn by turn, from what GuardKit recorded — outcomes,
 * criteria progress, feedback, stall signatures (the run's own era replays them; a logged stall
 * signature wins) — and the findings present in one run and not the other. Plain JSON data: it is
 * the `--json` document too.
 */
export interface CompareReport {
  readonly schemaVersion: 1
  readonly kind: 'guardkit-replay/compare'
  readonly tool: {readonly name: string; readonly version: string}
  readonly a: CompareRun
  readonly b: CompareRun
  readonly pairs: readonly TaskPair[]
  /** Tasks only one run holds (or attempts left over after pairing). */
  readonly onlyInA: readonly TaskRef[]
  readonly onlyInB: readonly TaskRef[]
  readonly summary: {readonly pairs: number; readonly different: number; readonly outcomeChanged: number}
}

export interface CompareRun {
  readonly path: string
  readonly logs: readonly string[]
  readonly featureId: string | null
  /** The GuardKit version that wrote it, as inferred from its records. */
  readonly era: {readonly profile: string | null; readonly window: {readonly from: string | null; readonly to: string | null}; readonly confidence: 'high' | 'medium' | 'low'; readonly modelled: boolean; readonly reason: string
    /** The run's era on the timeline (`June 2026 (LangGraph harness)`), when the records place it. */
    readonly label?: string | null}
  readonly ingestIssues: number
}

export interface TaskRef {
  readonly taskId: string
  readonly attempt: number
  readonly outcome: string | null
  readonly turns: number
}

export interface TaskPair {
  readonly taskId: string
  readonly a: TaskSide
  readonly b: TaskSide
  readonly outcomeChanged: boolean
  /** Anything differs: outcome, a turn, a finding. */
  readonly different: boolean
  readonly turns: readonly CompareTurn[]
  readonly findings: {readonly onlyInA: readonly FindingRef[]; readonly onlyInB: readonly FindingRef[]; readonly both: readonly string[]}
}

export interface TaskSide {
  readonly attempt: number
  readonly outcome: string | null
  /** The turn the outcome came at (the last recorded turn). */
  readonly endTurn: number
  readonly mode: string | null
  readonly stall: {readonly turn: number | null; readonly signature: string | null} | null
  /** What the run's own era profile replays for it (null: no era profile, or not modelled). */
  readonly replayedOutcome: string | null
}

export interface CompareCell {
  readonly decision: string | null
  readonly criteriaMet: number | null
  readonly criteriaTotal: number | null
  readonly feedback: string | null
  readonly feedbackComplete: boolean
  readonly signature: string | null
  /** `recorded`: the log's stall record; `replayed`: the era's replay (exact); `approximate`: the era's replay from partial inputs. */
  readonly signatureSource: 'recorded' | 'replayed' | 'approximate' | null
}

export interface CompareTurn {
  readonly turn: number
  readonly a: CompareCell | null
  readonly b: CompareCell | null
  readonly differs: readonly ('turn' | 'decision' | 'criteria' | 'feedback' | 'signature')[]
}

export interface FindingRef {
  readonly code: string
  readonly severity: string
  readonly turns: readonly number[]
  readonly message: string
}

/** Pairs tasks by id (the latest attempt with the latest), then compares them turn by turn. */
export function compareRuns(a: AnalysisReport, b: AnalysisReport, options: {taskId?: string | null; tool?: {name: string; version: string}} = {}): CompareReport {
  const keep = (t: TaskAnalysis): boolean => options.taskId == null || t.task.taskId === options.taskId
  const tasksA = a.tasks.filter(keep)
  const tasksB = b.tasks.filter(keep)
  const ids = [...new Set([...tasksA, ...tasksB].map((t) => t.task.taskId))]
  const pairs: TaskPair[] = []
  const onlyInA: TaskRef[] = []
  const onlyInB: TaskRef[] = []
  for (const id of ids) {
    const xs = tasksA.filter((t) => t.task.taskId === id).sort((x, y) => x.task.attempt - y.task.attempt)
    const ys = tasksB.filter((t) => t.task.taskId === id).sort((x, y) => x.task.attempt - y.task.attempt)
    const n = Math.min(xs.length, ys.length)
    // the latest with the latest: a re-run after a fix is the one to compare
    const pairedA = xs.slice(xs.length - n)
    const pairedB = ys.slice(ys.length - n)
    onlyInA.push(...xs.slice(0, xs.length - n).map(ref))
    onlyInB.push(...ys.slice(0, ys.length - n).map(ref))
    for (let i = 0; i < n; i++) pairs.push(pairTasks(pairedA[i]!, pairedB[i]!, a, b))
  }
  return {
    schemaVersion: 1,
    kind: 'guardkit-replay/compare',
    tool: options.tool ?? a.tool,
    a: runInfo(a),
    b: runInfo(b),
    pairs,
    onlyInA,
    onlyInB,
    summary: {pairs: pairs.length, different: pairs.filter((p) => p.different).length, outcomeChanged: pairs.filter((p) => p.outcomeChanged).length},
  }
}

function runInfo(r: AnalysisReport): CompareRun {
  const e = r.era
  return {
    path: r.run.path,
    logs: [...r.run.logs],
    featureId: r.feature?.featureId ?? r.run.attempts.find((x) => x.featureId !== null)?.featureId ?? null,
    era: {profile: e.profile, window: {from: e.window.from, to: e.window.to}, confidence: e.confidence, modelled: e.modelled, reason: e.reason,
      label: r.runEra?.label == null ? null : `${r.runEra.label} (${r.runEra.name})`},
    ingestIssues: r.run.ingestIssues.length,
  }
}

function ref(t: TaskAnalysis): TaskRef {
  return {taskId: t.task.taskId, attempt: t.task.attempt, outcome: t.task.outcome?.value ?? null, turns: t.task.turns.length}
}

function pairTasks(x: TaskAnalysis, y: TaskAnalysis, a: AnalysisReport, b: AnalysisReport): TaskPair {
  const cellsA = cells(x, a)
  const cellsB = cells(y, b)
  const numbers = [...new Set([...cellsA.keys(), ...cellsB.keys()])].sort((p, q) => p - q)
  const turns = numbers.map((turn): CompareTurn => {
    const ca = cellsA.get(turn) ?? null
    const cb = cellsB.get(turn) ?? null
    return {turn, a: ca, b: cb, differs: differences(ca, cb)}
  })
  const codesA = new Set(x.findings.map((f) => f.code))
  const codesB = new Set(y.findings.map((f) => f.code))
  const findings = {
    onlyInA: x.findings.filter((f) => !codesB.has(f.code)).map(findingRef),
    onlyInB: y.findings.filter((f) => !codesA.has(f.code)).map(findingRef),
    both: [...new Set(x.findings.filter((f) => codesB.has(f.code)).map((f) => f.code))],
  }
  const sideA = side(x.task, x, a)
  const sideB = side(y.task, y, b)
  const outcomeChanged = sideA.outcome !== sideB.outcome
  return {
    taskId: x.task.taskId,
    a: sideA,
    b: sideB,
    outcomeChanged,
    different: outcomeChanged || turns.some((t) => t.differs.length > 0) || findings.onlyInA.length + findings.onlyInB.length > 0,
    turns,
    findings,
  }
}

function side(task: TaskRun, t: TaskAnalysis, r: AnalysisReport): TaskSide {
  const era = modelledReplay(t.replays, r.era.modelled ? r.era.profile : null)
  return {
    attempt: task.attempt,
    outcome: task.outcome?.value ?? null,
    endTurn: task.turns.at(-1)?.turn ?? 0,
    mode: task.mode?.value ?? null,
    stall: task.stall === null ? null : {turn: task.stall.turn, signature: task.stall.signature},
    replayedOutcome: era ? formatReplayOutcome(era.outcome) : null,
  }
}

/** The recorded turns, with the signature the run's own logic gave each feedback. */
function cells(t: TaskAnalysis, r: AnalysisReport): Map<number, CompareCell> {
  const era = modelledReplay(t.replays, r.era.modelled ? r.era.profile : null)
  const stall = t.task.stall
  return new Map(
    t.task.turns.map((turn): [number, CompareCell] => {
      const replayed = era?.turns.find((u) => u.turn === turn.turn) ?? null
      const logged = stall !== null && stall.turn === turn.turn && stall.signature !== null ? stall.signature : null
      const fb = turn.coach.feedback
      return [turn.turn, {
        decision: turn.coach.decision?.value ?? null,
        criteriaMet: turn.coach.criteriaMet?.value ?? null,
        criteriaTotal: turn.coach.criteriaTotal?.value ?? null,
        feedback: fb?.text ?? null,
        feedbackComplete: fb?.completeness === 'full',
        signature: logged ?? replayed?.signature ?? null,
        signatureSource: logged !== null ? 'recorded' : replayed?.signature ? (replayed.fidelity === 'exact' ? 'replayed' : 'approximate') : null,
      }]
    }),
  )
}

function differences(a: CompareCell | null, b: CompareCell | null): CompareTurn['differs'] {
  if (a === null || b === null) return ['turn']
  const out: CompareTurn['differs'][number][] = []
  if (a.decision !== b.decision) out.push('decision')
  if (a.criteriaMet !== b.criteriaMet || a.criteriaTotal !== b.criteriaTotal) out.push('criteria')
  if (!sameFeedback(a, b)) out.push('feedback')
  if (a.signature !== null && b.signature !== null && a.signature !== b.signature) out.push('signature')
  return out
}

/** Equal texts; where a log holds only an excerpt, the full text must start with it. */
function sameFeedback(a: CompareCell, b: CompareCell): boolean {
  if (a.feedback === null || b.feedback === null) return a.feedback === b.feedback
  if (a.feedbackComplete && b.feedbackComplete) return a.feedback === b.feedback
  return a.feedback.startsWith(b.feedback) || b.feedback.startsWith(a.feedback)
}

function findingRef(f: Finding): FindingRef {
  return {code: f.code, severity: f.severity, turns: [...f.turns], message: f.message}
}
