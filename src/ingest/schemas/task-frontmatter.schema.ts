import {z} from 'zod'
import {PyInt, Str} from './common.schema.js'

const AutobuildTurn = z.looseObject({
  turn: PyInt,
  decision: Str.nullable().optional(),
  /** The full feedback text (the log shows a truncated one). */
  feedback: Str.nullable().optional(),
  timestamp: Str.nullable().optional(),
  player_summary: Str.nullable().optional(),
  player_success: z.boolean().nullable().optional(),
  coach_success: z.boolean().nullable().optional(),
})

/**
 * YAML frontmatter of `tasks/**\/TASK-*.md` (docs/record-formats.md §4.4). GuardKit reads `complexity` with
 * int() and `acceptance_criteria` as list or string, so those stay untyped here: the model
 * reproduces what GuardKit does with odd values.
 */
export const TaskFrontmatterV1Schema = z.looseObject({
  id: Str.optional(),
  title: Str.nullable().optional(),
  task_type: Str.nullable().optional(),
  feature_id: Str.nullable().optional(),
  implementation_mode: z.unknown().optional(),
  complexity: z.unknown().optional(),
  acceptance_criteria: z.unknown().optional(),
  autobuild_state: z.looseObject({
    current_turn: PyInt.nullable().optional(),
    max_turns: PyInt.nullable().optional(),
    worktree_path: Str.nullable().optional(),
    turns: z.array(AutobuildTurn).nullable().optional(),
  }).nullable().optional(),
})
export type RawTaskFrontmatterV1 = z.infer<typeof TaskFrontmatterV1Schema>
