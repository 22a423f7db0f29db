import {signatureOf} from '../../logic/orchestrator/stall-signature.js'
import type {Evidence} from '../../model/evidence.js'
import type {TaskEvent} from '../../model/run-record.js'
import {draft, fixedBy, formatTurns, plural, type FamilyInput, type FindingDraft} from '../draft.js'
import {fixedStop, flagsOfProfile, passingPhrase, repeatRuns, runRecordedStall, type FixedStop, type RecordedStall, type RepeatRun} from '../recorded-stall.js'
import {feedbackByTurn, feedbackCategory, lastTurn, turnOf, type FeedbackView} from '../record-facts.js'
import {stallOnCorrectWork} from './stall-correct-work.js'

const THRESHOLD = 3

/**
 * The loop's stopping rules (docs/guardkit-logic.md §8.1, §8.4): when the feedback-stall detector or the pollution
 * rule fired, and when it did not although the feedback repeated. Reads the recorded feedback and
 * runs the detector over it under the run's own flags and under `fixed`, so it needs no replay.
 */
export function detectStallFindings(input: FamilyInput): FindingDraft[] {
  const feedback = feedbackByTurn(input.task)
  const runs = repeatRuns(input.task, feedback)
  const asRun = runRecordedStall(input.task, flagsOfProfile(input.asRun))
  const fixed = runRecordedStall(input.task, flagsOfProfile('fixed'))
  // A run older than the window predates the feedback-stall detector (docs/era-markers.md): nothing "failed to fire".
  const detector = !beforeStallDetector(input)
  return [
    ...stallFired(input, asRun),
    ...contextPollution(input),
    ...(detector ? defeatedByVariableOutput(input, runs, asRun, fixed, feedback) : []),
    ...(detector ? windowBroken(input, feedback) : []),
    ...maxTurnsWithoutStall(input, runs, asRun, fixed, detector),
    ...stallOnCorrectWork(input),
  ]
}

/** The run is older than the modelled window (inferEra): GuardKit had no feedback-stall detector yet (first logged 2026-02-11). */
function beforeStallDetector(input: FamilyInput): boolean {
  return !input.era.modelled && input.era.window.from === null && input.era.window.to !== null && input.task.stall === null
}

function stopPhrase(stop: FixedStop): string {
  if (stop.basis === 'unknown') return 'the log\'s 80-code-point excerpts are too short to tell when normalised signatures (fixed) would have stopped it'
  if (stop.turn === null) return 'normalised signatures (fixed) would not have stopped it either'
  const how = stop.basis === 'replay' ? ' (fixed replay)' : stop.basis === 'excerpt' ? ' (approximate: signed on the log\'s excerpts)' : ''
  return `normalised signatures (fixed) would have stopped the loop at turn ${stop.turn}${how}`
}

/** STALL_FIRED: the log records the detector's WARNING/ERROR (certain). */
function stallFired(input: FamilyInput, asRun: RecordedStall): FindingDraft[] {
  const stall = input.task.stall
  if (stall?.kind !== 'feedback' || stall.turn === null) return []
  const n = stall.windowTurns ?? THRESHOLD
  const window = Array.from({length: n}, (_, i) => stall.turn! - n + 1 + i).filter((t) => t >= 1)
  const rows = asRun.rows.filter((r) => window.includes(r.turn))
  return [
    draft(input, {
      code: 'STALL_FIRED',
      severity: 'high',
      turns: window,
      reproduceTurn: stall.turn,
      message: `The stall detector ended the task at turn ${stall.turn}: the same feedback${stall.signature ? ` (signature ${stall.signature})` : ''} for ${n} turns ${passingPhrase(stall.criteriaPassing)}${stall.extended ? ' (extended threshold)' : ''}.`,
      evidence: stall.evidence,
      remediation: 'The stop itself is correct only if the Player was really stuck: read the repeated feedback (reproduce) and the findings it follows from before rerunning.',
      fixedIn: null,
      source: {function: 'AutoBuildOrchestrator._is_feedback_stalled', spec: '§8.4'},
      detail: {
        signature: stall.signature,
        windowTurns: n,
        criteriaPassing: stall.criteriaPassing,
        extended: stall.extended,
        errorText: stall.errorText,
        window: rows.map((r) => ({turn: r.turn, signature: r.check.signatures.used, count: r.count, approximate: r.approximate})),
      },
    }),
  ]
}

