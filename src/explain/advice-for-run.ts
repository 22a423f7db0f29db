import {commitIndex} from '../logic/change-registry/commits.js'
import {LOGIC_CHANGES} from '../logic/changes.js'
import {attemptOf} from '../model/attempt-of.js'
import type {Evidence, Fact} from '../model/evidence.js'
import type {RunRecord, TaskRun} from '../model/run-record.js'
import type {GuardkitChanges} from './diagnosis/catalogue/rule.js'

/**
 * Advice is never what the run already did (docs/findings.md, "Remediations"): a remediation — a
 * family's or a catalogue rule's action — that names an option the run's own records show in effect
 * is rewritten to say so, citing the record, instead of advising it again. Applied to every finding
 * of a task once the families are done, so the per-finding fix, `do now` and --json agree.
 *
 * - `--fresh`: the run's start record says `fresh=True`. The clause advising it is replaced by the
 *   record: the failure happened in a run that already started fresh.
 * - `--sdk-timeout`: the run's start or init record gives its SDK timeout. Raising it is still
 *   advice, but only above the value the run already had, which is named.
 * - `autobuild.coach.test_execution: sdk`: the Coach's `Test execution environment` record says
 *   `coach_test_execution=sdk`. The clause advising it is replaced by the record, and by how the
 *   Coach then ran its tests (`Running independent tests via …`) when the finding's turns say.
 * - `--max-parallel`: the run's start record says `max_parallel=1`. Advice to lower it, or to run fewer tasks in
 *   parallel, is replaced by the record: there is no lower setting.
 * - `GuardKit <sha>+` / `upgrade GuardKit … <sha>`: the run's era says its GuardKit already had that commit (the
 *   analysis' `guardkit`, read as draft.ts reads it for "fixed in"). The upgrade is replaced by that reading, labelled
 *   as the era's; where the era cannot tell, the advice stays.
 */
export function adviceForRun(run: RunRecord, task: TaskRun, turns: readonly number[], remediation: string, guardkit?: GuardkitChanges): string {
  if (remediation === '') return remediation
  const settings = attemptOf(run, task.attempt)?.settings
  let text = remediation
  const fresh = settings?.fresh
  if (fresh?.value === true && /--fresh\b/.test(text)) {
    text = replaceClause(text, /--fresh\b/, `the run already started with --fresh (${at(fresh)}), and that did not prevent it`)
  }
  const execution = settings?.coachTestExecution
  if (execution?.value === 'sdk' && TEST_EXECUTION_SDK.test(text)) {
    const note = testExecutionNote(task, turns, execution)
    if (note !== '') text = replaceClause(text, TEST_EXECUTION_SDK, note)
  }
  const sdk = settings?.sdkTimeoutSeconds
  if (sdk != null && /(?<!not )\braise --sdk-timeout\b(?! above)/i.test(text)) {
    text = text.replace(/(?<!not )\b(raise) --sdk-timeout\b(?! above)/i, (_m, verb: string) => `${verb} --sdk-timeout above the ${sdk.value} s this run already had (${at(sdk)})`)
  }
  const parallel = settings?.maxParallel
  if (parallel?.value === 1 && PARALLEL_ADVICE.test(text)) text = parallelHad(text, parallel)
  if (guardkit !== undefined) text = upgradesHad(text, guardkit)
  return text
}

/** Advice to run fewer tasks at once, as remediations word it. */
const PARALLEL_ADVICE = /--max-parallel\b|\bmax-parallel low\b|\bfewer parallel tasks\b/i

/** The run had max_parallel=1: the steps that lower it go, the others stay, and the record is said. */
function parallelHad(remediation: string, parallel: Fact<number>): string {
  const note = `the run already had max_parallel=1 (${at(parallel)}), so there is no lower setting`
  // steps that share their clause with others: only the step goes
  let text = remediation
    .replace(/,? and max-parallel low\b/gi, '')
    .replace(/ or with fewer parallel tasks\b/gi, '')
    .replace(/\b[Ll]ower --max-parallel(?: \([^)]*\))?, (\w)/g, (_m, next: string) => next.toUpperCase())
  if (PARALLEL_ADVICE.test(text)) text = replaceClause(text, PARALLEL_ADVICE, note)
  else text = /[.]$/.test(text) ? `${text.slice(0, -1)}; ${note}.` : `${text}; ${note}`
  return text
}

/**
 * Upgrades to a commit the run's GuardKit already had, by its era: a clause whose subject is `GuardKit <sha>+` or that
 * says to upgrade GuardKit to it is replaced; `GuardKit <sha>+` qualifying a setting in parentheses is replaced in place.
 */
function upgradesHad(remediation: string, has: GuardkitChanges): string {
  let text = remediation
  const shas = [...new Set([...text.matchAll(/\bGuardKit ([0-9a-f]{7,8})\+|\bupgrad\w* GuardKit\b[^.;]*?\b([0-9a-f]{8})\b/gi)].map((m) => (m[1] ?? m[2])!))]
  for (const sha of shas) {
    if (!hadCommit(sha, has)) continue
    const note = `this run's GuardKit already had ${sha} (by its era), so upgrading to it is not the fix`
    text = text.replace(new RegExp(`,\\s*GuardKit ${sha}\\+(?=\\))`, 'g'), `; by its era this run's GuardKit already had ${sha}`)
    const clause = new RegExp(`\\bGuardKit ${sha}\\+ \\w|\\bupgrad\\w* GuardKit\\b[^.;]*?\\b${sha}\\b`, 'i')
    for (let i = 0; i < 4 && clause.test(text); i++) text = replaceClause(text, clause, note)
  }
  return text
}

