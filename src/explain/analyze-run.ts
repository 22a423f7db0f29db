import {builtinProfile, type Profile} from '../logic/profiles.js'
import type {RunRecord, TaskRun} from '../model/run-record.js'
import {inferEra} from '../replay/era.js'
import {deriveEra, type DerivedEra} from '../replay/era-markers.js'
import {placeRun} from '../replay/era-timeline.js'
import {notModelledReplay, replayTask} from '../replay/replay-task.js'
import {collectTaskInputs, type TaskInputs} from '../replay/turn-inputs.js'
import type {EraInference, TaskReplay} from '../replay/types.js'
import type {AnalysisReport, FeaturePicture, TaskAnalysis} from './analysis.js'
import {buildCriteriaTable} from './criteria-table.js'
import {detectTaskFindings} from './detect-findings.js'
import {builtinCatalogue} from './diagnosis/catalogue/builtin.js'
import type {Catalogue} from './diagnosis/catalogue/rule.js'
import {diagnose} from './diagnosis/diagnose.js'
import {commitWindowOf, guardkitChanges, spanOf, type EraSpan} from './diagnosis/guardkit-changes.js'
import {taskSignals} from './diagnosis/task-signals.js'
import {describeRunEra} from './era-statement.js'
import {buildFeaturePictures, featurePictureOf, mainFeaturePicture} from './feature.js'
import {numberFindingsByKey} from './order.js'
import {DEFAULT_SELECTION, planProfiles, type ProfileSelection} from './profile-selection.js'
import {buildStallTable} from './stall-table.js'
import {buildVerdict} from './verdict.js'
import {computeWhatIf} from './whatif.js'

/**
 * Reuses a task run's replay under a profile while its inputs stay the same (`live` re-analyses the
 * growing run every few hundred milliseconds). `compute` is the replay itself; a memo may return an
 * earlier result only when `inputs`, `profile` and `asRun` are what that result was computed from.
 */
export interface ReplayMemo {
  replay(slot: {readonly task: TaskRun; readonly inputs: TaskInputs; readonly profile: Profile; readonly asRun: Profile | null}, compute: () => TaskReplay): TaskReplay
}

export interface AnalyzeRunOptions {
  /** Which profiles to replay (default: the run's era, legacy and fixed). */
  readonly profiles?: ProfileSelection
  /** Also search for the logic changes that flip each task's outcome (costs replays). */
  readonly whatif?: boolean
  readonly whatifBounds?: {readonly maxSetSize?: number; readonly maxReplays?: number}
  readonly tool?: {readonly name: string; readonly version: string}
  readonly memo?: ReplayMemo
  /** The signal catalogue: the user's `--signals` rules, then the built-in ones (default: the built-in ones). */
  readonly catalogue?: Catalogue
}

/**
 * The spine: RUN's record → the report every command and renderer draws from. Per run: the era
 * (from the records' version markers), the profiles to replay; per task run: its inputs (collected
 * once), a replay under each profile, the findings with their causes and ids, a verdict, the
 * explain tables and, on request, `whatif`. Every command (analyze, inspect aside, explain, whatif,
 * compare, record, gate, live) goes through here. Pure: same record and options, same report.
 */
export function analyzeRun(run: RunRecord, options: AnalyzeRunOptions = {}): AnalysisReport {
  const analysis = startRunAnalysis(run, options)
  const tasks = attemptSegments(run.tasks).flatMap((segment) => analysis.analyseTasks(run, segment))
  const features = buildFeaturePictures(run)
  return {...analysis.head, tasks, feature: mainFeaturePicture(run, features), features}
}

/** The report without its task runs and feature pictures: what is known before the first task run is analysed. */
export type AnalysisHead = Omit<AnalysisReport, 'tasks' | 'feature' | 'features'>

