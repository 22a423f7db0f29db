import type {ZodType} from 'zod'
import {CheckpointsV1Schema, CheckpointsV2Schema, CheckpointsV3Schema} from '../schemas/checkpoints.schema.js'
import {CoachEvidenceV1Schema} from '../schemas/coach-evidence.schema.js'
import {CoachFeedbackV1Schema} from '../schemas/coach-feedback.schema.js'
import {CoachTurnV1Schema, CoachTurnV2Schema, CoachTurnV3Schema, CoachTurnV4Schema} from '../schemas/coach-turn.schema.js'
import {Phase4CheckpointV1Schema, Phase4SummaryV1Schema} from '../schemas/phase-summary.schema.js'
import {PlayerTurnV1Schema, PlayerTurnV2Schema, PlayerTurnV3Schema} from '../schemas/player-turn.schema.js'
import {SpecialistResultsV1Schema} from '../schemas/specialist-results.schema.js'
import {StateTransitionsV1Schema} from '../schemas/state-transitions.schema.js'
import {TaskWorkResultsV1Schema, TaskWorkResultsV2Schema, TaskWorkResultsV3Schema, TaskWorkResultsV4Schema} from '../schemas/task-work-results.schema.js'
import {TurnContextV1Schema, TurnContextV2Schema} from '../schemas/turn-context.schema.js'
import {TurnStateV1Schema} from '../schemas/turn-state.schema.js'
import {WorkStateV1Schema} from '../schemas/work-state.schema.js'
import type {ArtifactKind} from './artifact-names.js'

export type {ArtifactKind} from './artifact-names.js'

export interface Era {
  /** `coach_turn.v2`: what ArtifactVersion.schema records. */
  readonly id: string
  readonly schema: ZodType
  /** First committed file with this shape (docs/record-formats.md §4.2). */
  readonly since: string
  /** Whether a file has this era's markers; eras are tried newest first, the last one matches anything. */
  readonly detect: (json: Record<string, unknown>) => boolean
}

const any = (): boolean => true
const has = (...keys: string[]) => (json: Record<string, unknown>) => keys.some((k) => Object.hasOwn(json, k))

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

function coachV4(json: Record<string, unknown>): boolean {
  const vr = json['validation_results']
  if (isObject(vr)) return ['requirements_met', 'tests_run', 'code_quality', 'edge_cases_covered'].some((k) => Object.hasOwn(vr, k))
  return !Object.hasOwn(json, 'acceptance_criteria_verification') && Object.hasOwn(json, 'criteria_verification')
}

function checkpointsHave(key: string) {
  return (json: Record<string, unknown>) =>
    Array.isArray(json['checkpoints']) && json['checkpoints'].some((c) => isObject(c) && Object.hasOwn(c, key))
}

/** Newest era first. */
export const ERAS: Readonly<Record<ArtifactKind, readonly Era[]>> = {
  player_turn: [
    {id: 'player_turn.v3', schema: PlayerTurnV3Schema, since: '2026-03-01', detect: has('sdk_turns_used', 'sdk_max_turns', 'sdk_ceiling_hit', 'files_authored')},
    {id: 'player_turn.v2', schema: PlayerTurnV2Schema, since: '2026-02-01', detect: has('completion_promises')},
    {id: 'player_turn.v1', schema: PlayerTurnV1Schema, since: '2026-01-27', detect: any},
  ],
  task_work_results: [
    {id: 'task_work_results.v4', schema: TaskWorkResultsV4Schema, since: '2026-06-08', detect: has('files_authored', 'plan_audit', 'task_type', 'unconfirmed_low_confidence_assumptions')},
    {id: 'task_work_results.v3', schema: TaskWorkResultsV3Schema, since: '2026-04-24', detect: has('agent_invocations')},
    {id: 'task_work_results.v2', schema: TaskWorkResultsV2Schema, since: '2026-02-16', detect: has('completion_promises', 'tests_written', 'code_review', 'sdk_turns')},
    {id: 'task_work_results.v1', schema: TaskWorkResultsV1Schema, since: '2026-01-27', detect: any},
  ],
  coach_turn: [
    {id: 'coach_turn.v4', schema: CoachTurnV4Schema, since: '2026-06-09', detect: coachV4},
    {id: 'coach_turn.v3', schema: CoachTurnV3Schema, since: '2026-06-08', detect: has('coach_primary_synthetic_feedback', 'environment_conditional_approval', 'honesty_verification')},
    {id: 'coach_turn.v2', schema: CoachTurnV2Schema, since: '2026-02-16', detect: has('criteria_verification', 'acceptance_criteria_verification')},
    {id: 'coach_turn.v1', schema: CoachTurnV1Schema, since: '2026-01-27', detect: any},
  ],
  coach_feedback_for_turn: [{id: 'coach_feedback_for_turn.v1', schema: CoachFeedbackV1Schema, since: '2026-01-27', detect: any}],
  coach_evidence_turn: [{id: 'coach_evidence_turn.v1', schema: CoachEvidenceV1Schema, since: '2026-07-04', detect: any}],
  work_state_turn: [{id: 'work_state_turn.v1', schema: WorkStateV1Schema, since: '2026-01-27', detect: any}],
  turn_state_turn: [{id: 'turn_state_turn.v1', schema: TurnStateV1Schema, since: '2026-04-11', detect: any}],
  turn_context: [
    {id: 'turn_context.v2', schema: TurnContextV2Schema, since: '2026-06-08', detect: has('promise_schema_reminder')},
    {id: 'turn_context.v1', schema: TurnContextV1Schema, since: '2026-01-27', detect: any},
  ],
  checkpoints: [
    {id: 'checkpoints.v3', schema: CheckpointsV3Schema, since: '2026-06-13', detect: checkpointsHave('evidence_commits')},
    {id: 'checkpoints.v2', schema: CheckpointsV2Schema, since: '2026-06-08', detect: checkpointsHave('from_prior_run')},
    {id: 'checkpoints.v1', schema: CheckpointsV1Schema, since: '2026-01-27', detect: any},
  ],
  specialist_results: [{id: 'specialist_results.v1', schema: SpecialistResultsV1Schema, since: '2026-06-08', detect: any}],
  state_transitions: [{id: 'state_transitions.v1', schema: StateTransitionsV1Schema, since: '2026-06-08', detect: any}],
  phase_4_summary: [{id: 'phase_4_summary.v1', schema: Phase4SummaryV1Schema, since: '2026-06-09', detect: any}],
  phase_4_checkpoint: [{id: 'phase_4_checkpoint.v1', schema: Phase4CheckpointV1Schema, since: '2026-01-28', detect: any}],
}

/** Kinds whose top level is an array rather than an object. */
export const ARRAY_KINDS: ReadonlySet<ArtifactKind> = new Set(['state_transitions'])
