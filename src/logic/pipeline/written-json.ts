import {pyJsonDumps} from '../python/json-dumps.js'

/**
 * The bytes of a JSON file GuardKit writes (docs/guardkit-logic.md §3.12): `json.dump(value, f, indent=2)` with the
 * defaults (src/logic/python/json-dumps.ts). A float read from JSON keeps its `.0`; a number the model
 * computed prints as an int when integral (`80`, where a Python float prints `80.0`).
 */
export function pyJsonDump(value: unknown, indent = 2): string {
  return pyJsonDumps(value, indent)
}