/**
 * The spine as a fold (docs/architecture.md "Streaming"): the run-level part once, then the task
 * runs an attempt at a time, so a streamed run's task runs are analysed, drawn and dropped one
 * attempt after another. `analyzeRun` is this fold over the whole record.
 */
export interface RunAnalysis {
  readonly head: AnalysisHead
  /**
   * One attempt's task runs, in the run's order, analysed. `view` is the run as they see it: the
   * whole record, or the streamed record's skeleton (every attempt, no task runs) with these task
   * runs (a task run's analysis reads its own attempt's task runs, never another's).
   */
  analyseTasks(view: RunRecord, tasks: readonly TaskRun[]): TaskAnalysis[]
}

/**
 * `derived`: the era's reading of the task runs, when they are not all in `run` (a streamed run
 * tallies them as they go by, replay/era-markers.ts `createEraTally`).
 */
export function startRunAnalysis(run: RunRecord, options: AnalyzeRunOptions = {}, derived: DerivedEra = deriveEra(run)): RunAnalysis {
  const era = inferEra(run, derived)
  const placement = placeRun(run, derived)
  const span = spanOf(placement)
  const tasks = startTaskAnalysis(era, options, () => span)
  return {
    head: {
      tool: options.tool ?? {name: 'guardkit-replay', version: '0.0.0'},
      run,
      era,
      runEra: describeRunEra(era, placement),
      profiles: tasks.profiles.map((p) => ({name: p.name, description: p.description})),
    },
    analyseTasks: tasks.analyseTasks,
  }
}

/** The task runs' part of the spine: what it replays, and each attempt's task runs analysed in the run's order. */
export interface TaskAnalyser extends Pick<RunAnalysis, 'analyseTasks'> {
  readonly profiles: readonly Profile[]
}

/**
 * The spine's per-task part, given the run's era and its place on the timeline: it reads nothing else
 * of the run-level analysis, so a task run can be analysed as soon as the era is known (services/stream:
 * before the log is read to its end, under the era read so far, checked against the final one).
 * `span` (its place on the timeline) is asked for only when a catalogue rule's `guardkit` condition needs it outside the
 * modelled window (diagnosis/guardkit-changes.ts), so a reader can tell whether it was read.
 */
export function startTaskAnalysis(era: EraInference, options: AnalyzeRunOptions = {}, span: () => EraSpan | null = () => null): TaskAnalyser {
  // Outside the modelled window nothing is replayed: the report says so once (runEra), not per task and profile.
  const plan = era.modelled ? planProfiles(options.profiles ?? DEFAULT_SELECTION, era.profile) : {profiles: [], asRun: null}
  const asRun = plan.asRun
  const asRunName = asRun?.name ?? null
  const replayer = taskReplayer(era, asRun, options.memo)
  const catalogue = options.catalogue ?? builtinCatalogue()
  // what the run's GuardKit had, for catalogue rules that mean one thing before a fix and another after it
  const guardkit = guardkitChanges(commitWindowOf(era), span)
  let nextId = 1
  return {
    profiles: plan.profiles,
    analyseTasks(view, list) {
      const perTask = list.map((task) => {
        const replayOf = replayer(view, task)
        const replays = Object.fromEntries(plan.profiles.map((p) => [p.name, replayOf(p)]))
        const signals = taskSignals(view, task, catalogue, guardkit)
        const drafts = detectTaskFindings({run: view, task, replays, era, asRun: asRunName, catalogue, guardkit}, signals)
        return {task, replays, drafts, replayOf, signals}
      })
      const numbered = numberFindingsByKey(perTask.map((t) => t.drafts), nextId)
      nextId += numbered.reduce((n, t) => n + t.findings.length, 0)
      return perTask.map(({task, replays, replayOf, drafts, signals}, i): TaskAnalysis => {
        const {findings, idOf} = numbered[i]!
        const diagnosed = diagnose(task, drafts, findings, idOf)
        const stillFails = findings.find((f) => f.code === 'FIXED_STILL_FAILS')
        const whatif = options.whatif && era.modelled
          ? computeWhatIf({
              baseline: asRun ?? builtinProfile('legacy')!,
              fixed: builtinProfile('fixed')!,
              replay: replayOf,
              fixedStillFails: stillFails ? stillFails.message : null,
              ...(options.whatifBounds ?? {}),
            })
          : null
        return {
          task,
          replays,
          findings,
          verdict: buildVerdict({task, findings, replays, asRun: asRunName, whatif, diagnosis: diagnosed.diagnosis}),
          diagnosis: diagnosed.diagnosis,
          whatif,
          explain: {stall: buildStallTable(task, replays, asRunName), criteria: buildCriteriaTable(task, replays), signals, diagnosis: diagnosed.explain},
        }
      })
    },
  }
}