/** The run's GuardKit had the commit: a change of the registry that landed in it is one the run had. */
function hadCommit(sha: string, has: GuardkitChanges): boolean {
  const at = commitIndex(sha)
  return at >= 0 && LOGIC_CHANGES.some((c) => commitIndex(c.commit) === at && has(c.id) === true)
}

/** `autobuild.coach.test_execution: sdk` as remediations name it. */
const TEST_EXECUTION_SDK = /autobuild\.coach\.test_execution: ?sdk\b/

/**
 * The run had the SDK setting; how the Coach ran its tests on the finding's turns, when recorded. GuardKit
 * takes the subprocess path despite the setting when the task declares infrastructure or the API base is
 * not Anthropic's (docs/guardkit-logic.md §6.4): which of the two, the log does not say, so neither is named as the reason.
 */
function testExecutionNote(task: TaskRun, turns: readonly number[], execution: Fact<string>): string {
  const mine = task.turns.filter((t) => turns.length === 0 || turns.includes(t.turn))
  const via = mine.map((t) => t.coach.testVia).find((v): v is Fact<string> => v != null && v.value !== 'sdk')
  // the record of this task's own validation: the last one before the test run cited, else before the task's last turn ended
  const own = ownRecord(execution.evidence, via?.evidence[0] ?? lastEvidence(mine))
  if (own === undefined) return ''
  const head = `the run already had autobuild.coach.test_execution: sdk (coach_test_execution=sdk, ${own.file}:${own.line ?? '?'})`
  if (via === undefined) return `${head}, and that did not prevent it`
  return `${head}, yet the Coach ran its tests via ${via.value} (${at(via)}): GuardKit runs them in a subprocess despite the setting when the task declares requires_infrastructure or ANTHROPIC_BASE_URL is not Anthropic's (docs/guardkit-logic.md §6.4)`
}

 /** The latest of `records` in the file of `before` and at or before its line; none when `before` is unknown. */
function ownRecord(records: readonly Evidence[], before: Evidence | undefined): Evidence | undefined {
  if (before === undefined) return undefined
  return records.filter((e) => e.file === before.file && (e.line ?? 0) <= (before.line ?? 0)).reduce<Evidence | undefined>((a, e) => (a === undefined || (e.line ?? 0) > (a.line ?? 0) ? e : a), undefined)
}

/** The latest line a turn's Coach records cite. */
function lastEvidence(turns: readonly TaskRun['turns'][number][]): Evidence | undefined {
  const all = turns.flatMap((t) => [...(t.coach.decision?.evidence ?? []), ...(t.coach.gates?.evidence ?? []), ...(t.coach.independentTests?.evidence ?? [])])
  return all.reduce<Evidence | undefined>((a, e) => (a === undefined || (e.line ?? 0) > (a.line ?? 0) ? e : a), undefined)
}

function at(f: {readonly evidence: readonly Evidence[]}): string {
  const e = f.evidence[0]
  return e === undefined ? 'its record' : `${e.file}:${e.line ?? '?'}`
}

/**
 * In the sentence that names `what`, the clause naming it (clauses: split at `, or`, `, and`, `; or`, `; otherwise`, `;`)
 * is replaced by `note`, which then closes the sentence; a sentence that is only that clause becomes the note.
 */
function replaceClause(text: string, what: RegExp, note: string): string {
  const sentences = text.split(/(?<=\.)\s+(?=[A-Z])/)
  const i = sentences.findIndex((s) => what.test(s))
  if (i < 0) return text
  const sentence = sentences[i]!.replace(/\.$/, '')
  const parts = sentence.split(/(,\s+or\s+|,\s+and\s+|;\s+or\s+|;\s+otherwise\s+|;\s+|,\s+otherwise\s+)/)
  const clauses = parts.filter((_, j) => j % 2 === 0)
  const seps = parts.filter((_, j) => j % 2 === 1)
  const k = clauses.findIndex((c) => what.test(c))
  const kept: string[] = []
  for (let j = 0; j < clauses.length; j++) {
    if (j === k) continue
    // the separator before a clause is the one between it and the clause before; the first clause kept has none
    const sep = kept.length === 0 ? '' : j - 1 === k ? (seps[j - 2] ?? '; ') : seps[j - 1]!
    kept.push(`${sep}${clauses[j]!}`)
  }
  const rest = kept.join('')
  sentences[i] = rest === '' ? `${capitalise(note)}.` : `${capitalise(rest)}; ${note}.`
  return sentences.join(' ')
}

function capitalise(s: string): string {
  return s.length === 0 ? s : `${s[0]!.toUpperCase()}${s.slice(1)}`
}
