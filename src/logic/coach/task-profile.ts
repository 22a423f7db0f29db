import type {LogicFlags} from '../changes.js'
import {pyRequireHashable, pyStr} from './py-values.js'

/**
 * Task types and their quality-gate profiles (`guardkit/models/task_types.py`, docs/guardkit-logic.md §6.2). The
 * thresholds are identical in both versions; the profile only gained `seam_tests_recommended`.
 */
export const TASK_TYPES = ['scaffolding', 'feature', 'infrastructure', 'integration', 'documentation', 'testing', 'refactor'] as const
export type TaskType = (typeof TASK_TYPES)[number]

/** `TASK_TYPE_ALIASES`, in declaration order (the error message lists them in this order). */
export const TASK_TYPE_ALIASES: ReadonlyArray<readonly [string, TaskType]> = [
  ['implementation', 'feature'],
  ['bug-fix', 'feature'],
  ['bug_fix', 'feature'],
  ['benchmark', 'testing'],
  ['research', 'documentation'],
]

export interface QualityGateProfile {
  readonly arch_review_required: boolean
  readonly arch_review_threshold: number
  readonly coverage_required: boolean
  readonly coverage_threshold: number
  readonly tests_required: boolean
  readonly plan_audit_required: boolean
  readonly zero_test_blocking: boolean
  /** Only exists from seamTestSoftGate (de1ce9b8) on. */
  readonly seam_tests_recommended: boolean
}

const STRICT = {arch_review_required: true, arch_review_threshold: 60, coverage_required: true, coverage_threshold: 80.0}
const LENIENT = {arch_review_required: false, arch_review_threshold: 0, coverage_required: false, coverage_threshold: 0.0}

const PROFILES: Readonly<Record<TaskType, QualityGateProfile>> = {
  scaffolding: {...LENIENT, tests_required: false, plan_audit_required: true, zero_test_blocking: false, seam_tests_recommended: false},
  feature: {...STRICT, tests_required: true, plan_audit_required: true, zero_test_blocking: true, seam_tests_recommended: true},
  infrastructure: {...LENIENT, tests_required: true, plan_audit_required: true, zero_test_blocking: false, seam_tests_recommended: false},
  integration: {...LENIENT, tests_required: true, plan_audit_required: true, zero_test_blocking: false, seam_tests_recommended: false},
  documentation: {...LENIENT, tests_required: false, plan_audit_required: false, zero_test_blocking: false, seam_tests_recommended: false},
  testing: {...LENIENT, tests_required: false, plan_audit_required: true, zero_test_blocking: false, seam_tests_recommended: false},
  refactor: {...STRICT, tests_required: true, plan_audit_required: true, zero_test_blocking: true, seam_tests_recommended: true},
}

export function getProfile(taskType: TaskType): QualityGateProfile {
  return PROFILES[taskType]
}

export type TaskTypeResolution = {ok: true; taskType: TaskType; profile: QualityGateProfile} | {ok: false; error: string}

/**
 * `CoachValidator._resolve_task_type` + `get_profile` (docs/guardkit-logic.md §6.1 step 0): `None` → feature, then
 * the enum value, then the alias table; anything else is the ValueError GuardKit turns into
 * `invalid_task_type` feedback (a stall every turn). Matching is exact: `Feature` is invalid.
 * A list or dict raises TypeError from the alias lookup (thrown as PyException).
 */
export function resolveTaskProfile(rawTaskType: unknown): TaskTypeResolution {
  if (rawTaskType === null || rawTaskType === undefined) return resolved('feature')
  const asEnum = TASK_TYPES.find((t) => t === rawTaskType)
  if (asEnum) return resolved(asEnum)
  pyRequireHashable(rawTaskType)
  const alias = TASK_TYPE_ALIASES.find(([name]) => name === rawTaskType)
  if (alias) return resolved(alias[1])
  return {ok: false, error: invalidTaskTypeMessage(rawTaskType)}
}

function resolved(taskType: TaskType): TaskTypeResolution {
  return {ok: true, taskType, profile: PROFILES[taskType]}
}

function invalidTaskTypeMessage(raw: unknown): string {
  const values = TASK_TYPES.join(', ')
  const aliases = TASK_TYPE_ALIASES.map(([name]) => name).join(', ')
  return `Invalid task_type value: ${pyStr(raw)}. Must be one of: ${values} or valid alias: ${aliases}`
}

/** The profile as GuardKit's dataclass holds it at the given logic version (field order kept). */
export function profileFields(profile: QualityGateProfile, flags: LogicFlags): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    arch_review_required: profile.arch_review_required,
    arch_review_threshold: profile.arch_review_threshold,
    coverage_required: profile.coverage_required,
    coverage_threshold: profile.coverage_threshold,
    tests_required: profile.tests_required,
    plan_audit_required: profile.plan_audit_required,
    zero_test_blocking: profile.zero_test_blocking,
  }
  // seamTestSoftGate (D34): the profile field arrived with the seam-test soft gate.
  if (flags.seamTestSoftGate) fields.seam_tests_recommended = profile.seam_tests_recommended
  return fields
}
