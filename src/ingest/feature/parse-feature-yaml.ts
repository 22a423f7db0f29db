import type {IngestIssue} from '../../model/ingest-issue.js'
import type {FeatureRecord} from '../../model/run-record.js'
import {shapeIssues, describeValue} from '../artifacts/zod-issues.js'
import {FeatureYamlV1Schema, FeatureYamlV2Schema} from '../schemas/feature-yaml.schema.js'
import {parsePyYaml} from '../../logic/python/py-yaml.js'

export interface ParsedFeature {
  readonly record: FeatureRecord | null
  /** Task ids the YAML lists, in order. */
  readonly taskIds: readonly string[]
  readonly issues: readonly IngestIssue[]
}

const V2_MARKERS = ['smoke_gates', 'bootstrap_extras', 'preflight_strict', 'evidence_repos']

/** `.guardkit/features/FEAT-*.yaml`: raw YAML kept, era tagged, shape problems reported with JSON pointers. */
export function parseFeatureYaml(file: string, text: string): ParsedFeature {
  const parsed = parsePyYaml(text)
  if (!parsed.ok) {
    return {record: null, taskIds: [], issues: [{file, ...(parsed.line === null ? {} : {line: parsed.line}), code: 'yaml-invalid', severity: 'error',
      message: `invalid YAML${parsed.line === null ? '' : ` at line ${parsed.line}, column ${parsed.column}`}: ${parsed.message}`}]}
  }
  const yaml = parsed.value
  if (yaml === null || typeof yaml !== 'object' || Array.isArray(yaml)) {
    return {record: null, taskIds: [], issues: [{file, pointer: '', code: 'yaml-shape', severity: 'error', message: `a feature file must be a mapping, found ${describeValue(yaml)}`}]}
  }
  const map = yaml as Record<string, unknown>
  const v2 = V2_MARKERS.some((k) => Object.hasOwn(map, k))
  const schema = v2 ? FeatureYamlV2Schema : FeatureYamlV1Schema
  const era = v2 ? 'feature_yaml.v2' : 'feature_yaml.v1'
  const result = schema.safeParse(map)
  const issues = result.success ? [] : shapeIssues(file, map, result.error, era)
  const name = file.split('/').pop() ?? file
  const featureId = typeof map['id'] === 'string' ? map['id'] : name.replace(/\.ya?ml$/, '')
  const tasks = Array.isArray(map['tasks']) ? map['tasks'] : []
  const taskIds = tasks.flatMap((t) => (t !== null && typeof t === 'object' && typeof (t as Record<string, unknown>)['id'] === 'string' ? [(t as Record<string, string>)['id']!] : []))
  return {record: {featureId, yaml, file, schema: era}, taskIds, issues}
}
