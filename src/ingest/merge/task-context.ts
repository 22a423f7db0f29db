import {flagsFrom} from '../../logic/changes.js'
import {extractAcceptanceCriteria, findTaskFile, parseFrontmatter} from '../../logic/mode/index.js'
import {createVirtualWorktree} from '../../logic/worktree.js'
import type {Evidence, Fact} from '../../model/evidence.js'
import type {IngestIssue} from '../../model/ingest-issue.js'
import type {ImplementationMode} from '../../model/outcome.js'
import type {ArtifactVersion, CriteriaRecord, FeatureRecord, TaskFileRecord, TurnArtifacts} from '../../model/run-record.js'
import {isRecord, type ArtifactTask} from '../artifacts/assemble-task.js'
import {atPointer} from '../artifacts/json-pointer.js'
import type {WorktreeRecords} from '../artifacts/read-worktree.js'
import type {ParsedTaskFile} from '../tasks/parse-task-file.js'
import {prefer} from './merge-turn.js'

/** What the worktree files other than the task's folder say about a task. */
export interface TaskContext {
  readonly taskFile: ParsedTaskFile | null
  readonly feature: {readonly record: FeatureRecord; readonly index: number; readonly entry: Record<string, unknown>} | null
}

/**
 * The task file GuardKit would have read (docs/guardkit-logic.md §9.2: the first hit in backlog, in_progress,
 * design_approved, in_review, blocked), preferring the worktree that holds the task's folder; a
 * copy elsewhere under tasks/ (e.g. completed/) is the fallback, reported as such.
 */
export function findTaskContext(taskId: string, worktrees: readonly WorktreeRecords[], home: string | null, features: readonly FeatureRecord[], issues: IngestIssue[]): TaskContext {
  const ordered = [...worktrees].sort((a, b) => Number(b.rel === home) - Number(a.rel === home))
  let taskFile: ParsedTaskFile | null = null
  for (const pass of ['guardkit', 'fallback'] as const) {
    for (const wt of ordered) {
      const byPath = new Map(wt.taskFiles.map((f) => [f.inWorktree, f]))
      const view = createVirtualWorktree({root: '/worktree', files: Object.fromEntries([...byPath.keys()].map((p) => [p, null]))})
      const hit = pass === 'guardkit' ? findTaskFile(taskId, view) : findTaskFile(taskId, view, ['tasks'])
      if (hit !== null) {
        taskFile = byPath.get(hit) ?? null
        if (pass === 'fallback' && taskFile) {
          issues.push({file: taskFile.record.file, code: 'task-file-fallback', severity: 'info',
            message: `${taskId}: no copy in the folders GuardKit's task loader searches (backlog, in_progress, design_approved, in_review, blocked); this one is used instead`})
        }
        break
      }
    }
    if (taskFile) break
  }
  let feature: TaskContext['feature'] = null
  for (const record of features) {
    const tasks = isRecord(record.yaml) && Array.isArray(record.yaml['tasks']) ? record.yaml['tasks'] : []
    const index = tasks.findIndex((t) => isRecord(t) && t['id'] === taskId)
    if (index >= 0) {
      feature = {record, index, entry: tasks[index] as Record<string, unknown>}
      break
    }
  }
  return {taskFile, feature}
}

export interface TaskFacts {
  readonly featureId: string | null
  readonly mode: Fact<ImplementationMode> | null
  readonly taskType: Fact<string> | null
  readonly complexity: Fact<number> | null
  readonly maxTurns: Fact<number> | null
  readonly criteria: CriteriaRecord | null
  readonly taskFile: TaskFileRecord | null
}

