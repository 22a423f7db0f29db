import type {GateReport} from '../../render/gate-report.js'
import {UsageError} from '../../shared/errors.js'

/**
 * A gate that gated no task is not a pass (docs/ci.md "Nothing passes by accident"): a PATH without
 * a GuardKit run, a glob that matched other logs, a corpus whose every run is of an era not modelled
 * would otherwise give exit 0 and a green CI check. It is an input error (exit 2) unless the caller
 * says an empty gate is fine (`--allow-empty`). A shard may be empty (a corpus smaller than the shard
 * count); `gate merge` checks the whole.
 */
export function checkNotEmpty(report: GateReport, allowEmpty: boolean, where: string): void {
  if (allowEmpty || report.shard !== null) return
  const s = report.summary
  if (s.tasks - s.skipped > 0) return
  const reasons = [...new Set(report.runs.flatMap((r) => [r.skipReason, ...r.tasks.map((t) => t.skipReason)]).filter((x): x is string => typeof x === 'string'))]
  const runs = `${s.runs} run${s.runs === 1 ? '' : 's'}`
  const found = s.tasks === 0 ? `${runs} found, but no task loop ran in ${s.runs === 1 ? 'it' : 'them'}` : `${runs} with ${s.tasks} task${s.tasks === 1 ? '' : 's'}, every one skipped${reasons.length === 0 ? '' : ` (${reasons.slice(0, 2).join('; ')})`}`
  throw new UsageError(
    `Nothing was gated in ${where}: ${found}. An empty gate does not pass.`,
    'Try: guardkit-replay inspect PATH to see what was found there; --allow-empty accepts a gate with no task.',
  )
}
