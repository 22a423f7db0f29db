import {z} from 'zod'
import {AnyObject, NullableNumber, PyInt, Str, StrList} from './common.schema.js'

/** turn_state_turn_N.json (from 2026-04-11): the orchestrator's per-turn summary, `id: TURN-<FEAT>-N`. */
export const TurnStateV1Schema = z.looseObject({
  id: Str.optional(),
  feature_id: Str.nullable().optional(),
  task_id: Str,
  turn_number: PyInt,
  player_summary: Str.nullable().optional(),
  player_decision: Str.nullable().optional(),
  /** approve | feedback | error */
  coach_decision: Str.nullable().optional(),
  coach_feedback: Str.nullable().optional(),
  /** fresh_start | continuing_work */
  mode: Str.nullable().optional(),
  blockers_found: z.array(z.unknown()).optional(),
  progress_summary: Str.nullable().optional(),
  acceptance_criteria_status: AnyObject.nullable().optional(),
  files_modified: StrList.optional(),
  tests_passed: PyInt.nullable().optional(),
  tests_failed: PyInt.nullable().optional(),
  coverage: NullableNumber.optional(),
  arch_score: NullableNumber.optional(),
  started_at: Str.nullable().optional(),
  completed_at: Str.nullable().optional(),
  duration_seconds: NullableNumber.optional(),
  lessons_from_turn: z.array(z.unknown()).optional(),
  what_to_try_next: Str.nullable().optional(),
})
export type RawTurnStateV1 = z.infer<typeof TurnStateV1Schema>
