import type {GatePolicy, GateSummary, GateTask} from './types.js'

/** What the summary needs of a run: its tasks, and why none could be gated (null: they could). */
export interface SummarisableRun {
  readonly skipReason: string | null
  readonly tasks: readonly GateTask[]
}

/**
 * Counts per class and the verdict: `fail` when any task counts against it (regressed, or a class
 * `--fail-on` tightens), or, with `--fail-on skipped`, a run could not be read at all.
 */
export function summariseGate(runs: readonly SummarisableRun[], policy: GatePolicy): {summary: GateSummary; verdict: 'pass' | 'fail'} {
  const tasks = runs.flatMap((r) => r.tasks)
  const count = (c: GateTask['classification']): number => tasks.filter((t) => t.classification === c).length
  const unreadable = policy.failOn.includes('skipped') ? runs.filter((r) => r.skipReason !== null).length : 0
  const failing = tasks.filter((t) => t.failing).length + unreadable
  return {
    summary: {
      runs: runs.length,
      tasks: tasks.length,
      unchanged: count('unchanged'),
      improved: count('improved'),
      regressed: count('regressed'),
      changed: count('changed'),
      skipped: count('skipped'),
      failing,
      approximate: tasks.filter((t) => t.approximate).length,
    },
    verdict: failing > 0 ? 'fail' : 'pass',
  }
}
