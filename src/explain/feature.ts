import type {Evidence} from '../model/evidence.js'
import type {RunAttempt, RunRecord, TaskEvent, TaskRun} from '../model/run-record.js'
import type {FeaturePicture, FeatureTimeout} from './analysis.js'
import {asObject, turnsAfter} from './record-facts.js'

/**
 * The feature picture of one AutoBuild run (docs/findings.md "The verdict, the feature picture,
 * whatif"): waves with their statuses, every timeout or cancellation with the task it ended, and each
 * place where the feature's summary (wave table, FEATURE RESULT, feature YAML) says something other
 * than the task's own `Orchestration complete`.
 */
export function buildFeaturePictures(run: RunRecord): FeaturePicture[] {
  return run.attempts.filter((a) => a.kind === 'feature').map((a) => featurePictureOf(run, a))
}

/** The picture the report leads with: the feature the run is about, its latest attempt. */
export function mainFeaturePicture(run: RunRecord, pictures: readonly FeaturePicture[]): FeaturePicture | null {
  const id = run.feature?.featureId ?? null
  const matching = pictures.filter((p) => id === null || p.featureId === id)
  return matching[matching.length - 1] ?? pictures[pictures.length - 1] ?? null
}

type Ending = Extract<TaskEvent, {kind: 'feature-timeout' | 'cancelled' | 'timeout-budget-exhausted'}>

/** One feature attempt's picture: it reads that attempt's task runs only (a streamed run's view holds no others). */
export function featurePictureOf(run: RunRecord, attempt: RunAttempt): FeaturePicture {
  const tasks = run.tasks.filter((t) => t.attempt === attempt.attempt)
  const timeouts = tasks.flatMap((t) => {
    const ends = t.events.filter((e): e is Ending => e.kind === 'feature-timeout' || e.kind === 'timeout-budget-exhausted' || e.kind === 'cancelled')
    const timeout = ends.find((e) => e.kind === 'feature-timeout' || e.kind === 'timeout-budget-exhausted')
    if (!timeout) return []
    const cancels = ends.filter((e) => e.kind === 'cancelled')
    // the time-budget check runs before a turn starts: the turn its line names never started (docs/record-formats.md §5.4)
    const stage = timeout.kind === 'timeout-budget-exhausted' ? 'before-turn' as const : 'during-turn' as const
    const turn = timeout.turn ?? cancels[0]?.turn ?? null
    // a feature timeout that more turns of the task followed did not end the task's loop (record-facts.ts turnsAfter)
    const later = stage === 'during-turn' ? turnsAfter(t, turn) : []
    return [{
      taskId: t.taskId,
      seconds: timeout.kind === 'feature-timeout' ? timeout.seconds : null,
      turn,
      stage,
      ...(later.length > 0 ? {laterTurn: later[later.length - 1]!} : {}),
      evidence: [...timeout.evidence, ...cancels.flatMap((c) => c.evidence)],
    }]
  })
  return {
    featureId: attempt.featureId,
    attempt: attempt.attempt,
    waves: attempt.waves.map((w) => ({wave: w.wave, taskIds: w.taskIds, statuses: w.statuses})),
    featureResult: attempt.featureResult?.value ?? null,
    timeouts,
    disagreements: [...waveDisagreements(attempt, tasks), ...resultDisagreements(attempt, tasks), ...yamlDisagreements(run, attempt, tasks)],
  }
}

const SUCCESS = new Set(['SUCCESS', 'COMPLETED', 'APPROVED', 'PASSED'])

