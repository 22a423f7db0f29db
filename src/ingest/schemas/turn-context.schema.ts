import {z} from 'zod'
import {AnyObject, PyInt, Str} from './common.schema.js'

/** turn_context.json (single file, last turn): the turn budget passed to the Player. */
export const TurnContextV1Schema = z.looseObject({
  task_id: Str.optional(),
  turn: PyInt,
  max_turns: PyInt.optional(),
  turns_remaining: PyInt.optional(),
  approaching_limit: z.boolean().optional(),
  escape_hatch_active: z.boolean().optional(),
  instructions: Str.nullable().optional(),
})
export type RawTurnContextV1 = z.infer<typeof TurnContextV1Schema>

/** From 2026-06-08: `promise_schema_reminder`. */
export const TurnContextV2Schema = TurnContextV1Schema.extend({
  promise_schema_reminder: AnyObject,
})
export type RawTurnContextV2 = z.infer<typeof TurnContextV2Schema>
