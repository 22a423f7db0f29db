import {z} from 'zod'
import {pyJsonLoads} from '../logic/python/json-loads.js'

/** One oracle vector (docs/guardkit-logic.md §12 "Oracle vectors"). Unknown fields are kept. */
export const VectorSchema = z.looseObject({
  fn: z.string(),
  version: z.string(),
  input: z.unknown(),
  output: z.unknown(),
  source: z.string().optional(),
  commit: z.string().optional(),
  note: z.string().optional(),
})

export type Vector = z.infer<typeof VectorSchema>

export type ParsedVectorLine =
  | {kind: 'vector'; line: number; vector: Vector}
  | {kind: 'invalid'; line: number; message: string}

/** Parse JSONL text; blank lines are skipped, bad lines reported with their number. */
export function parseVectorLines(text: string): ParsedVectorLine[] {
  const out: ParsedVectorLine[] = []
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.trim()
    if (!raw) continue
    // Python's reader: a vector's `1.0` reaches the model as a float (src/logic/python/json-numbers.ts).
    const loaded = pyJsonLoads(raw)
    if (!loaded.ok) {
      out.push({kind: 'invalid', line: i + 1, message: `not JSON: ${loaded.error.text}`})
      continue
    }
    const json = loaded.value
    const parsed = VectorSchema.safeParse(json)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!
      out.push({kind: 'invalid', line: i + 1, message: `not a vector: /${issue.path.join('/')} ${issue.message}`})
      continue
    }
    out.push({kind: 'vector', line: i + 1, vector: parsed.data})
  }
  return out
}
