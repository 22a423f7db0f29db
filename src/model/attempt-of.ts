import type {RunAttempt, RunRecord} from './run-record.js'

/**
 * The attempt of a view of one attempt's task runs (docs/architecture.md "Streaming"): a view built
 * for one attempt may carry it here, and `attemptOf` then finds it without reading the run's list
 * of attempts — which lets an attempt be analysed before the rest of the log is read.
 */
export const VIEW_ATTEMPT: unique symbol = Symbol('the attempt of a view')

/** A run, or a view of one attempt's task runs that carries its attempt. */
export type RunView = RunRecord & {readonly [VIEW_ATTEMPT]?: RunAttempt}

/**
 * The first attempt (AutoBuild run) numbered `attempt` that passes `also`. A view's own attempt is the
 * only one of its number: ingest numbers a run's attempts once each.
 */
export function attemptOf(run: RunView, attempt: number, also: (a: RunAttempt) => boolean = () => true): RunAttempt | undefined {
  const own = run[VIEW_ATTEMPT]
  if (own !== undefined && own.attempt === attempt) return also(own) ? own : undefined
  return run.attempts.find((a) => a.attempt === attempt && also(a))
}
