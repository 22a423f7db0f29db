import type {Fact} from '../../model/evidence.js'
import type {IngestIssue} from '../../model/ingest-issue.js'
import type {FeatureRecord} from '../../model/run-record.js'
import {isRecord, type ArtifactTask} from '../artifacts/assemble-task.js'
import {atPointer} from '../artifacts/json-pointer.js'

/**
 * Artifacts never record how a loop ended; the feature YAML's `result` does, but is often stale
 * (docs/record-formats.md §6.8): it is used only when it fits the folder — the same number of turns, an
 * `approved` exactly when the last turn's Coach approved, and not completed before the folder's
 * last write. A turn counts when any of its files exists, damaged or not (assemble-task.ts).
 */
export function outcomeFromFeature(folder: ArtifactTask, feature: {record: FeatureRecord; index: number; entry: Record<string, unknown>} | null, issues: IngestIssue[]): Fact<string> | null {
  const result = feature?.entry['result']
  if (!feature || !isRecord(result) || typeof result['final_decision'] !== 'string') return null
  const pointer = `/tasks/${feature.index}/result`
  const decision = result['final_decision']
  const last = folder.lastTurn === null ? null : folder.turns.get(folder.lastTurn) ?? null
  const lastDecision = last ? (atPointer(last.coachReport?.json, '/decision') ?? atPointer(last.turnState?.json, '/coach_decision')) : undefined
  const completedAt = feature.entry['completed_at']
  const latest = latestTimestamp(folder)
  const why = result['total_turns'] !== folder.lastTurn ? `${String(result['total_turns'])} turns, the folder has ${folder.lastTurn ?? 0}`
    : lastDecision !== undefined && (decision === 'approved') !== (lastDecision === 'approve') ? `the folder's last Coach decision is ${String(lastDecision)}`
      : typeof completedAt === 'string' && latest !== null && completedAt < latest ? `completed at ${completedAt}, before the folder's last write (${latest})`
        : null
  if (why === null) return {value: decision, evidence: [{file: feature.record.file, pointer: `${pointer}/final_decision`, note: 'feature YAML result (it fits the artifacts)'}]}
  issues.push({file: feature.record.file, pointer, code: 'stale-record', severity: 'info',
    message: `${folder.taskId}: the feature file's result (${decision}) describes another run (${why}): not used`})
  return null
}

/** The latest naive-local timestamp the folder's files carry (same clock as the feature YAML's). */
function latestTimestamp(folder: ArtifactTask): string | null {
  const stamps: unknown[] = [...folder.checkpoints.values()].map((c) => atPointer(folder.taskLevel.checkpoints?.json, c.evidence.pointer + '/timestamp'))
  for (const t of folder.turns.values()) {
    stamps.push(atPointer(t.turnState?.json, '/completed_at'), ...t.taskWorkResults.map((v) => atPointer(v.json, '/timestamp')), atPointer(t.workState?.json, '/timestamp'))
  }
  const valid = stamps.filter((s): s is string => typeof s === 'string' && /^\d{4}-\d\d-\d\dT/.test(s)).sort()
  return valid[valid.length - 1] ?? null
}
