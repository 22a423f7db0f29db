import {pyTruthy} from '../../logic/python/strings.js'
import type {Evidence} from '../../model/evidence.js'
import {draft, fixedBy, formatTurns, type FamilyInput, type FindingDraft} from '../draft.js'
import {turnPromises} from '../promises.js'
import {flagsOfProfile} from '../recorded-stall.js'
import {guardkitOf} from '../diagnosis/guardkit-changes.js'
import {artifactEvidence, asObject, criteriaTotal, hasKey, playerReport, taskWorkResultsByTurn, turnTimes} from '../record-facts.js'

const DIRECT_SYNTHETIC_NOTES = /^Direct mode SDK invocation completed \(git-detected/

/**
 * Synthetic Player reports (seed 001): the direct-mode report built from git detection when the SDK
 * wrote none, and the state-recovery report. SYNTHETIC_FLAG_MISSING and
 * SYNTHETIC_REPORT_WITHOUT_PROMISES read the log's report-source records, the 0/N dump and the
 * artifacts the Coach read; DIRECT_MODE_WITH_CRITERIA reads the mode and the criteria count.
 */
export function detectSyntheticFindings(input: FamilyInput): FindingDraft[] {
  return [...syntheticFindings(input), ...directModeWithCriteria(input)]
}

interface SyntheticTurn {
  readonly turn: number
  readonly source: 'direct-synthetic' | 'state-recovery'
  readonly flagSeen: boolean | null
  readonly promises: readonly unknown[] | null
  readonly dumpStrategy: string | null
  /**
   * The records say GuardKit gave the report promises of its own: the 0/N dump lists some, or the state recovery's
   * `Building synthetic report … Generating file-existence|git-analysis promises` line says it made them and no dump
   * says the list came out empty (git analysis makes none when git shows no changed file; docs/guardkit-logic.md §5.4, §5.5).
   */
  readonly promisesGenerated: boolean
  /** The Coach verified a criterion on the turn, or approved it: the report was not one that could verify nothing. */
  readonly criteriaVerified: boolean
  readonly evidence: readonly Evidence[]
}

const GENERATING_PROMISES = /\bGenerating (?:file-existence|git-analysis) promises\b/

function syntheticTurns(input: FamilyInput): SyntheticTurn[] {
  const twrByTurn = taskWorkResultsByTurn(input.task)
  const out: SyntheticTurn[] = []
  for (const t of input.task.turns) {
    const {final} = playerReport(t)
    const report = asObject(final?.json)
    const twr = asObject(twrByTurn.get(t.turn)?.json)
    const notesSay = typeof report?.['implementation_notes'] === 'string' && DIRECT_SYNTHETIC_NOTES.test(report['implementation_notes'] as string)
    const logged = t.player.reportSource?.value
    const dump = t.coach.diagnosticDump?.value ?? null
    // `matching_strategy: synthetic (no promises)` (docs/guardkit-logic.md §7.2): the Coach itself says it read a synthetic report without promises.
    const dumpSays = dump?.matchingStrategy.startsWith('synthetic') ?? false
    const source = logged === 'direct-synthetic' || notesSay
      ? 'direct-synthetic'
      : (logged === 'state-recovery' && (pyTruthy(report?.['_synthetic']) || pyTruthy(twr?.['_synthetic']))) || dumpSays
        ? 'state-recovery'
        : null
    if (!source) continue
    const flagSeen = dump?.synthetic ?? (twr ? pyTruthy(twr['_synthetic']) : report && hasKey(report, '_synthetic') ? pyTruthy(report['_synthetic']) : null)
    const p = turnPromises(input.task, t)
    const evidence: Evidence[] = [
      ...(t.player.reportSource?.evidence ?? []),
      ...(t.coach.diagnosticDump?.evidence ?? []),
      ...(final ? [artifactEvidence(final)] : []),
      ...(twrByTurn.get(t.turn) ? [artifactEvidence(twrByTurn.get(t.turn)!)] : []),
    ]
    const dumpListed = dump === null ? null : dumpPromises(dump.completionPromises)
    const building = input.task.events.some((e) => e.kind === 'other' && e.name === 'synthetic-report-build' && e.turn === t.turn && GENERATING_PROMISES.test(e.detail))
    const promisesGenerated = dumpListed === true || (building && dumpListed !== false)
    const criteriaVerified = (t.coach.verified?.value ?? 0) > 0 || (t.coach.criteriaMet?.value ?? 0) > 0 || t.coach.decision?.value === 'approve'
    out.push({turn: t.turn, source, flagSeen, promises: p.seen, dumpStrategy: dump?.matchingStrategy ?? null, promisesGenerated, criteriaVerified, evidence})
  }
  return out
}

/** Whether the 0/N dump's `completion_promises:` value lists promises (true), says there were none (false), or cannot tell (null). */
function dumpPromises(value: string): boolean | null {
  const v = value.trim()
  if (v === '') return null
  if (/^\(empty\)$|^\[\s*\]$|^None$/.test(v)) return false
  return v.startsWith('[') ? true : null
}

function syntheticFindings(input: FamilyInput): FindingDraft[] {
  const turns = syntheticTurns(input)
  const out: FindingDraft[] = []
  const missingFlag = turns.filter((t) => t.source === 'direct-synthetic' && t.flagSeen === false)
  if (missingFlag.length) {
    const ts = missingFlag.map((t) => t.turn)
    out.push(
      draft(input, {
        code: 'SYNTHETIC_FLAG_MISSING',
        severity: 'high',
        turns: ts,
        message: `On ${formatTurns(ts)} the Player's report was synthetic (built from git detection because the SDK wrote none), but the Coach read it with _synthetic: False, so it never took the file-existence path built for synthetic reports.`,
        evidence: missingFlag.flatMap((t) => t.evidence),
        remediation: 'Run the task in task-work mode (implementation_mode: task-work in the task or feature YAML), whose Player writes its own report; GuardKit 5c1aea32 carries _synthetic through to the Coach.',
        fixedIn: fixedBy('directSyntheticFlag', 'directReportKeepsSynthetic'),
        source: {function: 'AgentInvoker._create_synthetic_direct_mode_report / _write_direct_mode_results', spec: '§5.2, §5.3 (D13-D15)'},
      }),
    )
  }
  const noPromises = turns.filter((t) => (t.promises === null || t.promises.length === 0) && !t.promisesGenerated && !t.criteriaVerified)
  if (noPromises.length) {
    const ts = noPromises.map((t) => t.turn)
    const direct = noPromises.some((t) => t.source === 'direct-synthetic')
    const scaffolding = input.task.taskType?.value === 'scaffolding'
    const recordedReport = noPromises.every((t) => t.promises !== null || t.dumpStrategy !== null)
    out.push(
      draft(input, {
        code: 'SYNTHETIC_REPORT_WITHOUT_PROMISES',
        severity: 'high',
        turns: ts,
        message: `On ${formatTurns(ts)} the Coach was given a synthetic ${direct ? 'direct-mode' : 'state-recovery'} report with no completion_promises, so none of the ${criteriaTotal(input.task) ?? 'N'} criteria could be verified from it whatever the Player had done.`,
        evidence: noPromises.flatMap((t) => t.evidence),
        remediation: direct
          ? 'Run the task in task-work mode (implementation_mode: task-work), whose Player writes promises; a direct-mode synthetic report carries none before GuardKit 71a5fb57, and after it only for scaffolding tasks.'
          : recoveryAdvice(input, ts),
        fixedIn: direct && scaffolding ? fixedBy('directSyntheticPromises', 'directSyntheticFlag', 'directReportKeepsSynthetic') : null,
        source: direct
          ? {function: 'AgentInvoker._create_synthetic_direct_mode_report', spec: '§5.2 (D13)'}
          : {function: 'AutoBuildOrchestrator._build_synthetic_report', spec: '§5.4'},
        ...(recordedReport ? {} : {deduction: 'the report itself is not in the records; at this era the synthetic builder writes no promises'}),
        detail: {turns: noPromises.map((t) => ({turn: t.turn, source: t.source, strategy: t.dumpStrategy})), scaffolding},
      }),
    )
  }
  return out
}

/**
 * DIRECT_MODE_WITH_CRITERIA: two or more acceptance criteria in direct mode (certain). Not reported
 * for a task that was approved on reports its Player wrote itself: there the combination did no harm.
 */
function directModeWithCriteria(input: FamilyInput): FindingDraft[] {
  const {task} = input
  if (task.mode?.value !== 'direct') return []
  const total = criteriaTotal(task)
  if (total === null || total < 2) return []
  const synthetic = task.turns.some((t) => t.player.reportSource?.value === 'direct-synthetic' || t.player.reportSource?.value === 'state-recovery')
  if (task.outcome?.value === 'approved' && !synthetic) return []
  const explicit = task.taskFile?.frontmatter['implementation_mode'] === 'direct'
  // the guard is no fix to name for a run whose GuardKit already had it (by its era or date, docs/logic-changes.md)
  const guard = flagsOfProfile(input.asRun).acCountGuard || guardkitOf(input)('acCountGuard') === true
  // a run older than the modelled window: what its records say (how the Player was invoked), not the February 2026
  // logic (the implementation_mode setting, its auto-detection, the acCountGuard) that no record of it shows
  const older = !input.era.modelled && input.era.window.from === null && input.era.window.to !== null
  if (older && !explicit) return [outsideWindow(input, total)]
  return [
    draft(input, {
      code: 'DIRECT_MODE_WITH_CRITERIA',
      severity: 'medium',
      turns: [],
      reproduceTurn: null,
      message: `The task has ${total} acceptance criteria but ran in direct mode${explicit ? ' (set explicitly in its frontmatter)' : ''}; ${whenNoReport(task)}`,
      evidence: [...task.mode.evidence, ...(task.criteria?.evidence ?? [])],
      remediation: 'Set implementation_mode: task-work for tasks with two or more acceptance criteria (task frontmatter or feature YAML).',
      fixedIn: explicit || guard ? null : fixedBy('acCountGuard'),
      source: {function: 'generate_feature_yaml / AgentInvoker._auto_detect_direct_mode', spec: '§9.1, §9.2 (D17)'},
      detail: {criteria: total, explicit, complexity: task.complexity?.value ?? null},
    }),
  ]
}

/**
 * DIRECT_MODE_WITH_CRITERIA for a run older than the modelled window with no `implementation_mode` record: the records
 * show the Player invoked via the direct SDK on a task with criteria; the setting, its auto-detection and the guard
 * that fixed it are the February 2026 logic's (docs/logic-changes.md), so no fix is named and no setting is advised.
 */
function outsideWindow(input: FamilyInput, total: number): FindingDraft {
  const {task} = input
  return draft(input, {
    code: 'DIRECT_MODE_WITH_CRITERIA',
    severity: 'medium',
    turns: [],
    reproduceTurn: null,
    message: `The task has ${total} acceptance criteria and its Player was invoked via the direct SDK (the log says so); this run is older than the modelled window, so whether its GuardKit had an implementation_mode setting or chose direct mode by itself is not in its records.`,
    evidence: [...task.mode!.evidence, ...(task.criteria?.evidence ?? [])],
    remediation: '',
    fixedIn: null,
    source: {function: 'AgentInvoker (direct SDK invocation, as logged)', spec: '§9.1'},
    detail: {criteria: total, explicit: false, complexity: task.complexity?.value ?? null, outsideModelledWindow: true},
  })
}

/**
 * What GuardKit does when the direct-mode Player writes no report, as far as this task's records say: where its state
 * recovery logged that it generated promises for the report it built (file existence for a scaffolding task, git
 * analysis for another type; docs/guardkit-logic.md §5.4), the report had promises of GuardKit's making, not none.
 */
function whenNoReport(task: FamilyInput['task']): string {
  const kinds = new Set<string>()
  for (const e of task.events) {
    const m = e.kind === 'other' && e.name === 'synthetic-report-build' ? GENERATING_KIND.exec(e.detail) : null
    if (m !== null) kinds.add(m[1]!)
  }
  if (kinds.size === 0) return 'when the direct-mode Player writes no report of its own, GuardKit builds one from git with no promise for any criterion.'
  const which = [...kinds].sort().join(' or ')
  return `when the Player wrote no report of its own, GuardKit built one from git and generated ${which} promises for it itself (its log says so), which verify a criterion only where that evidence shows it.`
}

const GENERATING_KIND = /\bGenerating (file-existence|git-analysis) promises\b/

/**
 * What to do about a state-recovery report depends on why the Player did not write its own: more
 * time helps a Player that timed out, never one that failed at once (an authentication or harness
 * error), so the advice follows what the log says made it fail. A report GuardKit did not find after a
 * session of some length is neither: the agent wrote it elsewhere or stopped before writing it.
 */
function recoveryAdvice(input: FamilyInput, turns: readonly number[]): string {
  const timedOut = input.task.events.some((e) => e.kind === 'player-timeout' && e.turn !== null && turns.includes(e.turn))
  const tail = 'a recovered report carries promises only for scaffolding (file existence) or via git analysis.'
  if (timedOut) return `Give the Player enough time to write its own report (raise --sdk-timeout or split the task); ${tail}`
  const reason = input.task.turns.find((t) => turns.includes(t.turn) && t.stateRecovery?.value.reason)?.stateRecovery?.value.reason
  if (!reason) return `Find out why the Player wrote no report of its own on ${formatTurns(turns)} (the lines before the state recovery say it); ${tail}`
  const quoted = reason.length > 160 ? `${reason.slice(0, 157)}…` : reason
  if (/report not found|did not write player_turn|report missing/i.test(reason)) {
    return `Find out why the agent left no player_turn_N.json where GuardKit reads it (the log says: "${quoted}"): it wrote the report elsewhere or ended its session before writing it; ${tail}`
  }
  const atOnce = failedAtOnce(input, turns) ? '; more time will not help a Player that failed at once' : ''
  return `Fix what made the Player fail (the log says: "${quoted}")${atOnce}; ${tail}`
}

/** Every listed turn whose span the log dates failed within a minute of its start (and at least one is dated). */
function failedAtOnce(input: FamilyInput, turns: readonly number[]): boolean {
  const times = turnTimes(input.task)
  const spans = turns.map((t) => times.get(t)).filter((x) => x !== undefined && x.start !== null && x.end !== null).map((x) => (x!.end! - x!.start!) / 1000)
  return spans.length > 0 && spans.every((s) => s <= 60)
}
