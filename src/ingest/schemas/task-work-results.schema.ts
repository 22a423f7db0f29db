import {z} from 'zod'
import {AnyObject, CompletionPromiseSchema, NullableBool, NullableNumber, PyInt, PyNumber, Str, StrList} from './common.schema.js'

const QualityGates = z.looseObject({
  tests_passing: NullableBool.optional(),
  tests_passed: PyInt.nullable().optional(),
  tests_failed: PyInt.nullable().optional(),
  coverage: NullableNumber.optional(),
  coverage_met: NullableBool.optional(),
  all_passed: NullableBool.optional(),
  quality_gates_relaxed: z.boolean().optional(),
})

/** task_work_results.json, January 2026 baseline (docs/record-formats.md §4.3); direct mode adds implementation_mode and success. */
export const TaskWorkResultsV1Schema = z.looseObject({
  task_id: Str,
  timestamp: Str.optional(),
  completed: z.boolean().optional(),
  phases: z.record(z.string(), AnyObject).optional(),
  quality_gates: QualityGates.optional(),
  files_modified: StrList.optional(),
  files_created: StrList.optional(),
  summary: Str.nullable().optional(),
  implementation_mode: Str.optional(),
  success: z.boolean().optional(),
})
export type RawTaskWorkResultsV1 = z.infer<typeof TaskWorkResultsV1Schema>

/** From 2026-02-16: promises and tests_written; `code_review` (until 04-11), `sdk_turns` (03-01), `requirements_*` (04-11). */
export const TaskWorkResultsV2Schema = TaskWorkResultsV1Schema.extend({
  completion_promises: z.array(CompletionPromiseSchema).optional(),
  tests_written: StrList.optional(),
  code_review: AnyObject.optional(),
  sdk_turns: z.looseObject({turns_used: PyInt.nullable().optional(), max_turns: PyInt.nullable().optional(), ceiling_hit: NullableBool.optional()}).optional(),
  requirements_addressed: StrList.optional(),
  requirements_met: StrList.optional(),
  _synthetic: z.boolean().optional(),
})
export type RawTaskWorkResultsV2 = z.infer<typeof TaskWorkResultsV2Schema>

/** From 2026-04-24: `agent_invocations[]` and their validation. */
export const TaskWorkResultsV3Schema = TaskWorkResultsV2Schema.extend({
  agent_invocations: z.array(z.looseObject({phase: Str.optional(), agent: Str.optional(), status: Str.optional(), duration_seconds: PyNumber.optional(), error: Str.nullable().optional()})),
  agent_invocations_validation: z.looseObject({status: Str.optional(), expected_phases: PyInt.optional(), actual_invocations: PyInt.optional(), missing_phases: StrList.optional()}).optional(),
})
export type RawTaskWorkResultsV3 = z.infer<typeof TaskWorkResultsV3Schema>

/** From 2026-06-08: files_authored, plan_audit, task_type, unconfirmed_low_confidence_assumptions. */
export const TaskWorkResultsV4Schema = TaskWorkResultsV3Schema.extend({
  agent_invocations: TaskWorkResultsV3Schema.shape.agent_invocations.optional(),
  files_authored: StrList.optional(),
  plan_audit: AnyObject.nullable().optional(),
  task_type: Str.nullable().optional(),
  unconfirmed_low_confidence_assumptions: AnyObject.nullable().optional(),
})
export type RawTaskWorkResultsV4 = z.infer<typeof TaskWorkResultsV4Schema>
