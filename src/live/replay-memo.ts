import {createHash} from 'node:crypto'
import type {ReplayMemo} from '../explain/analyze-run.js'
import type {TaskInputs} from '../replay/turn-inputs.js'
import type {TaskReplay} from '../replay/types.js'

/**
 * `live` re-analyses the run every few hundred milliseconds while most of it no longer changes. A
 * task's replay under a profile is a pure function of its inputs, its flags and the as-run profile,
 * so the last replay per task run and profile is kept with a hash of those and reused while they stay
 * the same. Everything else (findings, verdicts, stall tables) is computed afresh each time, exactly
 * as `analyze` does. The memo holds one replay per task run and profile: what the run holds, no more.
 */
export function createReplayMemo(): ReplayMemo & {readonly stats: {hits: number; misses: number}} {
  const cache = new Map<string, {key: string; replay: TaskReplay}>()
  // a snapshot's task runs are new objects each time, but their inputs are hashed once per snapshot
  const hashes = new WeakMap<TaskInputs, string>()
  const stats = {hits: 0, misses: 0}
  return {
    stats,
    replay({task, inputs, profile, asRun}, compute) {
      let inputsKey = hashes.get(inputs)
      if (inputsKey === undefined) hashes.set(inputs, (inputsKey = createHash('sha256').update(JSON.stringify(inputs)).digest('base64')))
      const slot = `${task.taskId}#${task.attempt}\u0000${profile.name}`
      const key = `${JSON.stringify(profile.flags)}\u0000${asRun === null ? '' : `${asRun.name}\u0000${JSON.stringify(asRun.flags)}`}\u0000${inputsKey}`
      const cached = cache.get(slot)
      if (cached?.key === key) {
        stats.hits++
        return cached.replay
      }
      stats.misses++
      const replay = compute()
      cache.set(slot, {key, replay})
      return replay
    },
  }
}
