import type {FailOn, GatePolicy, GateSummary, GateTask} from '../explain/gate/types.js'

export type {
  FailOn,
  GateClass,
  GateEffect,
  GateExpectationResult,
  GateFinding,
  GateOutcomeKind,
  GatePolicy,
  GateReason,
  GateRule,
  GateSide,
  GateSummary,
  GateTask,
  GateTurnCell,
  GateTurnRow,
} from '../explain/gate/types.js'

/**
 * The report of `guardkit-replay gate` (docs/ci.md): what every gate renderer draws from (text,
 * Markdown, JUnit, GitHub annotations, HTML) and, as it is, the `--json` document that
 * `gate merge` reads back. Plain JSON: no Dates, no Maps, no undefined values. Stable: fields are
 * only added (a consumer ignores fields it does not know); `schemaVersion` changes otherwise.
 *
 * Order is canonical: runs by `path` (code points), tasks in the run's log order; so the report
 * of a whole corpus equals the merge of its shards field for field, except `shard`/`merged`.
 */
export interface GateReport {
  readonly schemaVersion: 1
  readonly kind: 'guardkit-replay/gate'
  readonly tool: {readonly name: string; readonly version: string}
  readonly baseline: GateSubjectInfo
  readonly candidate: GateSubjectInfo
  readonly policy: GatePolicy
  /**
   * This report covers shard `index` of `count` (1-based); null: the whole corpus. `runs`: the runs the
   * shard was given (paths, in corpus order), so that `gate merge` can tell a run missing from the
   * report (absent in reports written before it was added).
   */
  readonly shard: {readonly index: number; readonly count: number; readonly runs?: readonly string[]} | null
  /** Set by `gate merge`: the shards merged (null otherwise). */
  readonly merged: {readonly shards: number; readonly files: readonly string[]} | null
  /** The PATH arguments as given. */
  readonly inputs: readonly string[]
  /** expectations.yaml files read, relative to the working directory. */
  readonly expectations: readonly string[]
  readonly summary: GateSummary
  /** `fail` when any task (or, with `--fail-on skipped`, any run) counts against it: exit 1. */
  readonly verdict: 'pass' | 'fail'
  readonly runs: readonly GateRun[]
  /** Things about the inputs a person should know: unreadable runs, stale expectations. */
  readonly problems: readonly GateProblem[]
}

/** A baseline or candidate: a profile (built-in or the user's), the era's own profile, or the record. */
export interface GateSubjectInfo {
  /** `legacy`, `fixed`, `as-run:<commit>`, a user profile, `as-run` (each run's inferred profile) or `recorded`. */
  readonly name: string
  readonly kind: 'profile' | 'as-run' | 'recorded'
  readonly description: string
  /** The logic changes switched on (null for `as-run` and `recorded`: they depend on the run). */
  readonly flags: readonly string[] | null
}

export interface GateRun {
  /** The run as found (a directory or a log file), relative to the working directory, `/`-separated. */
  readonly path: string
  readonly era: {
    readonly profile: string | null
    readonly modelled: boolean
    readonly confidence: 'high' | 'medium' | 'low'
    readonly reason: string
  } | null
  readonly ingestIssues: number
  /** Why no task of the run could be gated (nothing recognisable in it), else null. */
  readonly skipReason: string | null
  readonly tasks: readonly GateTask[]
}

export interface GateProblem {
  readonly severity: 'error' | 'warning'
  /** The run or file it is about. */
  readonly path: string
  readonly message: string
}

/** Sorted, de-duplicated `--fail-on` values. */
export function normaliseFailOn(values: readonly FailOn[]): FailOn[] {
  return [...new Set(values)].sort()
}
