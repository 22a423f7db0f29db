import {builtinProfile, type Profile} from '../logic/profiles.js'
import type {RunRecord, TaskRun} from '../model/run-record.js'
import {compareProfiles, compareWithRecord, type ProfileComparison, type RecordComparison} from './compare.js'
import {inferEra} from './era.js'
import {notModelledReplay, replayTask, type ReplayProfile} from './replay-task.js'
import {collectTaskInputs, type TaskInputs} from './turn-inputs.js'
import type {EraInference, TaskReplay} from './types.js'

export interface ReplayRunOptions {
  /** Profiles the user asked for (`--profile`, adjusted by `--with`/`--without`), replayed after the defaults. */
  readonly profiles?: readonly Profile[]
  /** Replay under legacy, fixed and the inferred profile as well (default true). */
  readonly defaults?: boolean
}

export interface TaskReplays {
  readonly task: TaskRun
  readonly inputs: TaskInputs
  /** Keyed by profile name, in the run's profile order. */
  readonly replays: Readonly<Record<string, TaskReplay>>
  /** Profile against profile, turn by turn. */
  readonly profiles: ProfileComparison
  /** Each profile against the record. */
  readonly vsRecord: Readonly<Record<string, RecordComparison>>
}

export interface RunReplay {
  readonly era: EraInference
  /** Profiles replayed, in display order: the inferred one first, then legacy, fixed, the user's. */
  readonly profiles: readonly Profile[]
  readonly tasks: readonly TaskReplays[]
}

/**
 * Every task run × every requested profile (issue "Replay"): the inferred era's profile, legacy,
 * fixed and the user's. A run outside the modelled window gets, for every profile, a replay that
 * says so instead of turns.
 */
export function replayRun(run: RunRecord, options: ReplayRunOptions = {}): RunReplay {
  const era = inferEra(run)
  const inferred = era.profile ? builtinProfile(era.profile) : null
  const profiles = profileOrder(inferred, options)
  const asRun: ReplayProfile | null = inferred ? {name: inferred.name, flags: inferred.flags} : null
  const tasks = run.tasks.map((task): TaskReplays => {
    const inputs = collectTaskInputs(run, task)
    const replays: Record<string, TaskReplay> = {}
    for (const p of profiles) replays[p.name] = era.modelled ? replayTask(inputs, p, asRun) : notModelledReplay(p.name, era.reason)
    const vsRecord = Object.fromEntries(profiles.map((p) => [p.name, compareWithRecord(task.outcome?.value ?? null, replays[p.name]!)]))
    return {task, inputs, replays, profiles: compareProfiles(replays), vsRecord}
  })
  return {era, profiles, tasks}
}

function profileOrder(inferred: Profile | null, options: ReplayRunOptions): Profile[] {
  const out: Profile[] = []
  const add = (p: Profile | null): void => {
    if (p && !out.some((q) => q.name === p.name)) out.push(p)
  }
  if (options.defaults !== false) {
    add(inferred)
    add(builtinProfile('legacy'))
    add(builtinProfile('fixed'))
  }
  for (const p of options.profiles ?? []) add(p)
  return out
}
