import type {IngestIssue} from '../../model/ingest-issue.js'
import type {EventLogEntry, EventLogRecord} from '../../model/run-record.js'
import {parsePythonJson} from './parse-json.js'

/**
 * `feature-events.jsonl` / `events.jsonl` (June 2026, docs/ingest.md "Event logs"): one JSON object
 * per line, written as the run goes — a row per Player run of a task (`agent_role: player`, its
 * `attempt`, a `failure_category` when it failed) and a row per wave (`agent_role: router`: workers,
 * queue depth, tasks completed and failed). Rows are kept as written (unknown fields too); a line
 * that is not a JSON object is an issue with its line, and the rest is read.
 */
export function parseEventLog(file: string, text: string): {record: EventLogRecord; issues: IngestIssue[]} {
  const issues: IngestIssue[] = []
  const entries: EventLogEntry[] = []
  const lines = text.split('\n')
  for (const [i, raw] of lines.entries()) {
    const line = raw.replace(/\r$/, '')
    if (/^\s*$/.test(line)) continue
    const parsed = parsePythonJson(line)
    if (!parsed.ok) {
      issues.push({file, line: i + 1, code: 'json-invalid', severity: 'warning', message: `not a JSON object: ${parsed.message} (column ${parsed.column}); the line is skipped`})
      continue
    }
    const row = parsed.value
    if (row === null || typeof row !== 'object' || Array.isArray(row)) {
      issues.push({file, line: i + 1, code: 'json-shape', severity: 'warning', message: 'expected one JSON object per line; the line is skipped'})
      continue
    }
    const o = row as Record<string, unknown>
    entries.push({
      line: i + 1,
      runId: str(o.run_id),
      featureId: str(o.feature_id),
      taskId: str(o.task_id),
      role: str(o.agent_role),
      attempt: typeof o.attempt === 'number' ? o.attempt : null,
      timestamp: str(o.timestamp),
      failureCategory: str(o.failure_category),
      raw: o,
    })
  }
  return {record: {file, entries}, issues}
}

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null
}
