import {builtinProfile, type Profile} from '../logic/profiles.js'
import type {RunRecord, TaskRun} from '../model/run-record.js'
import type {EraInference, TaskReplay} from '../replay/types.js'
import type {AnalysisReport, TaskAnalysis} from './analysis.js'
import {buildCriteriaTable} from './criteria-table.js'
import {detectTaskFindings} from './detect-findings.js'
import {buildFeaturePictures, mainFeaturePicture} from './feature.js'
import {numberFindings} from './order.js'
import {buildStallTable} from './stall-table.js'
import {buildVerdict} from './verdict.js'
import {computeWhatIf} from './whatif.js'

/**
 * What `analyzeRun` needs from the layers it may not import: the replay and the era inference are
 * passed in (the services layer wires the real ones; tests pass hand-built values).
 */
export interface AnalyzeOptions {
  /** The profiles the user asked for, in display order (default in the services layer: legacy, fixed). */
  readonly profiles: readonly Profile[]
  /** Replays one task of the run under one profile. */
  readonly replay: (run: RunRecord, task: TaskRun, profile: Profile, era: EraInference) => TaskReplay
  readonly inferEra: (run: RunRecord) => EraInference
  /** Also search for the logic changes that flip each task's outcome (costs replays). */
  readonly whatif?: boolean
  readonly whatifBounds?: {readonly maxSetSize?: number; readonly maxReplays?: number}
  readonly tool?: {readonly name: string; readonly version: string}
  /** Resolves the inferred profile's name (default: the built-in profiles). */
  readonly resolveProfile?: (name: string) => Profile | null
}

/**
 * RUN's record → the report every renderer draws from: the era, the replays under the inferred
 * profile (first) and the chosen ones, the findings with their causes and ids, a verdict per task,
 * the feature picture and, on request, `whatif`. Pure: same record and options, same report.
 */
export function analyzeRun(run: RunRecord, options: AnalyzeOptions): AnalysisReport {
  const era = options.inferEra(run)
  const resolve = options.resolveProfile ?? builtinProfile
  const asRun = era.profile !== null && era.modelled ? resolve(era.profile) : null
  const profiles = dedupeProfiles([...(asRun ? [asRun] : []), ...options.profiles])
  const asRunName = asRun?.name ?? null

  const perTask = run.tasks.map((task) => {
    const cache = new Map<string, TaskReplay>()
    const replayOf = (p: Profile): TaskReplay => {
      const hit = cache.get(p.name)
      if (hit) return hit
      const r = options.replay(run, task, p, era)
      cache.set(p.name, r)
      return r
    }
    const replays = Object.fromEntries(profiles.map((p) => [p.name, replayOf(p)]))
    const drafts = detectTaskFindings({run, task, replays, era, asRun: asRunName})
    return {task, replays, drafts, replayOf}
  })
  const numbered = numberFindings(perTask.map((t) => t.drafts))

  const tasks: TaskAnalysis[] = perTask.map(({task, replays, replayOf}, i) => {
    const findings = numbered[i]!
    const stillFails = findings.find((f) => f.code === 'FIXED_STILL_FAILS')
    const fixed = builtinProfile('fixed')!
    const baseline = asRun ?? builtinProfile('legacy')!
    const whatif = options.whatif && era.modelled
      ? computeWhatIf({
          baseline,
          fixed,
          replay: replayOf,
          fixedStillFails: stillFails ? stillFails.message : null,
          ...(options.whatifBounds ?? {}),
        })
      : null
    return {
      task,
      replays,
      findings,
      verdict: buildVerdict({task, findings, replays, asRun: asRunName, whatif}),
      whatif,
      explain: {stall: buildStallTable(task, replays, asRunName), criteria: buildCriteriaTable(task, replays)},
    }
  })
  const features = buildFeaturePictures(run)
  return {
    tool: options.tool ?? {name: 'guardkit-replay', version: '0.0.0'},
    run,
    era,
    profiles: profiles.map((p) => ({name: p.name, description: p.description})),
    tasks,
    feature: mainFeaturePicture(run, features),
    features,
  }
}

function dedupeProfiles(profiles: readonly Profile[]): Profile[] {
  const seen = new Set<string>()
  return profiles.filter((p) => (seen.has(p.name) ? false : (seen.add(p.name), true)))
}
