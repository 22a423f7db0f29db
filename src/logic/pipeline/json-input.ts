import {isPyDict} from '../python/builtins.js'
import {pyJsonLoads} from '../python/json-loads.js'
import {pyLen} from '../python/strings.js'

/**
 * A JSON file GuardKit reads back from the worktree, as the records hold it: already parsed, or
 * raw text (which may not be JSON at all, as an agent-written report can be). `null`/`undefined`
 * mean the file does not exist.
 */
export type JsonFileInput = unknown

export type JsonFileRead =
  | {readonly kind: 'absent'}
  | {readonly kind: 'invalid'; readonly text: string; readonly error: string}
  | {readonly kind: 'value'; readonly value: unknown}

/** `json.load(open(path))` on a recorded file. */
export function readJsonFile(input: JsonFileInput): JsonFileRead {
  if (input === null || input === undefined) return {kind: 'absent'}
  if (typeof input !== 'string') return {kind: 'value', value: input}
  const parsed = pyJsonLoads(input)
  return parsed.ok ? {kind: 'value', value: parsed.value} : {kind: 'invalid', text: input, error: parsed.error.text}
}

/** The file's top-level dict, or null when it is absent, not JSON, or not an object. */
export function jsonDict(read: JsonFileRead): Record<string, unknown> | null {
  return read.kind === 'value' && isPyDict(read.value) ? read.value : null
}

/** `len(x)` of a JSON value GuardKit expects to be a list (None counts as empty here). */
export function jsonLen(value: unknown): number {
  if (Array.isArray(value)) return value.length
  if (typeof value === 'string') return pyLen(value)
  if (isPyDict(value)) return Object.keys(value).length
  return 0
}

/** `d.get(key, fallback)` on a dict. */
export function dictGet(d: Readonly<Record<string, unknown>>, key: string, fallback: unknown): unknown {
  return Object.prototype.hasOwnProperty.call(d, key) ? d[key] : fallback
}
