import type {Evidence, Fact} from '../model/evidence.js'
import type {IngestIssue} from '../model/ingest-issue.js'
import type {EraMarker, EventLogRecord, FeatureRecord, FixtureInfo, RunRecord, TaskRun, TurnRecord} from '../model/run-record.js'
import {assembleArtifactTask, isRecord, type ArtifactTask} from './artifacts/assemble-task.js'
import type {WorktreeRecords} from './artifacts/read-worktree.js'
import {turnFromArtifacts} from './artifacts/turn-facts.js'
import {checkAutobuildState} from './merge/autobuild-state.js'
import {mergeTurn, prefer} from './merge/merge-turn.js'
import {pairArtifactFolders} from './merge/pair-attempts.js'
import {outcomeFromFeature} from './merge/feature-outcome.js'
import {findTaskContext, taskFactsFromWorktree, type TaskFacts} from './merge/task-context.js'

/** The log-derived parts of a RunRecord (build-from-log.ts's LogIngestResult has this shape). */
export type LogParts = Pick<RunRecord, 'logs' | 'attempts' | 'tasks' | 'eraMarkers' | 'loggerStats' | 'ingestIssues'> & {readonly feature?: FeatureRecord | null}

export interface MergeInput {
  /** RUN as the user gave it. */
  readonly runPath: string
  /** What the logs hold (the log ingest's result), or null when RUN has no log. */
  readonly fromLogs: LogParts | null
  readonly worktrees: readonly WorktreeRecords[]
  readonly fixture: FixtureInfo | null
  /** Issues of discovery and of reading the worktree files, reported first. */
  readonly issues: readonly IngestIssue[]
  /** GuardKit's event logs (docs/ingest.md "Event logs"). */
  readonly eventLogs?: readonly EventLogRecord[]
}

/**
 * The logs' RunRecord and the worktree artifacts → one RunRecord (docs/ingest.md). Artifact
 * folders are paired with logged task runs by checkpoint hashes; a turn recorded by both is merged
 * field by field (merge/merge-turn.ts), disagreements become `conflict` issues; folders of runs the
 * logs do not hold become task runs of their own.
 */
export function mergeArtifacts(input: MergeInput): RunRecord {
  const issues: IngestIssue[] = [...input.issues]
  const base: RunRecord = {...emptyRunRecord(input.runPath), ...input.fromLogs, feature: input.fromLogs?.feature ?? null}
  // a folder none of whose files could be read says nothing (its issues already say why)
  const folders = input.worktrees.flatMap((w) => w.folders.filter((f) => f.files.length > 0).map(assembleArtifactTask))
  const features = input.worktrees.flatMap((w) => w.features.flatMap((f) => (f.record ? [f.record] : [])))
  const pairing = pairArtifactFolders(base.tasks, folders)
  issues.push(...pairing.issues)

  const tasks: TaskRun[] = base.tasks.map((task, index) => {
    const paired = pairing.paired.get(index)?.folder ?? null
    const ctx = findTaskContext(task.taskId, input.worktrees, paired?.worktree ?? null, features, issues)
    const merged = mergeTask(task, paired, taskFactsFromWorktree(task.taskId, paired, ctx), issues)
    return checkAutobuildState(merged, issues)
  })
  const nextAttempt = base.attempts.length === 0 ? 1 : Math.max(...base.attempts.map((a) => a.attempt)) + 1
  for (const folder of pairing.unpaired) {
    if (base.tasks.length > 0 && !base.tasks.some((t) => t.taskId === folder.taskId)) {
      issues.push({file: folder.dir, code: 'artifacts-without-log', severity: 'info',
        message: `no logged run of ${folder.taskId}: its artifacts are read on their own (attempt ${nextAttempt})`})
    }
    const ctx = findTaskContext(folder.taskId, input.worktrees, folder.worktree, features, issues)
    tasks.push(taskFromArtifacts(folder, nextAttempt, taskFactsFromWorktree(folder.taskId, folder, ctx), ctx.feature, issues))
  }

  const config = input.worktrees.find((w) => w.config)?.config ?? null
  const eventLogs = input.eventLogs ?? []
  return {
    ...base,
    worktrees: input.worktrees.map((w) => w.rel),
    tasks: eventLogs.length === 0 ? tasks : tasks.map((t) => withEventRows(t, eventLogs, tasks)),
    ...(eventLogs.length === 0 ? {} : {eventLogs}),
    feature: base.feature ?? chooseFeature(features, base, folders),
    eraMarkers: [...base.eraMarkers, ...artifactEraMarkers(folders)],
    ingestIssues: [...issues, ...base.ingestIssues],
    guardkitConfig: config,
    fixture: input.fixture,
  }
}

