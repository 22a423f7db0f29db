import {z} from 'zod'
import {CompletionPromiseSchema, NullableBool, PyInt, Str, StrList} from './common.schema.js'

/** player_turn_N.json, January 2026 baseline: no promises (docs/record-formats.md §4.3). Direct mode adds implementation_mode and success. */
export const PlayerTurnV1Schema = z.looseObject({
  task_id: Str,
  turn: PyInt,
  files_modified: StrList.optional(),
  files_created: StrList.optional(),
  tests_written: StrList.optional(),
  tests_run: z.boolean().optional(),
  tests_passed: NullableBool.optional(),
  test_output_summary: Str.nullable().optional(),
  implementation_notes: Str.nullable().optional(),
  concerns: StrList.optional(),
  requirements_addressed: StrList.optional(),
  requirements_remaining: StrList.optional(),
  tests_passed_count: PyInt.nullable().optional(),
  implementation_mode: Str.optional(),
  success: z.boolean().optional(),
  error: Str.nullable().optional(),
  _synthetic: z.boolean().optional(),
})
export type RawPlayerTurnV1 = z.infer<typeof PlayerTurnV1Schema>

/** From 2026-02-01: agent-written `completion_promises[]`. */
export const PlayerTurnV2Schema = PlayerTurnV1Schema.extend({
  completion_promises: z.array(CompletionPromiseSchema),
})
export type RawPlayerTurnV2 = z.infer<typeof PlayerTurnV2Schema>

/** From 2026-03-01: SDK turn accounting (`sdk_turns_used`, `sdk_max_turns`, `sdk_ceiling_hit`); June adds `files_authored`. */
export const PlayerTurnV3Schema = PlayerTurnV1Schema.extend({
  completion_promises: z.array(CompletionPromiseSchema).optional(),
  sdk_turns_used: PyInt.nullable().optional(),
  sdk_max_turns: PyInt.nullable().optional(),
  sdk_ceiling_hit: NullableBool.optional(),
  files_authored: StrList.optional(),
})
export type RawPlayerTurnV3 = z.infer<typeof PlayerTurnV3Schema>
