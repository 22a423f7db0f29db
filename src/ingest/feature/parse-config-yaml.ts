import type {IngestIssue} from '../../model/ingest-issue.js'
import {describeValue} from '../artifacts/zod-issues.js'
import {GuardkitConfigV1Schema} from '../schemas/guardkit-config.schema.js'
import {parsePyYaml} from '../../logic/python/py-yaml.js'

export interface ParsedConfig {
  readonly config: Readonly<Record<string, unknown>> | null
  readonly issues: readonly IngestIssue[]
}

/** `.guardkit/config.yaml`: kept raw; nothing in it is relied on yet. */
export function parseGuardkitConfig(file: string, text: string): ParsedConfig {
  const parsed = parsePyYaml(text)
  if (!parsed.ok) {
    return {config: null, issues: [{file, ...(parsed.line === null ? {} : {line: parsed.line}), code: 'yaml-invalid', severity: 'warning',
      message: `invalid YAML${parsed.line === null ? '' : ` at line ${parsed.line}, column ${parsed.column}`}: ${parsed.message}`}]}
  }
  if (parsed.value === null) return {config: {}, issues: []}
  const result = GuardkitConfigV1Schema.safeParse(parsed.value)
  if (!result.success) {
    return {config: null, issues: [{file, pointer: '', code: 'yaml-shape', severity: 'warning', message: `config.yaml must be a mapping, found ${describeValue(parsed.value)}`}]}
  }
  return {config: parsed.value as Record<string, unknown>, issues: []}
}
