import {draft, fixedBy, type FamilyInput, type FindingDraft} from '../draft.js'
import {coversAll, turnPromises} from '../promises.js'
import {flagsOfProfile} from '../recorded-stall.js'
import {criteriaTotal, feedbackByTurn, feedbackCategory} from '../record-facts.js'

/**
 * STALL_ON_CORRECT_WORK: the detector fired although an earlier turn had evidence for every
 * criterion. Certain when the Coach itself verified every criterion on an earlier turn (and rejected
 * it for something else), or a recorded report holds a complete promise for each criterion id;
 * inferred when only the log's `Recovered N completion_promises` says how many there were.
 */
export function stallOnCorrectWork(input: FamilyInput): FindingDraft[] {
  const {task} = input
  const stall = task.stall
  if (stall?.kind !== 'feedback' || stall.turn === null) return []
  const total = criteriaTotal(task)
  if (total === null || total === 0) return []
  const verified = coachVerifiedAll(input, stall.turn, total)
  if (verified) return [verified]
  const acceptPartial = flagsOfProfile(input.asRun).acrPartialVerified
  // A count alone says nothing about statuses: it is evidence only if the stalled turn had no promises (they were lost, not rejected).
  const stalled = task.turns.find((t) => t.turn === stall.turn)
  // The stop must have been about criteria: turns whose tests or gates failed never judged the work.
  if (!stalled || !((stalled.coach.rejected?.value ?? 0) > 0 || stalled.coach.diagnosticDump !== null)) return []
  const promisesAtStall = stalled ? (turnPromises(task, stalled).recoveredCount ?? 0) > 0 || (turnPromises(task, stalled).seen?.length ?? 0) > 0 : true
  for (const turn of [...task.turns].sort((a, b) => a.turn - b.turn)) {
    if (turn.turn >= stall.turn) break
    const p = turnPromises(task, turn)
    const recorded = p.seen && coversAll(p.seen, total, acceptPartial) ? {list: p.seen, evidence: p.seenEvidence, where: `player_turn_${turn.turn}.json`} : null
    const agent = !recorded && p.agent && coversAll(p.agent, total, acceptPartial) ? {list: p.agent, evidence: p.agentEvidence, where: `the agent-written player_turn_${turn.turn}.json`} : null
    const found = recorded ?? agent
    if (found) {
      return [
        draft(input, {
          code: 'STALL_ON_CORRECT_WORK',
          severity: 'critical',
          turns: [stall.turn],
          reproduceTurn: turn.turn,
          message: `The stall detector stopped the task at turn ${stall.turn}, but ${found.where} already held a complete promise for each of the ${total} criteria: the work was there, the Coach stopped seeing the evidence.`,
          evidence: [...found.evidence, ...stall.evidence],
          remediation: `Review the work of turn ${turn.turn} and approve it by hand; rerunning on GuardKit edb5fd18+ reuses the last turn's promises when a fix turn writes none.`,
          fixedIn: fixedBy('priorTurnPromises'),
          source: {function: 'CoachValidator._load_completion_promises / AutoBuildOrchestrator._is_feedback_stalled', spec: '§7.3, §8.4'},
          detail: {evidenceTurn: turn.turn, criteria: total, promises: found.list.length},
        }),
      ]
    }
    if (p.recoveredCount !== null && p.recoveredCount >= total && !promisesAtStall) {
      return [
        draft(input, {
          code: 'STALL_ON_CORRECT_WORK',
          severity: 'critical',
          turns: [stall.turn],
          reproduceTurn: turn.turn,
          message: `The stall detector stopped the task at turn ${stall.turn}, but on turn ${turn.turn} the Player's report carried ${p.recoveredCount} completion promises for ${total} criteria: the later turns lost that evidence.`,
          evidence: [...p.recoveredEvidence, ...stall.evidence],
          remediation: `Review the work of turn ${turn.turn} and approve it by hand; rerunning on GuardKit edb5fd18+ reuses the last turn's promises when a fix turn writes none.`,
          fixedIn: fixedBy('priorTurnPromises'),
          source: {function: 'CoachValidator._load_completion_promises / AutoBuildOrchestrator._is_feedback_stalled', spec: '§7.3, §8.4'},
          deduction: `the log records that ${p.recoveredCount} promises were recovered on turn ${turn.turn} but not their statuses; the report itself is not in the records, so "complete for every criterion" is assumed from the count`,
          detail: {evidenceTurn: turn.turn, criteria: total, promises: p.recoveredCount},
        }),
      ]
    }
  }
  return []
}

/** The Coach verified all criteria on an earlier turn and still gave feedback (zero-test anomaly, a gate, tests). */
function coachVerifiedAll(input: FamilyInput, stallTurn: number, total: number): FindingDraft | null {
  const {task} = input
  const earlier = [...task.turns]
    .sort((a, b) => a.turn - b.turn)
    .find((t) => t.turn < stallTurn && t.coach.decision?.value === 'feedback' && t.coach.criteriaMet?.value === total && (t.coach.criteriaTotal?.value ?? total) === total)
  if (!earlier) return null
  const fb = feedbackByTurn(task).get(stallTurn)
  const why = fb ? ` for another reason ("${feedbackCategory(fb.text)}")` : ''
  return draft(input, {
    code: 'STALL_ON_CORRECT_WORK',
    severity: 'critical',
    turns: [stallTurn],
    reproduceTurn: earlier.turn,
    message: `The stall detector stopped the task at turn ${stallTurn}, but the Coach itself had verified all ${total} criteria on turn ${earlier.turn}; it kept rejecting${why}, so the loop stalled on work that met its criteria.`,
    evidence: [...earlier.coach.criteriaMet!.evidence, ...(task.stall?.evidence ?? [])],
    remediation: `Fix what the repeated feedback asks for${why ? ` (${feedbackCategory(fb!.text)})` : ''}, or review turn ${earlier.turn}'s work and approve it by hand: its criteria were met.`,
    fixedIn: null,
    source: {function: 'AutoBuildOrchestrator._is_feedback_stalled / CoachValidator.validate', spec: '§6.8, §8.4'},
    detail: {evidenceTurn: earlier.turn, criteria: total, verifiedByCoach: true},
  })
}
