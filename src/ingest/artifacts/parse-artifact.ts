import type {ZodType} from 'zod'
import type {IngestIssue} from '../../model/ingest-issue.js'
import type {ArtifactVersion} from '../../model/run-record.js'
import {ARRAY_KINDS, ERAS, type ArtifactKind, type Era} from './kinds.js'
import {parsePythonJson, type JsonParse} from './parse-json.js'
import {describeValue, shapeIssues} from './zod-issues.js'

export interface ParsedArtifact {
  /** Null when nothing usable could be read (invalid JSON, wrong top-level type). */
  readonly version: ArtifactVersion | null
  readonly issues: readonly IngestIssue[]
}

/**
 * One artifact file's text → its raw JSON, tagged with the era its markers name. Invalid JSON is
 * an error with line and column; a shape the era does not allow is a warning with a JSON pointer,
 * and the JSON is still kept (the model reads GuardKit's own dicts, as GuardKit would).
 */
export function parseArtifact(file: string, text: string, kind: ArtifactKind | null, seenAt: string | null = null): ParsedArtifact {
  const parsed = parsePythonJson(text)
  if (!parsed.ok) return {version: null, issues: [jsonSyntaxIssue(file, parsed)]}
  const json = parsed.value
  if (kind === null) {
    return {version: {file, json, schema: 'unknown', seenAt},
      issues: [{file, code: 'unknown-kind', severity: 'info', message: 'a JSON file of a kind GuardKit is not known to write: kept as is, not interpreted'}]}
  }
  const wantArray = ARRAY_KINDS.has(kind)
  if (wantArray !== Array.isArray(json) || (!wantArray && (json === null || typeof json !== 'object'))) {
    return {version: null, issues: [{file, pointer: '', code: 'json-shape', severity: 'error',
      message: `${kind}: expected a JSON ${wantArray ? 'array' : 'object'} at the top level, found ${describeValue(json)}`}]}
  }
  const era = pickEra(kind, json)
  const issues: IngestIssue[] = []
  const result = era.schema.safeParse(json)
  if (!result.success) issues.push(...shapeIssues(file, json, result.error, era.id))
  if (!wantArray) {
    const unknown = unknownFields(kind, json as Record<string, unknown>)
    if (unknown.length > 0) {
      issues.push({file, code: 'unknown-era', severity: 'info',
        message: `${kind}: fields no known era has (${unknown.join(', ')}): read as ${era.id}, the new fields are kept but not interpreted`})
    }
  }
  return {version: {file, json, schema: era.id, seenAt}, issues}
}

function pickEra(kind: ArtifactKind, json: unknown): Era {
  const eras = ERAS[kind]
  if (Array.isArray(json)) return eras[eras.length - 1]!
  return eras.find((era) => era.detect(json as Record<string, unknown>)) ?? eras[eras.length - 1]!
}

const knownKeysCache = new Map<ArtifactKind, ReadonlySet<string> | null>()

/** Top-level keys that no era of the kind declares (null: the kind declares none, so nothing is unknown). */
function unknownFields(kind: ArtifactKind, json: Record<string, unknown>): string[] {
  if (!knownKeysCache.has(kind)) {
    const keys = new Set<string>()
    for (const era of ERAS[kind]) for (const key of Object.keys(shapeOf(era.schema))) keys.add(key)
    knownKeysCache.set(kind, keys.size > 0 ? keys : null)
  }
  const known = knownKeysCache.get(kind)
  if (!known) return []
  return Object.keys(json).filter((k) => !known.has(k))
}

function shapeOf(schema: ZodType): Record<string, unknown> {
  const shape = (schema as {shape?: unknown}).shape
  return shape !== null && typeof shape === 'object' ? (shape as Record<string, unknown>) : {}
}

/** Invalid JSON as an issue: where (line, column) and what; an early end reads as a truncated file. */
export function jsonSyntaxIssue(file: string, failure: Extract<JsonParse, {ok: false}>): IngestIssue {
  return failure.atEnd
    ? {file, line: failure.line, code: 'truncated', severity: 'error',
      message: `the JSON ends early at line ${failure.line}, column ${failure.column} (${failure.message}): the file is truncated or was still being written`}
    : {file, line: failure.line, code: 'json-invalid', severity: 'error',
      message: `invalid JSON at line ${failure.line}, column ${failure.column}: ${failure.message}`}
}
