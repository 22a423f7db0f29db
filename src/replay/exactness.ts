import {asObject, type JsonObject} from '../logic/orchestrator/index.js'
import {differingFlags, type ProfileContext} from './profile-context.js'
import type {TurnInputs} from './turn-inputs.js'
import type {CoachStep} from './types.js'
import type {TurnDecision} from './turn-decision.js'

/**
 * "Exact means exact" (docs/counterfactuals.md): a replayed value is approximate only when an input the
 * records lack could change it. The replay marks a turn approximate wherever it rebuilt or assumed an
 * input; these rules take that back where the input provably cannot reach the values:
 *
 * - **the record itself**: the profile is the code that ran (no flag differs) and its verdict — decision,
 *   criteria counts, feedback — is the recorded one: the record shows that whatever was rebuilt did not
 *   change it (a count the record lacks is not compared: the criteria total then needs an exact criteria list);
 * - **the gates decided**: `validate()` stopped at the quality gates (docs/guardkit-logic.md §6.1 step 2) on the recorded
 *   `quality_gates`: the verdict and its feedback (`_feedback_from_gates`, the same in every version) depend
 *   on nothing else — not on the Player's promises, file lists or the agent's report.
 *
 * Each returns the reason in words, or null when it does not apply.
 */
export function exactDespiteMissing(ctx: ProfileContext, t: TurnInputs, verdict: TurnDecision, step: CoachStep, coachTwr: JsonObject | null): string | null {
  if (verdict.fidelity !== 'approximate') return null
  return reproducesRecord(ctx, t, verdict) ?? decidedByGates(ctx, t, verdict, step, coachTwr)
}

function reproducesRecord(ctx: ProfileContext, t: TurnInputs, v: TurnDecision): string | null {
  if (ctx.asRun === null || differingFlags(ctx.flags, ctx.asRun).length > 0) return null
  if (t.decision === null || v.decision !== t.decision) return null
  if (t.criteriaMet === null || v.criteriaMet !== t.criteriaMet) return null
  // A total the record does not hold proves nothing: it is the replayed one's only when the criteria list
  // the Coach is given here is exact (the total is then that list's length, whatever else was rebuilt).
  if (t.criteriaTotal === null ? !ctx.criteria?.exact : v.criteriaTotal !== t.criteriaTotal) return null
  if (v.decision === 'feedback') {
    const recorded = t.feedback
    if (recorded === null || recorded.basis === 'category' || v.feedback !== recorded.text) return null
  }
  return `the replayed verdict, counts and feedback of turn ${t.turn} are the recorded ones, which this same code produced: what was rebuilt did not change them`
}

function decidedByGates(ctx: ProfileContext, t: TurnInputs, v: TurnDecision, step: CoachStep, coachTwr: JsonObject | null): string | null {
  if (step !== 'quality-gates' || ctx.inputs.mode !== 'task-work' || coachTwr === null) return null
  const recorded = t.taskWorkResults
  if (recorded === null || recorded.basis !== 'recorded' || !ctx.criteria?.exact) return null
  const same = JSON.stringify(asObject(coachTwr.quality_gates)) === JSON.stringify(asObject(recorded.value.quality_gates))
  if (!same || v.decision !== 'feedback') return null
  return `turn ${t.turn} stopped at the quality gates on the recorded quality_gates: nothing the Player side adds can change it`
}
