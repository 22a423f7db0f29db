import {z} from 'zod'

/**
 * Building blocks shared by the artifact schemas. GuardKit writes with Python's `json.dump`, so a
 * float may be NaN or Infinity, and ints are whole numbers.
 */
export const PyNumber = z.custom<number>((v) => typeof v === 'number', {message: 'expected a number'})
export const PyInt = z.int()
export const Str = z.string()
export const StrList = z.array(z.string())
export const NullableStr = z.string().nullable()
export const NullableBool = z.boolean().nullable()
export const NullableNumber = PyNumber.nullable()

/** Any JSON object, unknown fields kept (for nested dicts whose shape we do not rely on). */
export const AnyObject = z.looseObject({})

/** A completion promise as agents and the invoker write it (player_turn, task_work_results). */
export const CompletionPromiseSchema = z.looseObject({
  criterion_id: Str,
  criterion_text: Str.optional(),
  status: Str,
  evidence: Str.optional(),
  test_file: NullableStr.optional(),
  implementation_files: StrList.optional(),
  /** 2026-06-10, synthetic reports: git_analysis | file_existence. */
  evidence_type: Str.optional(),
  confidence: z.union([PyNumber, Str]).optional(),
})
export type RawCompletionPromise = z.infer<typeof CompletionPromiseSchema>
