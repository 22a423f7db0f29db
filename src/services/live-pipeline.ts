import {createHash} from 'node:crypto'
import {analyzeRun} from '../explain/analyze-run.js'
import {resolveProfile, type Profile, type ProfileDefinition} from '../logic/profiles.js'
import type {TaskRun} from '../model/run-record.js'
import {inferEra} from '../replay/era.js'
import {notModelledReplay, replayTask} from '../replay/replay-task.js'
import {collectTaskInputs, type TaskInputs} from '../replay/turn-inputs.js'
import type {TaskReplay} from '../replay/types.js'
import type {Pipeline} from './analyze.js'

/**
 * The pipeline of `analyze` (services/pipeline.ts) for `live`, which re-analyses the run every few
 * hundred milliseconds while most of it no longer changes: a task's replay under a profile is a
 * pure function of its inputs (`replayTask`), so the last one per task run and profile is kept with a hash of
 * the inputs' JSON, the profile's flags and the as-run profile, and reused while they stay the same. Everything else — findings,
 * verdicts, stall tables — is computed afresh each time, exactly as `analyze` does.
 */
export function createLivePipeline(user: readonly ProfileDefinition[] = []): Pipeline & {readonly stats: {hits: number; misses: number}} {
  // per task run and profile, the last replay and the key it was made for: the cache holds what the run holds, no more
  const cache = new Map<string, {key: string; replay: TaskReplay}>()
  const stats = {hits: 0, misses: 0}
  return {
    stats,
    inferEra,
    analyze(run, input) {
      const fingerprints = new WeakMap<TaskRun, {inputs: TaskInputs; key: string}>()
      const inputsOf = (task: TaskRun) => {
        let hit = fingerprints.get(task)
        if (hit === undefined) {
          const inputs = collectTaskInputs(run, task)
          fingerprints.set(task, (hit = {inputs, key: createHash('sha256').update(JSON.stringify(inputs)).digest('base64')}))
        }
        return hit
      }
      const resolve = (name: string): Profile | null => {
        const r = resolveProfile(name, user)
        return r.ok ? r.profile : null
      }
      const asRun = input.era.profile === null || !input.era.modelled ? null : resolve(input.era.profile)
      return analyzeRun(run, {
        profiles: input.profiles,
        inferEra: () => input.era,
        replay: (_run, task, profile, era) => {
          if (!era.modelled) return notModelledReplay(profile.name, era.reason)
          const {inputs, key: inputsKey} = inputsOf(task)
          const slot = `${task.taskId}#${task.attempt}\u0000${profile.name}`
          const key = `${JSON.stringify(profile.flags)}\u0000${asRun === null ? '' : `${asRun.name}\u0000${JSON.stringify(asRun.flags)}`}\u0000${inputsKey}`
          const cached = cache.get(slot)
          if (cached?.key === key) {
            stats.hits++
            return cached.replay
          }
          stats.misses++
          const replay = replayTask(inputs, profile, asRun)
          cache.set(slot, {key, replay})
          return replay
        },
        whatif: input.whatif,
        tool: input.tool,
        resolveProfile: resolve,
      })
    },
  }
}
