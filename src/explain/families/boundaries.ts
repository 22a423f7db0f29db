import type {Evidence} from '../../model/evidence.js'
import type {TaskEvent, TaskRun} from '../../model/run-record.js'
import {draft, fixedBy, formatTurns, plural, type FamilyInput, type FindingDraft} from '../draft.js'
import {passingPhrase, repeatRuns} from '../recorded-stall.js'
import {coachFoundNoResults, coachVerdictOn, endingFeatureTimeout, worktreeOf, feedbackByTurn, lastTurn, noVerdictPhrase, turnOf} from '../record-facts.js'

/**
 * How a task's loop ended when it was not the Coach or the stall detector that ended it: crashes,
 * Player timeouts, feature timeouts and cancellations. Log records only: works on any era.
 */
export function detectBoundaryFindings(input: FamilyInput): FindingDraft[] {
  return [...orchestrationCrash(input), ...playerTimeouts(input), ...endedByTimeout(input)]
}

/** ORCHESTRATION_CRASH: `Orchestration failed for …` or a traceback ending the run (certain). */
function orchestrationCrash(input: FamilyInput): FindingDraft[] {
  const crashes = input.task.events.filter((e): e is Extract<TaskEvent, {kind: 'orchestration-crash'}> => e.kind === 'orchestration-crash')
  if (crashes.length === 0) return []
  const first = crashes[0]!
  const partial = crashes.some((c) => /is not a valid CriterionStatus/.test(c.message))
  const turns = crashes.map((c) => c.turn).filter((t): t is number => t !== null)
  return [
    draft(input, {
      code: 'ORCHESTRATION_CRASH',
      severity: 'critical',
      turns,
      message: partial
        ? `The orchestrator crashed${first.turn !== null ? ` on turn ${first.turn}` : ''} with "${first.message}": a promise with status "partial" reached the criteria display, which legacy GuardKit cannot parse.`
        : `The orchestrator crashed${first.turn !== null ? ` on turn ${first.turn}` : ''} with "${first.message}"; the task's result is the exception, not a Coach verdict.`,
      evidence: crashes.flatMap((c) => c.evidence),
      remediation: partial
        ? 'Upgrade GuardKit to c3feae49 or later (partial is a valid CriterionStatus); until then keep git-analysis or file-existence promises from reaching the progress display, e.g. rerun the task in task-work mode.'
        : `Read the traceback at the cited line, fix its cause and rerun the task; ${playerRan(input.task) ? 'the worktree holds the Player\'s work so far' : 'no Player turn ran before it, so there is no Player work to keep'}.`,
      fixedIn: partial ? fixedBy('partialStatusEnum') : null,
      source: partial
        ? {function: 'CompletionPromise.from_dict / AutoBuildOrchestrator._display_criteria_progress', spec: '§8.6'}
        : {function: 'AutoBuildOrchestrator.orchestrate', spec: '§8.7'},
      detail: {messages: crashes.map((c) => c.message)},
    }),
  ]
}

/** Whether the records show a Player turn: a crash in the pre-loop phase (the design phase) comes before any. */
function playerRan(task: TaskRun): boolean {
  return task.turns.some((t) => t.turn > 0 && (t.player.status !== null || t.player.reportSource !== null || t.coach.decision !== null))
}

/**
 * PLAYER_TIMEOUT: the Player's invocation hit its SDK timeout or turn ceiling; state recovery stood in (certain).
 * A turn whose SDK session the log shows completing (`SDK completed: turns=N`) before the timeout did not run out
 * of time: the session had finished and GuardKit kept waiting, so the finding says so and never advises more
 * SDK time for it. The recovered report is said to be the one the Coach saw only when a Coach decision of that
 * turn is recorded (docs/findings.md, "What the Coach did").
 */