/**
 * A logged task run of a RUN with no worktree, as `mergeArtifacts` makes it: the same per-task step
 * with nothing to pair, for task runs handed over while the log streams (docs/ingest.md "Streaming").
 */
export function mergeLoggedTask(task: TaskRun, issues: IngestIssue[]): TaskRun {
  return mergeTask(task, null, taskFactsFromWorktree(task.taskId, null, findTaskContext(task.taskId, [], null, [], issues)), issues)
}

/**
 * An event log's Player rows of a task, as events of its latest run (the log names no attempt of
 * ours): each Player run with its attempt, time and failure category.
 */
function withEventRows(task: TaskRun, logs: readonly EventLogRecord[], all: readonly TaskRun[]): TaskRun {
  const latest = all.filter((t) => t.taskId === task.taskId).reduce((a, b) => (b.attempt > a.attempt ? b : a))
  if (latest !== task) return task
  const rows = logs.flatMap((l) => l.entries.filter((e) => e.taskId === task.taskId && e.role !== 'router').map((e) => ({l, e})))
  if (rows.length === 0) return task
  const events = rows.map(({l, e}) => ({
    kind: 'other' as const,
    name: `event-log-${e.role ?? 'row'}`,
    turn: null,
    detail: [`${e.role ?? 'row'} run ${e.runId ?? '?'}`, e.attempt === null ? null : `attempt ${e.attempt}`, e.timestamp, e.failureCategory === null ? null : `failure_category ${e.failureCategory}`]
      .filter((x) => x !== null).join(', '),
    evidence: [{file: l.file, line: e.line}],
  }))
  return {...task, events: [...task.events, ...events]}
}

function mergeTask(task: TaskRun, folder: ArtifactTask | null, facts: TaskFacts, issues: IngestIssue[]): TaskRun {
  const enriched = {
    ...task,
    featureId: task.featureId ?? facts.featureId,
    mode: agree(task.taskId, 'the implementation mode', task.mode, facts.mode, issues),
    taskType: agree(task.taskId, 'the task type', task.taskType, facts.taskType, issues),
    complexity: prefer(task.complexity, facts.complexity),
    maxTurns: agree(task.taskId, 'max turns', task.maxTurns, facts.maxTurns, issues),
    criteria: facts.criteria ?? task.criteria,
    taskFile: facts.taskFile ?? task.taskFile,
    sources: {log: true, artifacts: folder !== null},
    taskArtifacts: folder?.taskLevel ?? null,
    artifactDir: folder?.dir ?? task.artifactDir,
  }
  if (!folder) return enriched
  const logTurns = new Map(task.turns.map((t) => [t.turn, t]))
  const artTurns = artifactTurns(folder, issues)
  const logLast = task.turnCount?.value ?? (task.turns.length > 0 ? Math.max(...task.turns.map((t) => t.turn)) : 0)
  const numbers = [...new Set([...logTurns.keys(), ...artTurns.keys()])].sort((a, b) => a - b)
  // turns past the end of a finished run contradict the log; past the end of a cut log they extend it
  const extra = [...artTurns.keys()].filter((n) => n > logLast && !logTurns.has(n))
  if (extra.length > 0 && task.outcome) {
    issues.push({file: folder.dir, code: 'conflict', severity: 'warning',
      message: `${task.taskId}: the artifacts hold turn${extra.length > 1 ? 's' : ''} ${extra.join(', ')} that the log's run (attempt ${task.attempt}) does not (it ended after ${logLast} turns): kept from the artifacts`})
  }
  const artLast = folder.lastTurn ?? 0
  if (task.outcome && artLast > 0 && artLast < logLast) {
    issues.push({file: folder.dir, code: 'conflict', severity: 'info',
      message: `${task.taskId}: the artifacts end at turn ${artLast}, the log's run went on to turn ${logLast} (the folder was copied before the run ended?): later turns are the log's alone`})
  }
  const turns: TurnRecord[] = numbers.map((n) => {
    const l = logTurns.get(n)
    const a = artTurns.get(n)
    return l && a ? mergeTurn(task.taskId, l, a, issues) : (l ?? a)!
  })
  return {...enriched, turns}
}