/** A streamed run's analysis: its run-level part, then its task runs as the iteration reaches them. */
export interface StreamedAnalysis {
  readonly head: AnalysisHead
  /** Every task run analysed, in the run's order, one attempt at a time (iterate once). */
  tasks(): Iterable<TaskAnalysis>
  /** The feature pictures, once `tasks()` has been iterated to its end. */
  features(): Pick<AnalysisReport, 'feature' | 'features'>
}

/**
 * `analyzeRun` over a streamed run (docs/architecture.md "Streaming"): `run` is the record without
 * its task runs (every attempt, issue and marker), `tasksOf` gives an attempt's task runs when its
 * turn comes, `derived` is the era's tally of them all. Same report as `analyzeRun` over the whole
 * record, an attempt's task runs at a time: each attempt's are dropped once drawn.
 */
export function analyzeStreamedRun(run: RunRecord, tasksOf: (attempt: number) => readonly TaskRun[], derived: DerivedEra, options: AnalyzeRunOptions = {}): StreamedAnalysis {
  const analysis = startRunAnalysis(run, options, derived)
  const pictures: FeaturePicture[] = []
  let ended = false
  return {
    head: analysis.head,
    *tasks() {
      for (const attempt of run.attempts) {
        const tasks = tasksOf(attempt.attempt)
        const view: RunRecord = {...run, tasks}
        if (attempt.kind === 'feature') pictures.push(featurePictureOf(view, attempt))
        yield* analysis.analyseTasks(view, tasks)
      }
      ended = true
    },
    features() {
      if (!ended) throw new Error('the feature pictures are known once every task run was analysed')
      return {feature: mainFeaturePicture(run, pictures), features: pictures}
    },
  }
}

/** The task runs cut where the attempt changes (a record lists each attempt's task runs together). */
function attemptSegments(tasks: readonly TaskRun[]): TaskRun[][] {
  const out: TaskRun[][] = []
  for (const task of tasks) {
    const last = out[out.length - 1]
    if (last !== undefined && last[0]!.attempt === task.attempt) last.push(task)
    else out.push([task])
  }
  return out
}

/**
 * Per task run, a replay function over profiles: the task's inputs are collected once and shared by
 * every profile (and the whatif search); a run outside the modelled window is not replayed.
 */
function taskReplayer(era: EraInference, asRun: Profile | null, memo: ReplayMemo | undefined) {
  return (run: RunRecord, task: TaskRun) => {
    const done = new Map<string, TaskReplay>()
    let inputs: TaskInputs | undefined
    return (profile: Profile): TaskReplay => {
      const hit = done.get(profile.name)
      if (hit !== undefined) return hit
      let replay: TaskReplay
      if (!era.modelled) replay = notModelledReplay(profile.name, era.reason)
      else {
        const taskInputs = (inputs ??= collectTaskInputs(run, task))
        const compute = () => replayTask(taskInputs, profile, asRun)
        replay = memo === undefined ? compute() : memo.replay({task, inputs: taskInputs, profile, asRun}, compute)
      }
      done.set(profile.name, replay)
      return replay
    }
  }
}
