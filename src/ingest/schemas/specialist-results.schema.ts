import {z} from 'zod'
import {NullableNumber, PyInt, Str} from './common.schema.js'

const Phase = z.looseObject({
  status: Str.optional(),
  duration_seconds: NullableNumber.optional(),
  error: Str.nullable().optional(),
  tests_run: PyInt.nullable().optional(),
  tests_failed: PyInt.nullable().optional(),
  output_summary: Str.nullable().optional(),
})

/** specialist_results.json (from 2026-06-08): phase 4/5 specialist outcomes. */
export const SpecialistResultsV1Schema = z.looseObject({
  phase_4: Phase.nullable().optional(),
  phase_5: Phase.nullable().optional(),
})
export type RawSpecialistResultsV1 = z.infer<typeof SpecialistResultsV1Schema>