/** Task-level values from the artifacts and worktree files, each best source first (docs/ingest.md). */
export function taskFactsFromWorktree(taskId: string, art: ArtifactTask | null, ctx: TaskContext): TaskFacts {
  const turns = art ? [...art.turns.values()] : []
  const fm = ctx.taskFile
  const fmFact = <T>(key: string, value: T): Fact<T> => ({value, evidence: [fmEvidence(fm!, key)]})
  const featureFact = <T>(key: string, value: T): Fact<T> => ({value, evidence: [{file: ctx.feature!.record.file, pointer: `/tasks/${ctx.feature!.index}/${key}`}]})
  const frontmatter = fm?.record.frontmatter ?? {}
  const entry = ctx.feature?.entry ?? {}

  const reportMode = lastFact(turns, (t) => [...t.playerReport.slice(-1), ...t.taskWorkResults.slice(-1)], (v) => {
    // synthetic reports (state recovery) say "direct" whatever the task's mode
    if (atPointer(v.json, '/_synthetic') === true) return null
    const m = atPointer(v.json, '/implementation_mode')
    if (m === 'direct' || m === 'task-work') return {value: m as ImplementationMode, evidence: [{file: v.file, pointer: '/implementation_mode'}]}
    const notes = atPointer(v.json, '/implementation_notes')
    return typeof notes === 'string' && notes.startsWith('Implementation via task-work delegation')
      ? {value: 'task-work' as const, evidence: [{file: v.file, pointer: '/implementation_notes'}]} : null
  })
  const fmMode = frontmatter['implementation_mode']
  const featureMode = entry['implementation_mode']
  const mode = prefer(
    reportMode,
    fmMode === 'direct' || fmMode === 'task-work' ? fmFact('implementation_mode', fmMode as ImplementationMode) : null,
    featureMode === 'direct' || featureMode === 'task-work' ? featureFact('implementation_mode', featureMode as ImplementationMode) : null,
  )

  const reportType = lastFact(turns, (t) => [...t.taskWorkResults.slice(-1), ...(t.coachEvidence ? [t.coachEvidence] : [])], (v) => stringAt(v, '/task_type'))
  const taskType = prefer(
    reportType,
    typeof frontmatter['task_type'] === 'string' ? fmFact('task_type', frontmatter['task_type']) : null,
    typeof entry['task_type'] === 'string' ? featureFact('task_type', entry['task_type']) : null,
  )
  const complexity = prefer(
    Number.isInteger(frontmatter['complexity']) ? fmFact('complexity', frontmatter['complexity'] as number) : null,
    Number.isInteger(entry['complexity']) ? featureFact('complexity', entry['complexity'] as number) : null,
  )
  const context = art?.taskLevel.turnContext
  const max = context ? atPointer(context.json, '/max_turns') : undefined
  const maxTurns = Number.isInteger(max) ? {value: max as number, evidence: [{file: context!.file, pointer: '/max_turns'}]} : null

  const featureId = stringAt(turns.find((t) => t.turnState)?.turnState ?? null, '/feature_id')?.value
    ?? (typeof frontmatter['feature_id'] === 'string' ? frontmatter['feature_id'] : null)
    ?? ctx.feature?.record.featureId ?? null

  return {featureId, mode, taskType, complexity, maxTurns, criteria: criteriaFrom(turns, fm), taskFile: fm?.record ?? null}
}

/**
 * The criteria the run's Coach verified (its report lists them: exact), else the task file's when
 * GuardKit's legacy and fixed parsers read the same list from it.
 */
function criteriaFrom(turns: readonly TurnArtifacts[], fm: ParsedTaskFile | null): CriteriaRecord | null {
  for (const t of [...turns].reverse()) {
    for (const [v, pointer] of [[t.coachReport, '/acceptance_criteria_verification/criteria_results'], [t.coachReport, '/criteria_verification'], [t.coachEvidence, '/requirements/criteria_results']] as const) {
      const list = v ? atPointer(v.json, pointer) : undefined
      if (!Array.isArray(list) || list.length === 0) continue
      const texts = list.map((x) => (isRecord(x) ? x['criterion_text'] : undefined))
      if (texts.every((x): x is string => typeof x === 'string')) return {texts, source: 'coach-report', complete: true, evidence: [{file: v!.file, pointer}]}
    }
  }
  if (!fm) return null
  try {
    const {metadata, content} = parseFrontmatter(fm.record.text.replace(/\r\n?/g, '\n'))
    const legacy = extractAcceptanceCriteria(content, metadata, flagsFrom([]))
    const fixed = extractAcceptanceCriteria(content, metadata, flagsFrom(['topLevelCriteriaOnly']))
    if (JSON.stringify(legacy) !== JSON.stringify(fixed) || !fixed.every((x): x is string => typeof x === 'string')) return null
    return {texts: fixed, source: 'task-file', complete: true, evidence: [{file: fm.record.file, note: 'TaskLoader._extract_acceptance_criteria (legacy and fixed agree)'}]}
  } catch {
    return null
  }
}

function fmEvidence(fm: ParsedTaskFile, key: string): Evidence {
  const line = fm.keyLines[key]
  return line === undefined ? {file: fm.record.file, note: `frontmatter ${key}`} : {file: fm.record.file, line}
}

function stringAt(v: ArtifactVersion | null, pointer: string): Fact<string> | null {
  const x = v ? atPointer(v.json, pointer) : undefined
  return typeof x === 'string' ? {value: x, evidence: [{file: v!.file, pointer}]} : null
}

/** The value read from the latest turn that has one. */
function lastFact<T>(turns: readonly TurnArtifacts[], files: (t: TurnArtifacts) => readonly ArtifactVersion[], read: (v: ArtifactVersion) => Fact<T> | null): Fact<T> | null {
  for (const t of [...turns].reverse()) {
    for (const v of files(t)) {
      const f = read(v)
      if (f) return f
    }
  }
  return null
}
