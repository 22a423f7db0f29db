import {z} from 'zod'
import {AnyObject, NullableBool, PyInt, Str, StrList} from './common.schema.js'

/** work_state_turn_N.json: the state-recovery snapshot written when the Player failed (January–June 2026). */
export const WorkStateV1Schema = z.looseObject({
  turn_number: PyInt,
  files_modified: StrList.optional(),
  files_created: StrList.optional(),
  tests_written: StrList.optional(),
  tests_passed: NullableBool.optional(),
  test_count: PyInt.nullable().optional(),
  timestamp: Str.optional(),
  /** git_only | player_report */
  detection_method: Str.optional(),
  git_changes: AnyObject.nullable().optional(),
  test_results: AnyObject.nullable().optional(),
  player_report_available: z.boolean().optional(),
})
export type RawWorkStateV1 = z.infer<typeof WorkStateV1Schema>