/** A wave-table status and a task outcome that do not say the same thing. */
function waveDisagreements(attempt: RunAttempt, tasks: readonly TaskRun[]): FeaturePicture['disagreements'] {
  const out: {taskId: string; featureSays: string; taskSays: string; evidence: Evidence[]; note?: string}[] = []
  for (const w of attempt.waves) {
    for (const [taskId, status] of Object.entries(w.statuses)) {
      const task = tasks.find((t) => t.taskId === taskId)
      const outcome = task?.outcome?.value
      if (!task || !outcome) continue
      const approved = outcome === 'approved'
      const up = status.toUpperCase()
      if (SUCCESS.has(up) === approved && !(up === 'TIMEOUT' && outcome !== 'timeout')) continue
      out.push({
        taskId,
        featureSays: `wave ${w.wave}: ${status}`,
        taskSays: outcome,
        evidence: [...w.evidence, ...(task.outcome?.evidence ?? [])],
        ...(up === 'TIMEOUT' && outcome === 'cancelled'
          ? {note: 'the feature timed the task out; the task\'s own loop then stopped at its next cancellation check and logged cancelled'}
          : {}),
      })
    }
  }
  return out
}

/** FEATURE RESULT against the task outcomes: SUCCESS with a task that did not finish approved, or FAILED with all approved. */
function resultDisagreements(attempt: RunAttempt, tasks: readonly TaskRun[]): FeaturePicture['disagreements'] {
  const result = attempt.featureResult
  if (!result || tasks.length === 0) return []
  const ok = /success|completed/i.test(result.value)
  const notApproved = tasks.filter((t) => t.outcome?.value !== 'approved')
  if (ok && notApproved.length > 0) {
    return notApproved.map((t) => ({taskId: t.taskId, featureSays: `FEATURE RESULT: ${result.value}`, taskSays: t.outcome?.value ?? 'no outcome', evidence: [...result.evidence, ...(t.outcome?.evidence ?? [])]}))
  }
  if (!ok && notApproved.length === 0 && tasks.every((t) => t.outcome !== null)) {
    return [{taskId: tasks.map((t) => t.taskId).join(', '), featureSays: `FEATURE RESULT: ${result.value}`, taskSays: 'every task approved', evidence: result.evidence}]
  }
  return []
}

/** The feature YAML's `result.final_decision` against the log's outcome, for the feature this attempt ran. */
function yamlDisagreements(run: RunRecord, attempt: RunAttempt, tasks: readonly TaskRun[]): FeaturePicture['disagreements'] {
  const feature = run.feature
  if (!feature || feature.featureId !== attempt.featureId) return []
  const list = asObject(feature.yaml)?.['tasks']
  if (!Array.isArray(list)) return []
  const out: {taskId: string; featureSays: string; taskSays: string; evidence: Evidence[]; note?: string}[] = []
  list.forEach((raw, i) => {
    const entry = asObject(raw)
    const decision = asObject(entry?.['result'])?.['final_decision']
    const task = tasks.find((t) => t.taskId === entry?.['id'])
    const outcome = task?.outcome?.value
    if (typeof decision !== 'string' || !task || !outcome || decision === outcome) return
    out.push({
      taskId: task.taskId,
      featureSays: `${feature.file}: final_decision ${decision}`,
      taskSays: outcome,
      evidence: [{file: feature.file, pointer: `/tasks/${i}/result/final_decision`}, ...(task.outcome?.evidence ?? [])],
      ...(decision === 'timeout' && outcome === 'cancelled' ? {note: 'FeatureOrchestrator records a timed-out task as timeout and discards the loop\'s own cancelled result'} : {}),
    })
  })
  return out
}

/**
 * When a recorded time limit struck, as the renderers say it: the time budget before a turn (that turn never
 * started), the feature's task timeout during one, and the turns the task's own loop went on to after it.
 */
export function timeoutWhen(x: Pick<FeatureTimeout, 'seconds' | 'turn' | 'stage' | 'laterTurn'>): string {
  if (x.stage === 'before-turn') return x.turn === null ? 'time budget exhausted before its next turn' : `time budget exhausted before turn ${x.turn} (turn ${x.turn} did not start)`
  const when = [x.seconds === null ? null : `after ${x.seconds} s`, x.turn === null ? null : `during turn ${x.turn}`].filter((w) => w !== null).join(', ')
  return x.laterTurn === undefined ? when : `${when}; the task's own loop went on to turn ${x.laterTurn}`
}
