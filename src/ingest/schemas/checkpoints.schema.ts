import {z} from 'zod'
import {AnyObject, NullableBool, PyInt, Str} from './common.schema.js'

const Checkpoint = z.looseObject({
  turn: PyInt,
  /** Full 40-hex id; the log prints its first 8 characters. */
  commit_hash: Str,
  timestamp: Str.optional(),
  tests_passed: NullableBool.optional(),
  test_count: PyInt.nullable().optional(),
  message: Str.optional(),
})

/** checkpoints.json, January 2026: one git checkpoint per turn. */
export const CheckpointsV1Schema = z.looseObject({
  task_id: Str.optional(),
  checkpoints: z.array(Checkpoint),
  last_updated: Str.optional(),
})
export type RawCheckpointsV1 = z.infer<typeof CheckpointsV1Schema>

/** From 2026-06-08: `from_prior_run` per checkpoint. */
export const CheckpointsV2Schema = CheckpointsV1Schema.extend({
  checkpoints: z.array(Checkpoint.extend({from_prior_run: z.boolean().optional()})),
})
export type RawCheckpointsV2 = z.infer<typeof CheckpointsV2Schema>

/** From 2026-06-13: `evidence_commits` per checkpoint. */
export const CheckpointsV3Schema = CheckpointsV1Schema.extend({
  checkpoints: z.array(Checkpoint.extend({from_prior_run: z.boolean().optional(), evidence_commits: AnyObject.nullable().optional()})),
})
export type RawCheckpointsV3 = z.infer<typeof CheckpointsV3Schema>
