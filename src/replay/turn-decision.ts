import type {LogRecord} from '../logic/log-sink.js'
import type {JsonObject} from '../logic/orchestrator/index.js'
import type {CoachDecision} from '../model/outcome.js'
import type {CoachDetail, Fidelity, PlayerDetail, ReplayedTurn} from './types.js'
import type {UnknownInput} from './unknown-inputs.js'

/**
 * What one turn's Player and Coach produce under one profile, before the loop sees it: the Coach's
 * decision, counts and feedback, with how they were obtained. Built by decision-from-artifacts.ts
 * (the model re-run on recorded files) or decision-from-log.ts (log records with modelled deviations).
 */
export interface TurnDecision {
  readonly decision: CoachDecision | null
  readonly criteriaMet: number | null
  readonly criteriaTotal: number | null
  readonly feedback: string | null
  readonly feedbackBasis: ReplayedTurn['feedbackBasis']
  readonly feedbackFrom: string | null
  /** The feedback is the recorded one (not rebuilt under this profile): the recorded stall signature applies. */
  readonly feedbackIsRecorded: boolean
  /** The Coach report the loop reads (counts, checkpoint gate): produced, recorded, or synthesised from the log. */
  readonly coachReport: JsonObject | null
  readonly playerReport: JsonObject | null
  readonly playerSuccess: boolean
  /** The checkpoint's tests value when taken from the record rather than from `coachReport`. */
  readonly recordedCheckpoint: boolean | null
  readonly fidelity: Fidelity
  /**
   * False when this profile's decision is a stand-in (the recorded decision where the profile could
   * decide otherwise, or an assumed input): later turns exist only on that assumption.
   */
  readonly decisionCertain: boolean
  readonly assumptions: readonly string[]
  readonly missingInputs: readonly string[]
  readonly logs: readonly LogRecord[]
  readonly player: PlayerDetail
  readonly coach: CoachDetail
  /** Inputs the records lack that this verdict consulted under an enumerated value (the branches run the others). */
  readonly unknowns?: readonly UnknownInput[]
  /**
   * The feedback text is a stand-in whose exact wording the records cannot give (e.g. which criteria a
   * partial set of promises left missing): its signature is not computed, and the stall detector treats
   * it as unlike any other. The reason, in words.
   */
  readonly signatureUnknown?: string
  /**
   * The feedback text is the recorded run's, standing in for this profile's own wording, which the records
   * cannot rebuild: no signature is shown (it would be another profile's), and the stall detector sees the
   * stand-in's equality pattern (same recorded text, same feedback). The reason, in words.
   */
  readonly signatureStandIn?: string
}

/** The weaker of two fidelities. */
export function worse(a: Fidelity, b: Fidelity): Fidelity {
  const rank = {exact: 0, approximate: 1, insufficient: 2} as const
  return rank[a] >= rank[b] ? a : b
}

/** A Coach report with just what the loop reads (docs/guardkit-logic.md §8.1, §8.6): counts and the task-work tests gate. */
export function loopReport(decision: CoachDecision | null, met: number, total: number, testsGate: boolean | null, feedback: string | null): JsonObject {
  const results = [
    ...Array.from({length: met}, (_, i) => ({criterion_id: `AC-${String(i + 1).padStart(3, '0')}`, result: 'verified', status: 'verified', notes: ''})),
    ...Array.from({length: Math.max(0, total - met)}, (_, i) => ({criterion_id: `AC-${String(met + i + 1).padStart(3, '0')}`, result: 'rejected', status: 'rejected', notes: ''})),
  ]
  return {
    decision: decision === 'approve' ? 'approve' : 'feedback',
    validation_results: {quality_gates: testsGate === null ? null : {tests_passed: testsGate}},
    criteria_verification: results,
    acceptance_criteria_verification: {criteria_results: results},
    issues: [],
    rationale: feedback ?? '',
  }
}