/**
 * CONTEXT_POLLUTION_STALL: the pollution rule stopped the loop with no passing checkpoint (certain). When the task's
 * status box names another stall as the stop and lists the pollution rule among the sub-types that fired with it
 * (StallRecord.recordedStop), the finding follows GuardKit's account: the pollution rule co-fired, and what the box
 * names stopped the loop.
 */
function contextPollution(input: FamilyInput): FindingDraft[] {
  const stall = input.task.stall
  if (stall?.kind !== 'context-pollution') return []
  const events = input.task.events.filter((e): e is Extract<TaskEvent, {kind: 'context-pollution'}> => e.kind === 'context-pollution')
  const lastEvent = events[events.length - 1]
  const counted = lastEvent?.turns.length ? lastEvent.turns : stall.turn !== null ? [stall.turn] : []
  // a resumed task's checkpoint history holds turns of an earlier run: the pollution rule counts them, but this run
  // did not play them — its records show no such turn — so they are said apart and the finding is on this run's turns
  const ranHere = counted.filter((n) => turnOf(input.task, n) !== null)
  const earlier = counted.filter((n) => turnOf(input.task, n) === null)
  const turns = earlier.length > 0 && ranHere.length > 0 ? ranHere : counted
  const stop = stall.recordedStop
  const coFired = stop !== undefined && stop.reason !== null && stop.coFired.some((s) => s.startsWith('context_pollution'))
  const at = stall.turn ?? '?'
  const failing = earlier.length > 0 && ranHere.length > 0
    ? `the checkpoints it counted, of ${formatTurns([...counted].sort((a, b) => a - b))}, all recorded failing tests and none had passed to roll back to; this run made the checkpoint of ${formatTurns(ranHere)}, and its records show no ${formatTurns(earlier)}, so this run did not make the checkpoints of ${formatTurns(earlier)}: they were in the task's checkpoint history before it`
    : `the checkpoints of ${formatTurns(turns)} all recorded failing tests and none had passed to roll back to`
  // the Player's own reports of passing tests on those turns contradict "make the Player's own test run pass"
  const passing = turns.filter((n) => turnOf(input.task, n)?.player.testsReported?.value.passing === true)
  const playerPassed = turns.length > 0 && passing.length === turns.length
  const message = coFired
    ? `GuardKit's summary records what stopped the loop at turn ${at}: "${stop.reason}"; the context-pollution rule fired with it (${failing}).`
    : `The loop stopped at turn ${at} because ${failing}; it was not stopped by repeated feedback.`
  // co-fired: the action is the named stop's, which its own finding gives; a second bullet would repeat it
  // a turn whose tests gate passed and whose checkpoint still recorded failing tests: the records do not show what this
  // GuardKit's checkpoint read (docs/guardkit-logic.md §8.1 models the gate's value), so "make the tests pass" is not advised
  const gatePassed = turns.filter((n) => {
    const t = turnOf(input.task, n)
    return t?.coach.gates?.value.testsPassed === true && t.checkpoint?.value.testsPassed === false
  })
  const remediation = coFired
    ? ''
    : gatePassed.length > 0
      ? `On ${formatTurns(gatePassed)} the tests gate passed and the checkpoint still recorded failing tests, so the records do not show what would have made a checkpoint pass; read the checkpoint lines (explain shows each turn) before rerunning.`
      : playerPassed
      ? `A checkpoint fails when the task-work tests gate fails or the Player produced no results; the Player reported its tests passing on ${formatTurns(passing)}, so read what the Coach rejected on those turns (explain shows each) before rerunning.`
      : 'A checkpoint fails when the task-work tests gate fails or the Player produced no results (timeout, missing report): make the Player\'s own test run pass (or the report exist) on at least one turn, then rerun.'
  return [
    draft(input, {
      code: 'CONTEXT_POLLUTION_STALL',
      severity: coFired ? 'medium' : 'high',
      turns,
      reproduceTurn: stall.turn,
      message,
      evidence: [
        ...(coFired ? stop.evidence : []),
        ...events.flatMap((e) => e.evidence),
        ...stall.evidence,
        ...gatePassed.flatMap((n) => [...(turnOf(input.task, n)?.coach.gates?.evidence ?? []), ...(turnOf(input.task, n)?.checkpoint?.evidence ?? [])]),
      ],
      remediation,
      fixedIn: null,
      source: {function: 'AutoBuildOrchestrator._loop_phase (pollution rule) / WorktreeCheckpointManager', spec: '§8.1'},
      detail: {failingTurns: counted, ...(earlier.length > 0 && ranHere.length > 0 ? {earlierRunTurns: earlier} : {}), checkpointsCounted: lastEvent?.failures ?? (lastEvent?.turns.length || null), errorText: stall.errorText, ...(stop === undefined ? {} : {recordedStop: stop.reason, coFired: stop.coFired})},
    }),
  ]
}

