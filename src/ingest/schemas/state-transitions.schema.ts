import {z} from 'zod'
import {Str} from './common.schema.js'

/** state_transitions.json (from 2026-06-08): task-file moves, a JSON array. */
export const StateTransitionsV1Schema = z.array(
  z.looseObject({
    task_id: Str.optional(),
    pre_path: Str.nullable().optional(),
    post_path: Str.nullable().optional(),
    timestamp: Str.optional(),
    kind: Str.optional(),
  }),
)
export type RawStateTransitionsV1 = z.infer<typeof StateTransitionsV1Schema>
