import {z} from 'zod'
import {AnyObject, PyInt, Str, StrList} from './common.schema.js'

const FeatureTask = z.looseObject({
  id: Str,
  name: Str.nullable().optional(),
  file_path: Str.nullable().optional(),
  complexity: z.unknown().optional(),
  dependencies: StrList.nullable().optional(),
  status: Str.nullable().optional(),
  implementation_mode: Str.nullable().optional(),
  task_type: Str.nullable().optional(),
  /** GuardKit's FeatureOrchestrator result; `final_decision` uses the log's vocabulary. Often stale (docs/record-formats.md §6.8). */
  result: z.looseObject({
    total_turns: PyInt.nullable().optional(),
    final_decision: Str.nullable().optional(),
    error: Str.nullable().optional(),
  }).nullable().optional(),
  turns_completed: PyInt.nullable().optional(),
  current_turn: PyInt.nullable().optional(),
})

/** `.guardkit/features/FEAT-*.yaml`, January 2026 (docs/record-formats.md §4.4). */
export const FeatureYamlV1Schema = z.looseObject({
  id: Str,
  name: Str.nullable().optional(),
  description: Str.nullable().optional(),
  status: Str.nullable().optional(),
  tasks: z.array(FeatureTask),
  orchestration: z.looseObject({parallel_groups: z.array(StrList).optional()}).nullable().optional(),
  execution: AnyObject.nullable().optional(),
})
export type RawFeatureYamlV1 = z.infer<typeof FeatureYamlV1Schema>

/** From June 2026: `smoke_gates`, `bootstrap_extras`, `preflight_strict`, `evidence_repos`. */
export const FeatureYamlV2Schema = FeatureYamlV1Schema.extend({
  smoke_gates: AnyObject.nullable().optional(),
  bootstrap_extras: StrList.nullable().optional(),
  preflight_strict: z.boolean().nullable().optional(),
  evidence_repos: z.array(z.unknown()).nullable().optional(),
})
export type RawFeatureYamlV2 = z.infer<typeof FeatureYamlV2Schema>
