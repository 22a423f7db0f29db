import {z} from 'zod'
import {AnyObject, NullableBool, NullableNumber, PyInt, Str, StrList} from './common.schema.js'

/** coach_evidence_turn_N.json (run of 2026-06-26): the deterministic evidence bundle given to the LLM Coach. */
export const CoachEvidenceV1Schema = z.looseObject({
  gathering_status: Str.optional(),
  gathering_error: Str.nullable().optional(),
  honesty: AnyObject.nullable().optional(),
  quality_gates: AnyObject.nullable().optional(),
  independent_tests: z.looseObject({
    tests_passed: NullableBool.optional(),
    test_command: Str.nullable().optional(),
    test_output_summary: Str.nullable().optional(),
    duration_seconds: NullableNumber.optional(),
    raw_output: Str.nullable().optional(),
    signal_absent: NullableBool.optional(),
  }).nullable().optional(),
  requirements: z.looseObject({
    criteria_total: PyInt.optional(),
    criteria_met: PyInt.optional(),
    all_criteria_met: z.boolean().optional(),
    missing: StrList.optional(),
    criteria_results: z.array(AnyObject).optional(),
  }).nullable().optional(),
  advisory_issues: z.array(AnyObject).optional(),
  task_type: Str.nullable().optional(),
  profile_name: Str.nullable().optional(),
  independent_test_classification: z.unknown().optional(),
  coverage_details: AnyObject.nullable().optional(),
  plan_audit: AnyObject.nullable().optional(),
  bdd: AnyObject.nullable().optional(),
  arch_review: AnyObject.nullable().optional(),
  tests: AnyObject.nullable().optional(),
  wiring: AnyObject.nullable().optional(),
  mocked_seam: AnyObject.nullable().optional(),
  spec_gap: AnyObject.nullable().optional(),
  runtime_parity: AnyObject.nullable().optional(),
  severity_recommendations: z.array(z.unknown()).optional(),
  evidence_repo_tests: z.array(z.unknown()).optional(),
})
export type RawCoachEvidenceV1 = z.infer<typeof CoachEvidenceV1Schema>