/**
 * STALL_DEFEATED_BY_VARIABLE_OUTPUT: feedback of one kind and one count for at least three turns, no
 * stall recorded. Certain when the full texts show the signatures differing; inferred from the log's
 * excerpts (the detector would have fired on three equal signatures, so they must have differed).
 */
function defeatedByVariableOutput(input: FamilyInput, runs: readonly RepeatRun[], asRun: RecordedStall, fixed: RecordedStall, feedback: Map<number, FeedbackView>): FindingDraft[] {
  if (input.task.stall !== null) return []
  const run = runs.find((r) => r.turns.length >= THRESHOLD)
  if (!run) return []
  const views = run.turns.map((t) => feedback.get(t)!)
  const full = views.every((v) => v.completeness === 'full')
  const rawSigs = views.map((v) => signatureOf(v.text))
  if (full && new Set(rawSigs).size === 1) return []
  const stop = fixedStop(input.task, input.replays, asRun, fixed)
  const wouldStop = stop.turn
  const sigs = full ? `its signatures differed (${[...new Set(rawSigs)].slice(0, 4).join(', ')}${new Set(rawSigs).size > 4 ? ', …' : ''})` : 'its signatures cannot have repeated three times in a row'
  const firstLines = new Set(views.map((v) => v.text))
  return [
    draft(input, {
      code: 'STALL_DEFEATED_BY_VARIABLE_OUTPUT',
      severity: 'high',
      turns: run.turns,
      reproduceTurn: wouldStop ?? run.turns[THRESHOLD - 1]!,
      reproduceProfile: wouldStop !== null ? 'fixed' : null,
      message: `The feedback was "${run.category}" ${passingPhrase(run.count)} on ${formatTurns(run.turns)}, but ${sigs}, so the stall detector never fired; ${stopPhrase(stop)}.`,
      evidence: views.flatMap((v) => v.evidence).slice(0, 12),
      remediation: 'Treat a run of same-kind feedback as a stall: stop the build and fix the repeated failure; GuardKit 5c2b5d82+ normalises test ids, durations and counts before signing.',
      fixedIn: wouldStop !== null ? fixedBy('stallNormalize') : null,
      source: {function: 'AutoBuildOrchestrator._is_feedback_stalled / _normalize_feedback_for_stall', spec: '§8.4'},
      ...(full
        ? {}
        : {deduction: `only the log's 80-code-point excerpts of the feedback are recorded; they agree on the kind ("${run.category}") and the count (${run.count ?? 'not in the log'}), and the detector, which fires on three equal signatures with equal counts, did not fire, so the full texts differed${firstLines.size > 1 ? ' (the excerpts already differ)' : ''}`}),
      detail: {
        category: run.category,
        count: run.count,
        turns: run.turns,
        legacySignatures: full ? Object.fromEntries(run.turns.map((t, i) => [t, rawSigs[i]])) : null,
        fixedSignatures: Object.fromEntries(fixed.rows.map((r) => [r.turn, r.check.signatures.normalized])),
        fixedWouldStopAt: wouldStop,
        fixedStopBasis: stop.basis,
        asRunFiredAt: asRun.firedAt,
      },
    }),
  ]
}

