import {z} from 'zod'
import {AnyObject, PyInt, Str} from './common.schema.js'

/** coach_feedback_for_turn_N.json: the feedback handed to turn N (from turn N-1). Shape unchanged January–July 2026. */
export const CoachFeedbackV1Schema = z.looseObject({
  turn: PyInt,
  feedback_from_turn: PyInt.optional(),
  feedback_summary: Str.nullable().optional(),
  must_fix: z.array(z.unknown()).optional(),
  should_fix: z.array(z.unknown()).optional(),
  validation_results: AnyObject.nullable().optional(),
  /** The untruncated text of the log's `⚠ Feedback:` line. */
  raw_feedback: Str.nullable().optional(),
})
export type RawCoachFeedbackV1 = z.infer<typeof CoachFeedbackV1Schema>
