import {fileURLToPath} from 'node:url'
import {builtinProfile, type Profile} from '../../../src/logic/profiles.js'
import type {RunRecord, TaskRun} from '../../../src/model/run-record.js'
import {collectTaskInputs, inferEra, replayTask, type TaskReplay} from '../../../src/replay/index.js'
import {loadRun} from '../../../src/services/load-run.js'

export const FIXTURES = fileURLToPath(new URL('../../../fixtures/runs/', import.meta.url))

const cache = new Map<string, Promise<RunRecord>>()

/** Ingest RUN once per test file (the services' loadRun, as `analyze` does). */
export function load(path: string): Promise<RunRecord> {
  let hit = cache.get(path)
  if (!hit) cache.set(path, (hit = loadRun(path)))
  return hit
}

export function profile(name: string): Profile {
  const p = builtinProfile(name)
  if (!p) throw new Error(`no profile ${name}`)
  return p
}

export function findTask(run: RunRecord, taskId: string, attempt = 1): TaskRun {
  const t = run.tasks.find((x) => x.taskId === taskId && x.attempt === attempt)
  if (!t) throw new Error(`no ${taskId} attempt ${attempt} in ${run.path}`)
  return t
}

/** Replay one task under a profile, with the run's inferred era as the as-run profile. */
export function replay(run: RunRecord, task: TaskRun, name: string): TaskReplay {
  const era = inferEra(run)
  const asRun = era.modelled && era.profile ? builtinProfile(era.profile) : null
  return replayTask(collectTaskInputs(run, task), profile(name), asRun)
}

/** The inferred profile's name (as-run), failing when the era is not modelled. */
export function asRunName(run: RunRecord): string {
  const era = inferEra(run)
  if (!era.modelled || !era.profile) throw new Error(`${run.path}: no inferred profile (${era.reason})`)
  return era.profile
}
