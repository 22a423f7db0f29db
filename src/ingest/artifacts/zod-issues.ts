import type {ZodError} from 'zod'
import {pyHead, pyLen} from '../../logic/python/strings.js'
import type {IngestIssue} from '../../model/ingest-issue.js'
import {atPointer, toPointer} from './json-pointer.js'

const MAX_SHAPE_ISSUES = 20

/**
 * zod's issues as plain ingest issues: a JSON pointer to the offending value, what was expected
 * and what was found. A wrong type is a warning: the raw JSON is still kept for the model.
 */
export function shapeIssues(file: string, json: unknown, error: ZodError, what: string): IngestIssue[] {
  const out: IngestIssue[] = []
  for (const issue of error.issues.slice(0, MAX_SHAPE_ISSUES)) {
    const pointer = toPointer(issue.path)
    const found = atPointer(json, pointer)
    const field = issue.path.length > 0 ? String(issue.path[issue.path.length - 1]) : null
    let message: string
    if (issue.code === 'invalid_type' && found === undefined && field !== null) {
      message = `${what}: required field "${field}" is missing (expected ${issue.expected})`
    } else if (issue.code === 'invalid_type') {
      message = `${what}: expected ${issue.expected}, found ${describeValue(found)}`
    } else {
      message = `${what}: ${issue.message}, found ${describeValue(found)}`
    }
    out.push({file, pointer, code: 'json-shape', severity: 'warning', message})
  }
  if (error.issues.length > MAX_SHAPE_ISSUES) {
    out.push({file, code: 'json-shape', severity: 'warning', message: `${what}: ${error.issues.length - MAX_SHAPE_ISSUES} more shape problems not listed`})
  }
  return out
}

export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (value === null) return 'null'
  if (Array.isArray(value)) return `an array of ${value.length}`
  if (typeof value === 'object') return 'an object'
  if (typeof value === 'string') return `the string ${JSON.stringify(pyLen(value) > 40 ? pyHead(value, 40) + '…' : value)}`
  return `${typeof value} ${String(value)}`
}
