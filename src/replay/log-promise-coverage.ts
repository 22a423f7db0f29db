import type {FlagId} from '../logic/changes.js'
import {matchByPromises} from '../logic/coach/requirements/index.js'
import {resolveTaskProfile} from '../logic/coach/index.js'
import type {CoachDecision} from '../model/outcome.js'
import {agentPromisesInput, assumedFileExistencePromises, assumedPromises, criteriaNamingFiles, directPromisesInput, priorPromisesInput, SOME_UNKNOWN} from './assumed-promises.js'
import type {ProfileContext} from './profile-context.js'
import {missingCriteriaFeedback, type TurnInputs} from './turn-inputs.js'
import {assumedValue, type PromiseCoverage, type UnknownInput} from './unknown-inputs.js'

/** What the replay knows of earlier turns' promises (the prior-turn scan, D26). */
export interface PromiseHistory {
  readonly promisesAt: {readonly turn: number; readonly count: number} | null
}

/** A promise source this profile has and the code that ran did not, and the value this replay gives it. */
export interface GainedPromises {
  readonly unknown: UnknownInput
  readonly coverage: PromiseCoverage
  readonly source: 'agent' | 'prior' | 'direct'
}

/**
 * The promises that would reach this profile's Coach on a turn known from the log, which the log does not
 * hold: the agent's own report (D9), an earlier turn's report (D26: the log gives only their count), or the
 * direct-mode file-existence promises (D13, scaffolding only: the log lacks the Player's file lists). Null
 * when none applies or nothing can be enumerated (no criteria).
 */
export function gainedPromiseInput(ctx: ProfileContext, t: TurnInputs, gains: readonly FlagId[], history: PromiseHistory): GainedPromises | null {
  const criteria = ctx.criteria?.texts ?? []
  if (criteria.length === 0) return null
  const pick = (unknown: UnknownInput, source: GainedPromises['source']): GainedPromises => ({unknown, source, coverage: assumedValue(ctx.assume, unknown) as PromiseCoverage})
  if (gains.includes('recoverAgentPromises')) return pick(agentPromisesInput(criteria.length, t.turn), 'agent')
  if (gains.includes('priorTurnPromises') && history.promisesAt) return pick(priorPromisesInput(criteria.length, history.promisesAt, t.turn), 'prior')
  if (gains.includes('directSyntheticPromises') && isScaffolding(ctx)) {
    const naming = criteriaNamingFiles(criteria).length
    if (naming > 0) return pick(directPromisesInput(naming, t.turn), 'direct')
  }
  return null
}

/** The shared synthetic builder makes promises only for scaffolding tasks (docs/guardkit-logic.md §2 S001). */
function isScaffolding(ctx: ProfileContext): boolean {
  const r = resolveTaskProfile(ctx.inputs.taskType.value)
  return r.ok && r.taskType === 'scaffolding'
}

export interface CoverageVerdict {
  readonly decision: CoachDecision
  readonly met: number
  readonly total: number
  readonly feedback: string | null
  readonly from: string
  /** The decision and feedback follow from the value alone (no other unrecorded fact was needed). */
  readonly exact: boolean
  readonly assumptions: readonly string[]
  readonly signatureUnknown?: string
}

/**
 * The Coach's requirements step (docs/guardkit-logic.md §7.1, §7.4) on a turn whose recorded verdict was a 0/N text match, when
 * the gained promises verify some or all criteria: every criterion verified → approve (the recorded turn
 * got past the gates and the independent tests); otherwise feedback listing the criteria left missing.
 * Null for `none`: the recorded text match stands.
 */
export function coachUnderCoverage(ctx: ProfileContext, t: TurnInputs, gained: GainedPromises): CoverageVerdict | null {
  const criteria = ctx.criteria
  if (gained.coverage === 'none' || !criteria) return null
  const promises = gained.source === 'direct' ? assumedFileExistencePromises(gained.coverage, criteria.texts) : assumedPromises(gained.coverage, criteria.texts.length)
  const v = matchByPromises([...criteria.texts], promises, ctx.flags)
  const value = gained.unknown.values.find((x) => x.value === gained.coverage)!.assume
  if (v.all_criteria_met) {
    // The zero-test check (docs/guardkit-logic.md §6.8) comes after the requirements: it passes when tests are not required or ran and passed.
    const testsSettled = testsRanAndPassed(t) || testsNotRequired(ctx)
    return {
      decision: 'approve', met: v.criteria_met, total: v.criteria_total, feedback: null, from: value, exact: testsSettled,
      assumptions: testsSettled ? [] : [`the zero-test check (§6.8) is taken not to block the approval: the log does not show that turn ${t.turn}'s tests ran and passed`],
    }
  }
  return {
    decision: 'feedback', met: v.criteria_met, total: v.criteria_total,
    feedback: missingCriteriaFeedback(v.missing.map(String)),
    from: `the criteria left missing when ${value}`,
    exact: criteria.exact && gained.coverage !== 'some',
    assumptions: [],
    ...(gained.coverage === 'some' ? {signatureUnknown: SOME_UNKNOWN} : {}),
  }
}

/** The log shows the Coach's own test run passing with a real command. */
export function testsRanAndPassed(t: TurnInputs): boolean {
  const tests = t.record.coach.independentTests?.value
  return tests?.passed === true && !tests.skipped && t.record.coach.testCommand !== null
}

function testsNotRequired(ctx: ProfileContext): boolean {
  const r = resolveTaskProfile(ctx.inputs.taskType.value)
  return r.ok && !r.profile.tests_required
}
