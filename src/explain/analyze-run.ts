import {builtinProfile, type Profile} from '../logic/profiles.js'
import type {RunRecord, TaskRun} from '../model/run-record.js'
import {inferEra} from '../replay/era.js'
import {placeRun} from '../replay/era-timeline.js'
import {notModelledReplay, replayTask} from '../replay/replay-task.js'
import {collectTaskInputs, type TaskInputs} from '../replay/turn-inputs.js'
import type {EraInference, TaskReplay} from '../replay/types.js'
import type {AnalysisReport, TaskAnalysis} from './analysis.js'
import {buildCriteriaTable} from './criteria-table.js'
import {detectTaskFindings} from './detect-findings.js'
import {builtinCatalogue} from './diagnosis/catalogue/builtin.js'
import type {Catalogue} from './diagnosis/catalogue/rule.js'
import {diagnose} from './diagnosis/diagnose.js'
import {taskSignals} from './diagnosis/task-signals.js'
import {describeRunEra} from './era-statement.js'
import {buildFeaturePictures, mainFeaturePicture} from './feature.js'
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
  const era = inferEra(run)
  const runEra = describeRunEra(era, placeRun(run))
  // Outside the modelled window nothing is replayed: the report says so once (runEra), not per task and profile.
  const plan = era.modelled ? planProfiles(options.profiles ?? DEFAULT_SELECTION, era.profile) : {profiles: [], asRun: null}
  const asRun = plan.asRun
  const replayer = taskReplayer(era, asRun, options.memo)
  const catalogue = options.catalogue ?? builtinCatalogue()

  const perTask = run.tasks.map((task) => {
    const replayOf = replayer(run, task)
    const replays = Object.fromEntries(plan.profiles.map((p) => [p.name, replayOf(p)]))
    const signals = taskSignals(run, task, catalogue)
    const drafts = detectTaskFindings({run, task, replays, era, asRun: asRun?.name ?? null, catalogue}, signals)
    return {task, replays, drafts, replayOf, signals}
  })
  const numbered = numberFindingsByKey(perTask.map((t) => t.drafts))

  const tasks: TaskAnalysis[] = perTask.map(({task, replays, replayOf, drafts, signals}, i) => {
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
    const asRunName = asRun?.name ?? null
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
  const features = buildFeaturePictures(run)
  return {
    tool: options.tool ?? {name: 'guardkit-replay', version: '0.0.0'},
    run,
    era,
    runEra,
    profiles: plan.profiles.map((p) => ({name: p.name, description: p.description})),
    tasks,
    feature: mainFeaturePicture(run, features),
    features,
  }
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
