import {changeById, isFlagId, type FlagId} from '../logic/changes.js'
import {commitIndex} from '../logic/change-registry/commits.js'
import type {Evidence} from '../model/evidence.js'
import type {Finding, FindingCode, Severity} from '../model/finding.js'
import type {RunRecord, TaskRun} from '../model/run-record.js'
import type {RootCause} from '../model/root-cause.js'
import type {EraInference, TaskReplay} from '../replay/types.js'
import type {Catalogue, GuardkitChanges} from './diagnosis/catalogue/rule.js'
import {CODE_CLASSES} from './diagnosis/code-classes.js'
import {guardkitOf} from './diagnosis/guardkit-changes.js'

/**
 * What every finding family receives: a family is a pure function of the record, the task, the
 * replays by profile and the era, so that the same run always gives the same findings. `asRun` names the profile inferred for the run's era, when the
 * run's records allow one; it is one of the keys of `replays` when that replay was run.
 */
export interface FamilyInput {
  readonly run: RunRecord
  readonly task: TaskRun
  readonly replays: Readonly<Record<string, TaskReplay>>
  readonly era: EraInference
  readonly asRun: string | null
  /** The signal catalogue (built-in rules, after the user's `--signals` rules); the built-in one when absent. */
  readonly catalogue?: Catalogue
  /**
   * Which logic changes the run's GuardKit had, as far as its era tells (diagnosis/guardkit-changes.ts): what a
   * finding may advise (an upgrade the run already had is not advice); from the era's commit window when absent.
   */
  readonly guardkit?: GuardkitChanges
}

/**
 * A finding before the report numbers it: `key` is unique within a task run, `causeKeys` are
 * resolved to ids by causes.ts (a cause that did not fire is dropped).
 */
export interface FindingDraft extends Omit<Finding, 'id' | 'causes'> {
  readonly key: string
  readonly causeKeys: readonly string[]
}

export interface DraftSpec {
  readonly code: FindingCode
  /** The code's category (diagnosis/code-classes.ts) unless the records say otherwise. */
  readonly category?: RootCause
  readonly severity: Severity
  readonly turns: readonly number[]
  readonly message: string
  readonly evidence: readonly Evidence[]
  readonly remediation: string
  readonly fixedIn: Finding['fixedIn']
  readonly source: Finding['source']
  /** Present exactly when the finding is inferred. */
  readonly deduction?: string
  /** The turn and profile `reproduce` should point at (default: the first turn, no profile). */
  readonly reproduceTurn?: number | null
  readonly reproduceProfile?: string | null
  readonly detail?: Readonly<Record<string, unknown>>
  /** Distinguishes two findings of one code in one task (default: none). */
  readonly keySuffix?: string
}

/** Build a draft; `confidence` follows from whether a deduction was needed. */
export function draft(input: FamilyInput, spec: DraftSpec): FindingDraft {
  const turns = uniqueSorted(spec.turns)
  const turn = spec.reproduceTurn === undefined ? (turns[0] ?? null) : spec.reproduceTurn
  return {
    key: findingKey(spec.code, spec.keySuffix),
    causeKeys: [],
    code: spec.code,
    category: spec.category ?? CODE_CLASSES[spec.code].category,
    severity: spec.severity,
    confidence: spec.deduction === undefined ? 'certain' : 'inferred',
    taskId: input.task.taskId,
    attempt: input.task.attempt,
    turns,
    message: spec.message,
    evidence: dedupeEvidence(spec.evidence),
    reproduce: reproduceCommand(input.run.path, input.task.taskId, turn, spec.reproduceProfile ?? null),
    remediation: spec.remediation,
    fixedIn: notYetHad(input, spec.fixedIn),
    source: spec.source,
    ...(spec.deduction === undefined ? {} : {deduction: spec.deduction}),
    ...(spec.detail === undefined ? {} : {detail: spec.detail}),
  }
}

/**
 * A "fixed in" names changes the run's GuardKit did not have yet: when its era or date says it had every one of them
 * (docs/logic-changes.md), the change did not prevent what the finding shows, so it is no fix to name.
 */
function notYetHad(input: FamilyInput, fixedIn: Finding['fixedIn']): Finding['fixedIn'] {
  if (fixedIn === null) return null
  const has = guardkitOf(input)
  return fixedIn.flags.every((f) => isFlagId(f) && has(f) === true) ? null : fixedIn
}

export function findingKey(code: FindingCode, suffix?: string): string {
  return suffix ? `${code}:${suffix}` : code
}

/** `guardkit-replay explain RUN --task ID [--turn N] [--profile P]`, quoted for a POSIX shell when needed. */
export function reproduceCommand(runPath: string, taskId: string, turn: number | null, profile: string | null): string {
  const parts = ['guardkit-replay', 'explain', shellQuote(runPath), '--task', shellQuote(taskId)]
  if (turn !== null) parts.push('--turn', String(turn))
  if (profile !== null) parts.push('--profile', shellQuote(profile))
  return parts.join(' ')
}

function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`
}

/** The logic change(s) that fix a finding, at the commit where the last of them landed. */
export function fixedBy(...flags: FlagId[]): NonNullable<Finding['fixedIn']> {
  const commits = flags.map((f) => changeById(f).commit)
  const commit = commits.reduce((a, b) => (commitIndex(b) > commitIndex(a) ? b : a))
  return {flags, commit}
}

export function dedupeEvidence(evidence: readonly Evidence[]): Evidence[] {
  const seen = new Set<string>()
  const out: Evidence[] = []
  for (const e of evidence) {
    const k = `${e.file}\u0000${e.line ?? ''}\u0000${e.pointer ?? ''}`
    if (seen.has(k)) continue
    seen.add(k)
    out.push(e)
  }
  return out
}

export function uniqueSorted(values: readonly number[]): number[] {
  return [...new Set(values)].sort((a, b) => a - b)
}

/** `t1`, `t3–t5, t7`: turns as the report prints them. */
export function formatTurns(turns: readonly number[]): string {
  const sorted = uniqueSorted(turns)
  const parts: string[] = []
  for (let i = 0; i < sorted.length; i++) {
    let j = i
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++
    parts.push(j > i + 1 ? `t${sorted[i]}–t${sorted[j]}` : j === i + 1 ? `t${sorted[i]}, t${sorted[j]}` : `t${sorted[i]}`)
    i = j
  }
  return parts.join(', ')
}

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`
}
