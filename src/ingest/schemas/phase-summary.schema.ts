import {z} from 'zod'
import {AnyObject, NullableNumber, PyInt, Str} from './common.schema.js'

/** phase_4_summary.json (June 2026): test phase summary. */
export const Phase4SummaryV1Schema = z.looseObject({
  tests_run: PyInt.nullable().optional(),
  tests_failed: PyInt.nullable().optional(),
  coverage_pct: NullableNumber.optional(),
  output_summary: Str.nullable().optional(),
  quality_gates_passed: z.boolean().nullable().optional(),
})
export type RawPhase4SummaryV1 = z.infer<typeof Phase4SummaryV1Schema>

/** phase_4_checkpoint.json (one file, 2026-01-28): a rich test report whose shape is not relied on. */
export const Phase4CheckpointV1Schema = AnyObject
export type RawPhase4CheckpointV1 = z.infer<typeof Phase4CheckpointV1Schema>
