import {z} from 'zod'
import {AnyObject, NullableBool, PyInt, PyNumber, Str, StrList} from './common.schema.js'

const Issue = z.looseObject({
  severity: Str.optional(),
  category: Str.optional(),
  description: Str.optional(),
  missing_criteria: StrList.optional(),
  details: AnyObject.optional(),
  type: Str.optional(),
  requirement: Str.optional(),
  suggestion: Str.optional(),
})

const Verification = z.looseObject({
  criterion_id: Str,
  criterion_text: Str.optional(),
  result: Str,
  status: Str.optional(),
  evidence: Str.nullable().optional(),
  notes: Str.nullable().optional(),
})

const Requirements = z.looseObject({
  criteria_total: PyInt.optional(),
  criteria_met: PyInt.optional(),
  all_criteria_met: z.boolean().optional(),
  missing: StrList.optional(),
})

const QualityGates = z.looseObject({
  tests_passed: NullableBool.optional(),
  coverage_met: NullableBool.optional(),
  arch_review_passed: NullableBool.optional(),
  plan_audit_passed: NullableBool.optional(),
  all_gates_passed: NullableBool.optional(),
})

const IndependentTests = z.looseObject({
  tests_passed: z.boolean().optional(),
  test_command: Str.nullable().optional(),
  test_output_summary: Str.nullable().optional(),
  duration_seconds: PyNumber.nullable().optional(),
})

/** coach_turn_N.json V1, January 2026: `validation_results.{quality_gates,independent_tests,requirements}`, issues, rationale. */
export const CoachTurnV1Schema = z.looseObject({
  task_id: Str,
  turn: PyInt,
  decision: Str,
  validation_results: z.looseObject({
    quality_gates: QualityGates.nullable().optional(),
    independent_tests: IndependentTests.nullable().optional(),
    requirements: Requirements.nullable().optional(),
  }).optional(),
  issues: z.array(Issue).optional(),
  rationale: Str.nullable().optional(),
})
export type RawCoachTurnV1 = z.infer<typeof CoachTurnV1Schema>

/** V2, from 2026-02-16: per-criterion `criteria_verification[]` (twice), `context_used`; later `approved_without_independent_tests`, `is_configuration_error`. */
export const CoachTurnV2Schema = CoachTurnV1Schema.extend({
  criteria_verification: z.array(Verification),
  acceptance_criteria_verification: z.looseObject({criteria_results: z.array(Verification).optional()}).optional(),
  context_used: z.unknown().optional(),
  approved_without_independent_tests: z.boolean().optional(),
  is_configuration_error: z.boolean().optional(),
})
export type RawCoachTurnV2 = z.infer<typeof CoachTurnV2Schema>

/** V3, from 2026-06-08: the orchestrator's synthetic feedback when the LLM Coach emitted no verdict. */
export const CoachTurnV3Schema = CoachTurnV2Schema.extend({
  coach_primary_synthetic_feedback: z.boolean().optional(),
  environment_conditional_approval: z.boolean().optional(),
  honesty_verification: z.unknown().optional(),
})
export type RawCoachTurnV3 = z.infer<typeof CoachTurnV3Schema>

/** V4, from 2026-06-09: the LLM Coach's own verdict (`criteria_verification[].{criterion_id,result,notes}`; flat validation_results, or none). */
export const CoachTurnV4Schema = z.looseObject({
  task_id: Str,
  turn: PyInt,
  decision: Str,
  validation_results: z.looseObject({
    requirements_met: StrList.optional(),
    tests_run: z.boolean().optional(),
    tests_passed: NullableBool.optional(),
    test_command: Str.nullable().optional(),
    test_output_summary: Str.nullable().optional(),
    code_quality: Str.nullable().optional(),
    edge_cases_covered: StrList.optional(),
  }).optional(),
  criteria_verification: z.array(Verification.extend({criterion_text: Str.optional()})).optional(),
  issues: z.array(Issue).optional(),
  rationale: Str.nullable().optional(),
})
export type RawCoachTurnV4 = z.infer<typeof CoachTurnV4Schema>