function playerTimeouts(input: FamilyInput): FindingDraft[] {
  const {task} = input
  const byTurn = new Map<number, {seconds: number | null; evidence: Evidence[]; recovery: string | null; ceiling: boolean}>()
  const add = (turn: number | null, seconds: number | null, evidence: readonly Evidence[], ceiling = false) => {
    if (turn === null) return
    const have = byTurn.get(turn) ?? {seconds: null, evidence: [], recovery: null, ceiling: false}
    byTurn.set(turn, {...have, seconds: have.seconds ?? seconds, evidence: [...have.evidence, ...evidence], ceiling: have.ceiling || ceiling})
  }
  for (const e of task.events) if (e.kind === 'player-timeout') add(e.turn, e.seconds, e.evidence)
  for (const t of task.turns) {
    const sdk = t.player.sdkTurns
    // `SDK completed: turns=63` over `Max turns: 50` is common on successful turns: a ceiling counts
    // only when a report says so (sdk_ceiling_hit) or state recovery stood in for the Player.
    const explicit = sdk?.evidence.some((e) => e.file.endsWith('.json')) ?? false
    if (sdk?.value.ceilingHit && (explicit || t.stateRecovery !== null)) add(t.turn, null, sdk.evidence, true)
  }
  if (byTurn.size === 0) return []
  for (const t of task.turns) {
    const have = byTurn.get(t.turn)
    const rec = t.stateRecovery
    if (!have || !rec) continue
    const v = rec.value
    const how = v.method ? ` via ${v.method}` : ''
    const files = v.files !== null ? `: ${plural(v.files, 'file')}, ${v.tests ?? 0} tests (${v.testsPassing ? 'passing' : 'failing'})` : ''
    byTurn.set(t.turn, {...have, recovery: `state recovery${how}${files}`, evidence: [...have.evidence, ...rec.evidence]})
  }
  const turns = [...byTurn.keys()].sort((a, b) => a - b)
  const idle = turns.filter((t) => messagesBeforeTimeout(task, t) === 0)
  const completed = new Map(turns.flatMap((t) => {
    const done = sessionCompletedBeforeTimeout(task, t, byTurn.get(t)!)
    return done === null ? [] : [[t, done] as const]
  }))
  const limit = Math.max(0, ...turns.map((t) => byTurn.get(t)!.seconds ?? 0))
  const described = turns.map((turn) => {
    const b = byTurn.get(turn)!
    const done = completed.get(turn)
    const after = b.seconds !== null ? ` after ${b.seconds} s` : ''
    const what = b.ceiling
      ? `turn ${turn} hit its SDK turn ceiling`
      : done !== undefined
        ? `turn ${turn}'s SDK session completed (${plural(done.used, 'SDK turn')}) and its invocation still timed out${after}`
        : `turn ${turn} timed out${after}`
    return `${what}${b.recovery ? `, and ${b.recovery} ${recoveredFor(task, turn, turnOf(task, turn)?.stateRecovery?.value.reason ?? null)}` : ''}`
  })
  const evidence = turns.flatMap((t) => [...byTurn.get(t)!.evidence, ...(completed.get(t)?.evidence ?? []), ...coachVerdictOn(task, t).evidence, ...(coachFoundNoResults(task, t) === null ? [] : [coachFoundNoResults(task, t)!.evidence])])
  const allCompleted = turns.every((t) => completed.has(t))
  const timedOut = turns.filter((t) => !completed.has(t) && !idle.includes(t))
  return [
    draft(input, {
      code: 'PLAYER_TIMEOUT',
      severity: 'high',
      turns,
      message: allCompleted
        ? `The Player's turn was counted as a timeout after its session had completed: ${described.join('; ')}.`
        : `The Player did not finish on its own: ${described.join('; ')}.`,
      evidence,
      remediation: timeoutAdvice(turns, idle, [...completed.keys()], timedOut, limit),
      fixedIn: null,
      source: {function: 'AgentInvoker._invoke_task_work_implement / AutoBuildOrchestrator._attempt_state_recovery', spec: '§5.4, §8.2'},
      detail: {turns: turns.map((t) => ({turn: t, ...byTurn.get(t)!, sessionCompleted: completed.has(t), evidence: undefined}))},
    }),
  ]
}

/**
 * What to do: more SDK time only for turns that ran out of it while working — never for a session that processed no
 * message (it never started) nor for one the log shows completing before the timeout (more time would not have
 * ended the wait sooner).
 */
function timeoutAdvice(turns: readonly number[], idle: readonly number[], completed: readonly number[], timedOut: readonly number[], limit: number): string {
  const notMore: string[] = []
  if (idle.length > 0) notMore.push(`on ${formatTurns(idle)} the session processed no message before the timeout, so it never started working; check the model server and the session's start-up`)
  if (completed.length > 0) notMore.push(`on ${formatTurns(completed)} the SDK session had completed before the timeout, so GuardKit kept waiting after the session's end; the turn's work is in the worktree`)
  if (timedOut.length === 0) return `Do not raise --sdk-timeout: ${notMore.join('; ')}.`
  const raise = `Raise --sdk-timeout${limit > 0 ? ` above the ${limit} s this run allowed` : ''} (or the task's complexity-based budget) or split the task; a recovered turn is judged on git state alone, so check what the Coach was given for it.`
  return notMore.length === 0 || timedOut.length === turns.length ? raise : `${raise} More time would not have helped the other turns: ${notMore.join('; ')}.`
}

/**
 * ", built the report the Coach saw" only when the Coach judged that turn and did not log that it found no task-work
 * results on it; else what the records show instead. When the Coach looked for the results in one worktree and the
 * recovery's record names another, both paths are quoted.
 */