function taskFromArtifacts(folder: ArtifactTask, attempt: number, facts: TaskFacts, feature: {record: FeatureRecord; index: number; entry: Record<string, unknown>} | null, issues: IngestIssue[]): TaskRun {
  const turns = [...artifactTurns(folder, issues).values()]
  const last = folder.lastTurn
  return {
    taskId: folder.taskId,
    attempt,
    featureId: facts.featureId,
    mode: facts.mode,
    taskType: facts.taskType,
    complexity: facts.complexity,
    maxTurns: facts.maxTurns,
    outcome: outcomeFromFeature(folder, feature, issues),
    turnCount: last === null ? null : {value: last, evidence: [{file: folder.dir, note: 'the highest turn in the artifact folder (the run may have gone on)'}]},
    turns,
    stall: null,
    events: [],
    criteria: facts.criteria,
    taskFile: facts.taskFile,
    artifactDir: folder.dir,
    summary: null,
    sources: {log: false, artifacts: true},
    taskArtifacts: folder.taskLevel,
  }
}

function artifactTurns(folder: ArtifactTask, issues: IngestIssue[]): Map<number, TurnRecord> {
  const numbers = new Set([...folder.turns.keys(), ...[...folder.checkpoints.values()].filter((c) => c.fromPriorRun !== true).map((c) => c.turn)])
  const empty = {playerReport: [], coachReport: null, taskWorkResults: [], feedbackFile: null, workState: null, coachEvidence: null, turnState: null}
  return new Map([...numbers].sort((a, b) => a - b).map((n) => [n, turnFromArtifacts(n, folder.turns.get(n) ?? empty, folder.checkpoints.get(n) ?? null, issues)]))
}

/** The log's value wins; a different value in the worktree files is reported. */
function agree<T>(taskId: string, what: string, log: Fact<T> | null, other: Fact<T> | null, issues: IngestIssue[]): Fact<T> | null {
  if (log && other && JSON.stringify(log.value) !== JSON.stringify(other.value)) {
    const e: Evidence = other.evidence[0] ?? {file: ''}
    issues.push({file: e.file, ...(e.line === undefined ? {} : {line: e.line}), ...(e.pointer === undefined ? {} : {pointer: e.pointer}), code: 'conflict', severity: 'warning',
      message: `${taskId}: ${what} differs: the log says ${JSON.stringify(log.value)} (kept), the worktree files ${JSON.stringify(other.value)}`})
    return log
  }
  return prefer(log, other)
}

function chooseFeature(features: readonly FeatureRecord[], base: RunRecord, folders: readonly ArtifactTask[]): FeatureRecord | null {
  const logged = base.attempts.map((a) => a.featureId).find((id) => id !== null)
  if (logged) return features.find((f) => f.featureId === logged) ?? null
  if (features.length <= 1) return features[0] ?? null
  const ids = new Set([...folders.map((f) => f.taskId), ...base.tasks.map((t) => t.taskId)])
  const covered = (f: FeatureRecord): number => {
    const tasks = isRecord(f.yaml) && Array.isArray(f.yaml['tasks']) ? f.yaml['tasks'] : []
    return tasks.filter((t) => isRecord(t) && typeof t['id'] === 'string' && ids.has(t['id'])).length
  }
  return [...features].sort((a, b) => covered(b) - covered(a))[0] ?? null
}

/** One marker per artifact era seen (`coach_turn.v4`, …): evidence for era inference. */
function artifactEraMarkers(folders: readonly ArtifactTask[]): EraMarker[] {
  const seen = new Map<string, Evidence[]>()
  for (const folder of folders) {
    const versions = [...folder.turns.values()].flatMap((t) => [...t.playerReport, ...t.taskWorkResults, t.coachReport, t.feedbackFile, t.workState, t.coachEvidence, t.turnState])
    const level = folder.taskLevel
    for (const v of [...versions, level.checkpoints, level.turnContext, level.specialistResults, level.stateTransitions, level.phase4Summary]) {
      if (!v || v.schema === 'unknown') continue
      const list = seen.get(v.schema) ?? []
      list.push({file: v.file})
      seen.set(v.schema, list)
    }
  }
  return [...seen.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([id, evidence]) => ({id, evidence: evidence.slice(0, 3), count: evidence.length}))
}

/**
 * Whether RUN held anything to analyse: a logged AutoBuild run or a task's artifacts. Task files
 * and feature files alone are inputs, not a run; with nothing usable the command exits 2.
 */
export function hasRunContent(record: RunRecord): boolean {
  return record.attempts.length > 0 || record.tasks.length > 0
}

export function emptyRunRecord(path: string): RunRecord {
  return {path, logs: [], worktrees: [], attempts: [], tasks: [], feature: null, eraMarkers: [], ingestIssues: [], loggerStats: []}
}