/** STALL_WINDOW_BROKEN: one turn of another kind between two turns of the same kind and count (certain). */
function windowBroken(input: FamilyInput, feedback: Map<number, FeedbackView>): FindingDraft[] {
  const {task} = input
  const stallTurn = task.stall?.turn ?? Infinity
  const cat = (turn: number) => {
    const t = turnOf(task, turn)
    const fb = feedback.get(turn)
    return t?.coach.decision?.value === 'feedback' && fb ? {category: feedbackCategory(fb.text), count: t.coach.criteriaMet?.value ?? 0, fb} : null
  }
  const hits: {turn: number; interrupting: string; repeated: string; count: number; evidence: Evidence[]}[] = []
  for (const t of task.turns) {
    if (t.turn + 1 >= stallTurn) break
    const [before, here, after] = [cat(t.turn - 1), cat(t.turn), cat(t.turn + 1)]
    if (!before || !here || !after) continue
    if (before.category !== after.category || before.count !== after.count || here.category === before.category) continue
    hits.push({turn: t.turn, interrupting: here.category, repeated: before.category, count: before.count,
      evidence: [...here.fb.evidence, ...before.fb.evidence.slice(0, 1), ...after.fb.evidence.slice(0, 1)]})
  }
  if (hits.length === 0) return []
  const h = hits[0]!
  const turns = hits.map((x) => x.turn)
  return [
    draft(input, {
      code: 'STALL_WINDOW_BROKEN',
      severity: 'low',
      turns,
      message: hits.length === 1
        ? `Turn ${h.turn}'s feedback ("${h.interrupting}") differed from turns ${h.turn - 1} and ${h.turn + 1} ("${h.repeated}"), so the stall detector's ${THRESHOLD}-turn window restarted and could not fire before turn ${h.turn + THRESHOLD}.`
        : `Feedback of another kind on ${formatTurns(turns)} (first "${h.interrupting}") interrupted runs of "${h.repeated}", restarting the stall detector's ${THRESHOLD}-turn window each time.`,
      evidence: hits.flatMap((x) => x.evidence).slice(0, 12),
      remediation: 'Count the interrupted run as one stall when reading the log; nothing to change in the task for this alone.',
      fixedIn: null,
      source: {function: 'AutoBuildOrchestrator._is_feedback_stalled', spec: '§8.4'},
      detail: {turns: hits.map((x) => ({turn: x.turn, interrupting: x.interrupting, repeated: x.repeated, count: x.count}))},
    }),
  ]
}

/** MAX_TURNS_WITHOUT_STALL: all turns used while the feedback repeated (certain). */
function maxTurnsWithoutStall(input: FamilyInput, runs: readonly RepeatRun[], asRun: RecordedStall, fixed: RecordedStall, detector: boolean): FindingDraft[] {
  const {task} = input
  const maxEvent = task.events.find((e) => e.kind === 'max-turns-exceeded')
  if (task.outcome?.value !== 'max_turns_exceeded' && !maxEvent) return []
  if (task.stall !== null) return []
  const longest = [...runs].sort((a, b) => b.turns.length - a.turns.length || a.turns[0]! - b.turns[0]!)[0]
  if (!longest || longest.turns.length < THRESHOLD) return []
  const evidence = [...(maxEvent?.evidence ?? []), ...(task.outcome?.evidence ?? [])]
  const stop = fixedStop(input.task, input.replays, asRun, fixed)
  return [
    draft(input, {
      code: 'MAX_TURNS_WITHOUT_STALL',
      severity: 'high',
      turns: longest.turns,
      reproduceTurn: stop.turn ?? longest.turns[THRESHOLD - 1]!,
      message: detector
        ? `The task used all ${plural(lastTurn(task), 'turn')} although the feedback was "${longest.category}" ${passingPhrase(longest.count)} on ${formatTurns(longest.turns)}; the stall detector never fired, and ${stopPhrase(stop)}.`
        : `The task used all ${plural(lastTurn(task), 'turn')} although the feedback was "${longest.category}" ${passingPhrase(longest.count)} on ${formatTurns(longest.turns)}; this GuardKit had no stall detector yet (it was added in February 2026), so nothing stopped the loop before its last turn.`,
      evidence,
      remediation: 'Fix the repeated failure before giving the task more turns; more turns only repeat it.',
      fixedIn: detector && stop.turn !== null ? fixedBy('stallNormalize') : null,
      source: {function: 'AutoBuildOrchestrator._loop_phase / _is_feedback_stalled', spec: '§8.1, §8.4'},
      detail: {category: longest.category, count: longest.count, turns: longest.turns, fixedWouldStopAt: stop.turn, fixedStopBasis: stop.basis},
    }),
  ]
}