function recoveredFor(task: TaskRun, turn: number, recoveryReason: string | null): string {
  const verdict = coachVerdictOn(task, turn)
  const missing = coachFoundNoResults(task, turn)
  if (verdict.kind === 'judged' && missing === null) return 'built the report the Coach saw'
  if (missing === null) return `built a report for the Coach, but ${noVerdictPhrase(verdict.kind, `turn ${turn}`)}`
  const looked = missing.path === null ? '"Task-work results not found"' : `"Task-work results not found at ${missing.path}"`
  const recoveredPath = /\S*\/worktrees\/\S+/.exec(recoveryReason ?? '')?.[0] ?? null
  const theirs = recoveredPath === null ? null : worktreeOf(recoveredPath)
  const coachs = missing.path === null ? null : worktreeOf(missing.path)
  const elsewhere = theirs !== null && coachs !== null && theirs !== coachs
    ? `; the recovery's record names a path in another worktree, ${theirs} (${recoveredPath}), than the one the Coach looked in, ${coachs}`
    : ''
  return `built a report, but the Coach found none where it looked: on turn ${turn} it logged ${looked}${elsewhere}`
}

/**
 * The turn's `SDK completed: turns=N` when the log shows it before the turn's timeout (same log, an earlier line)
 * and the session did not hit its turn ceiling: the SDK session had ended before GuardKit's timeout fired.
 */
function sessionCompletedBeforeTimeout(task: TaskRun, turn: number, b: {evidence: readonly Evidence[]; ceiling: boolean}): {used: number; evidence: readonly Evidence[]} | null {
  if (b.ceiling) return null
  const sdk = turnOf(task, turn)?.player.sdkTurns ?? null
  if (sdk === null || sdk.value.ceilingHit === true) return null
  const timeoutLines = task.events
    .filter((e) => e.kind === 'player-timeout' && e.turn === turn)
    .flatMap((e) => e.evidence)
  const first = timeoutLines.reduce<Evidence | null>((a, e) => (e.line !== undefined && (a === null || e.line < (a.line ?? Infinity)) ? e : a), null)
  if (first === null) return null
  const before = sdk.evidence.some((e) => e.file === first.file && e.line !== undefined && e.line < first.line!)
  return before ? {used: sdk.value.used, evidence: sdk.evidence} : null
}

/** `Messages processed before timeout: N` logged for the turn, when it was. */
function messagesBeforeTimeout(task: TaskRun, turn: number): number | null {
  for (const s of task.signals ?? []) {
    if (s.turn !== turn) continue
    const m = /Messages processed before timeout: (\d+)/.exec(s.text)
    if (m) return Number(m[1])
  }
  return null
}

/** ENDED_BY_TIMEOUT_NOT_STALL: a timeout or cancellation ended a loop that was repeating itself (certain). */
function endedByTimeout(input: FamilyInput): FindingDraft[] {
  const {task} = input
  const ends = task.events.filter(
    (e): e is Extract<TaskEvent, {kind: 'feature-timeout' | 'cancelled' | 'timeout-budget-exhausted'}> =>
      (e.kind === 'feature-timeout' && e === endingFeatureTimeout(task)) || e.kind === 'cancelled' || e.kind === 'timeout-budget-exhausted',
  )
  const outcome = task.outcome?.value
  if (ends.length === 0 && outcome !== 'cancelled' && outcome !== 'timeout') return []
  if (task.stall !== null) return []
  const feedback = feedbackByTurn(task)
  const stuck = repeatRuns(task, feedback).filter((r) => r.turns.length >= 3)
  const last = stuck[stuck.length - 1]
  if (!last) return []
  const timeout = ends.find((e) => e.kind === 'feature-timeout') as Extract<TaskEvent, {kind: 'feature-timeout'}> | undefined
  const endTurn = ends.map((e) => e.turn).find((t): t is number => t !== null) ?? lastTurn(task)
  const why = timeout
    ? `the feature's ${timeout.seconds !== null ? `${timeout.seconds} s ` : ''}task timeout`
    : ends.some((e) => e.kind === 'timeout-budget-exhausted')
      ? 'the run\'s timeout budget'
      : 'a cancellation'
  return [
    draft(input, {
      code: 'ENDED_BY_TIMEOUT_NOT_STALL',
      severity: 'medium',
      turns: [endTurn],
      message: `${why[0]!.toUpperCase()}${why.slice(1)} ended the task at turn ${endTurn}, not the stall detector, although the feedback had been "${last.category}" ${passingPhrase(last.count)} for ${plural(last.turns.length, 'turn')} in a row.`,
      evidence: [...ends.flatMap((e) => e.evidence), ...(task.outcome?.evidence ?? [])],
      remediation: 'Do not raise the timeout: the loop was not converging. Fix the repeated rejection (see the findings this one follows from) and rerun.',
      fixedIn: null,
      source: {function: 'FeatureOrchestrator._execute_wave (asyncio.wait_for) / AutoBuildOrchestrator._loop_phase', spec: '§8.7'},
      detail: {repeatedTurns: last.turns, category: last.category, count: last.count, timeoutSeconds: timeout?.seconds ?? null},
    }),
  ]
}
