import {analyzeRun} from '../explain/analyze-run.js'
import {resolveProfile, type Profile, type ProfileDefinition} from '../logic/profiles.js'
import type {TaskRun} from '../model/run-record.js'
import {inferEra} from '../replay/era.js'
import {notModelledReplay, replayTask} from '../replay/replay-task.js'
import {collectTaskInputs, type TaskInputs} from '../replay/turn-inputs.js'
import type {Pipeline} from './analyze.js'

/**
 * The real pipeline: era inference and the replay fold from src/replay, findings, verdicts and
 * whatif from src/explain (`analyzeRun`, which may not import the replay itself). A task's inputs
 * are collected once and shared by every profile's replay and the whatif search.
 */
export function createPipeline(user: readonly ProfileDefinition[] = []): Pipeline {
  return {
    inferEra,
    analyze(run, input) {
      const inputs = new WeakMap<TaskRun, TaskInputs>()
      const inputsOf = (task: TaskRun) => {
        let hit = inputs.get(task)
        if (hit === undefined) inputs.set(task, (hit = collectTaskInputs(run, task)))
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
        replay: (_run, task, profile, era) => (era.modelled ? replayTask(inputsOf(task), profile, asRun) : notModelledReplay(profile.name, era.reason)),
        whatif: input.whatif,
        tool: input.tool,
        resolveProfile: resolve,
      })
    },
  }
}
