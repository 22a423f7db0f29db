import {pyJsonLoads} from '../../logic/python/json-loads.js'

/**
 * JSON as Python's `json.load` reads it (GuardKit wrote these files with `json.dump`): the model's own
 * reader (src/logic/python/json-loads.ts), so that an artifact reaches the replay with its numbers' Python
 * types and a bad file is described with CPython's message, line and column (code points).
 */
export type JsonParse =
  | {readonly ok: true; readonly value: unknown}
  | {readonly ok: false; readonly message: string; readonly line: number; readonly column: number; readonly atEnd: boolean}

export function parsePythonJson(text: string): JsonParse {
  const r = pyJsonLoads(text)
  if (r.ok) return r
  return {ok: false, message: r.error.msg, line: r.error.lineno, column: r.error.colno, atEnd: r.error.atEnd}
}
