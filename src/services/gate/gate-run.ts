import {analyzeRun} from '../../explain/analyze-run.js'
import type {ExpectationEntry} from '../../explain/gate/expectations.js'
import {gateTask, type GateSubject} from '../../explain/gate/gate-task.js'
import type {GatePolicy} from '../../explain/gate/types.js'
import {createSyncFilePort, type IngestLimits} from '../../ingest/index.js'
import type {LogicFlags} from '../../logic/changes.js'
import {builtinProfile, type Profile} from '../../logic/profiles.js'
import type {RunRecord} from '../../model/run-record.js'
import type {GateRun} from '../../render/gate-report.js'
import {UsageError} from '../../shared/errors.js'
import {loadRun} from '../load-run.js'

/**
 * A baseline or candidate as the command resolved it, before any run is read: a profile with its
 * flags (built-in, `as-run:<commit>`, the user's), `as-run` (each run's inferred profile), or
 * `recorded`. Plain data: it crosses to worker threads.
 */
export type SubjectSpec =
  | {readonly kind: 'recorded'}
  | {readonly kind: 'as-run'}
  | {readonly kind: 'profile'; readonly name: string; readonly description: string; readonly flags: LogicFlags}

/** What every run of one gate shares. Plain data. */
export interface GateSettings {
  readonly baseline: SubjectSpec
  readonly candidate: SubjectSpec
  readonly policy: GatePolicy
  readonly limits?: IngestLimits
}

/** One run to gate: where it is, how the report names it, and the expectations for its tasks. */
export interface RunJob {
  readonly abs: string
  readonly path: string
  readonly expectations: readonly {readonly taskId: string; readonly attempt: number | null; readonly entry: ExpectationEntry}[]
}

const port = createSyncFilePort()

/**
 * Read one run and gate every task in it (the unit of work a worker thread does). A run holding
 * nothing recognisable is reported as skipped, with the reason; other failures are bugs.
 */
export async function gateRunJob(job: RunJob, settings: GateSettings): Promise<GateRun> {
  let run: RunRecord
  try {
    // read by absolute path, named as the report names it (reproduce commands, findings)
    run = {...(await loadRun(job.abs, {port, ...(settings.limits ? {limits: settings.limits} : {})})), path: job.path}
  } catch (error) {
    if (error instanceof UsageError) return unreadable(job, 0, error.message)
    throw error
  }
  const why = unrecognisable(run)
  if (why !== null) return unreadable(job, run.ingestIssues.length, why)
  const asProfile = (s: SubjectSpec): Profile[] => (s.kind === 'profile' ? [{name: s.name, description: s.description, flags: s.flags}] : [])
  // the two subjects, and `fixed`, which the findings read; the spine puts the era's profile first
  const report = analyzeRun(run, {profiles: {kind: 'profiles', profiles: [...asProfile(settings.baseline), ...asProfile(settings.candidate), builtinProfile('fixed')!]}})
  const {era} = report
  const asRun = era.modelled && era.profile !== null ? (report.profiles.find((p) => p.name === era.profile) ?? null) : null
  const asRunFlags = asRun === null ? null : (builtinProfile(asRun.name)?.flags ?? null)
  const subject = (s: SubjectSpec): GateSubject => {
    if (s.kind === 'recorded') return {kind: 'recorded'}
    if (s.kind === 'profile') return {kind: 'profile', profile: {name: s.name, description: s.description, flags: s.flags}}
    if (asRun !== null && asRunFlags !== null) return {kind: 'profile', profile: {name: asRun.name, description: asRun.description, flags: asRunFlags}}
    return {kind: 'unavailable', name: 'as-run', reason: era.modelled ? 'the records allow no era profile to be inferred' : `not modelled (${era.reason})`}
  }
  const baseline = subject(settings.baseline)
  const candidate = subject(settings.candidate)
  const tasks = report.tasks.map((analysis) =>
    gateTask({analysis, runPath: run.path, era, baseline, candidate, policy: settings.policy, expectation: expectationOf(job, analysis.task.taskId, analysis.task.attempt), asRunFlags}),
  )
  return {
    path: job.path,
    era: {profile: era.profile, modelled: era.modelled, confidence: era.confidence, reason: era.reason},
    ingestIssues: run.ingestIssues.length,
    skipReason: null,
    tasks,
  }
}

function expectationOf(job: RunJob, taskId: string, attempt: number): ExpectationEntry | null {
  const list = job.expectations
  return (list.find((e) => e.taskId === taskId && e.attempt === attempt) ?? list.find((e) => e.taskId === taskId && e.attempt === null))?.entry ?? null
}

/** The same test as analyze's: a log with an AutoBuild run, or a worktree. */
function unrecognisable(run: RunRecord): string | null {
  if (run.logs.length === 0 && run.worktrees.length === 0) return 'no AutoBuild log or worktree found in it'
  if (run.attempts.length === 0 && run.tasks.length === 0 && run.worktrees.length === 0) return `no AutoBuild run found in ${run.logs.join(', ')}`
  return null
}

function unreadable(job: RunJob, issues: number, reason: string): GateRun {
  return {path: job.path, era: null, ingestIssues: issues, skipReason: reason, tasks: []}
}
