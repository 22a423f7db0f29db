import type {FlagId} from '../logic/changes.js'
import {checkZeroTestAnomaly, getProfile} from '../logic/coach/index.js'
import {NULL_SINK} from '../logic/log-sink.js'
import {extractFeedback} from '../logic/orchestrator/index.js'
import {describeFlags, differingFlags, PIPELINE_FLAGS, PROMISE_PIPELINE_FLAGS, REQUIREMENT_FLAGS, TEST_FLAGS, wordingFlags, type ProfileContext} from './profile-context.js'
import {directTurnWithoutSyntheticBuilder} from './log-direct.js'
import {coachUnderCoverage, gainedPromiseInput, testsRanAndPassed, type PromiseHistory} from './log-promise-coverage.js'
import {agreesWithExcerpt, missingCriteriaFeedback, type TurnInputs, type TurnKind} from './turn-inputs.js'
import {assumedValue, feedbackRepeatsInput, type UnknownInput} from './unknown-inputs.js'
import type {CoachDetail, Fidelity, PlayerDetail, ReplayedTurn} from './types.js'
import {loopReport, worse, type TurnDecision} from './turn-decision.js'

/** What earlier turns of the same replay established (for the prior-turn promise rule, D26). */
export interface LogHistory extends PromiseHistory {
  /** An earlier turn's player report had completion_promises (recorded or recovered per the log). */
  readonly promisesEarlier: boolean
}

const DETECTION_FLAGS: readonly FlagId[] = ['cumulativeDiffTests', 'promiseTestFiles', 'priorReportTests', 'relPathDedup']

/** Flags that can change the Coach's decision on a turn of this kind, beyond what this module rebuilds. */
function relevantFlags(kind: TurnKind, mode: string | null): readonly FlagId[] {
  switch (kind) {
    case 'gates':
    case 'invalid-task-type':
      return []
    case 'missing-results':
      return mode === 'direct' ? PIPELINE_FLAGS : []
    case 'tests':
      return TEST_FLAGS
    case 'zero-test':
      return DETECTION_FLAGS
    case 'requirements':
      return [...REQUIREMENT_FLAGS, ...PROMISE_PIPELINE_FLAGS]
    case 'approved':
      return [...REQUIREMENT_FLAGS, ...PROMISE_PIPELINE_FLAGS, ...TEST_FLAGS, 'seamTestSoftGate', 'consumerContextSoftGate']
    default:
      return [...PIPELINE_FLAGS, ...REQUIREMENT_FLAGS, ...TEST_FLAGS]
  }
}

/**
 * A turn known only from log records (or whose Coach inputs are incomplete): the recorded decision and
 * counts, with the deviations the records let the model decide for this profile — agent promises the
 * profile would not recover (D9), a 0/N text match re-listed from this profile's criteria (docs/guardkit-logic.md §7.1,
 * docs/guardkit-logic.md §9.3), the zero-test wording (D35) — and every other possibly relevant difference stated as an
 * assumption (approximate).
 */
export function decideFromLog(ctx: ProfileContext, t: TurnInputs, history: LogHistory): TurnDecision {
  const failedDirect = directTurnWithoutSyntheticBuilder(ctx, t)
  if (failedDirect) return failedDirect
  const {flags, asRun} = ctx
  const assumptions: string[] = []
  const missing: string[] = [...t.missingInputs]
  let fidelity: Fidelity = 'exact'
  let decision = t.decision
  let met = t.criteriaMet
  let total = t.criteriaTotal
  let feedback = t.feedback?.text ?? null
  let basis: ReplayedTurn['feedbackBasis'] = t.feedback ? (t.feedback.basis === 'full' ? 'recorded' : t.feedback.basis) : 'unknown'
  let from = t.feedback?.from ?? null
  let isRecorded = true
  if (decision === null) {
    fidelity = 'insufficient'
    missing.push(`the Coach's decision on turn ${t.turn}`)
  }
  if (asRun === null) {
    fidelity = worse(fidelity, 'approximate')
    assumptions.push('the run\'s GuardKit version is unknown: the recorded Coach decision stands in for this profile\'s')
  }
  const differs = asRun === null ? [] : differingFlags(flags, asRun, relevantFlags(t.kind, ctx.inputs.mode))
  const handled = new Set<FlagId>()
  const criteria = ctx.criteria
  let gainsAssumed = false
  let uncertain = false
  const unknowns: UnknownInput[] = []
  let signatureUnknown: string | undefined
  const isAsRun = asRun !== null && differingFlags(flags, asRun).length === 0
  const rebuild = (text: string, source: string, exact: boolean): void => {
    const matchesRecord = feedback !== null && (basis === 'category' ? agreesWithExcerpt(text, feedback) : text === feedback)
    isRecorded = matchesRecord
    feedback = text
    basis = 'rebuilt'
    from = source
    if (!exact) fidelity = worse(fidelity, 'approximate')
  }
  // Without the promises the Coach text-matches every criterion against nothing: feedback, 0/N.
  const noneReachTheCoach = (): void => {
    decision = 'feedback'
    met = 0
    total = criteria?.texts.length ?? total
    if (criteria) rebuild(requirementsFeedback(ctx, criteria.texts), `every criterion of ${criteria.source} (text match against an absent requirements_met)`, false)
    else {
      feedback = null
      basis = 'unknown'
      isRecorded = false
      missing.push('the acceptance criteria texts')
    }
  }

  // D9: promises the as-run invoker recovered from the agent's report are lost without the fix.
  const recovered = t.record.player.promisesRecovered?.value ?? 0
  const loses = asRun !== null && asRun.recoverAgentPromises && !flags.recoverAgentPromises && recovered > 0 && ctx.inputs.mode !== 'direct'
  if (loses && (t.kind === 'approved' || t.kind === 'requirements')) {
    for (const id of [...REQUIREMENT_FLAGS, ...PROMISE_PIPELINE_FLAGS]) handled.add(id)
    noneReachTheCoach()
    fidelity = worse(fidelity, 'approximate')
    assumptions.push(`without recoverAgentPromises the ${recovered} promises the agent wrote are overwritten: the Coach text-matches against an absent requirements_met (0/${total ?? 'N'}); the agent's requirements_addressed are lost too`)
  } else if (t.kind === 'requirements' && zeroOfNTextMatch(t)) {
    for (const id of ['acrFuzzyText', 'acrDiagnosticDump', 'acrPartialVerified', 'topLevelCriteriaOnly', 'hybridFallback', 'requirementsAddressedSource', 'promiseTaskIdFallback', 'priorTurnPromises'] as const) handled.add(id)
    if (criteria) {
      const text = requirementsFeedback(ctx, criteria.texts)
      const sameRules = asRun !== null && differingFlags(flags, asRun, REQUIREMENT_FLAGS).length === 0
      const matches = feedback !== null && (basis === 'category' ? agreesWithExcerpt(text, feedback) : text === feedback)
      if (sameRules && feedback !== null && !matches) {
        // The record says what this Coach sent; the model's rebuild disagrees (another code version, stale criteria).
        if (basis === 'category') fidelity = worse(fidelity, 'approximate')
        assumptions.push(`the criteria of ${criteria.source} do not give the recorded feedback; the recorded one is kept`)
      } else {
        // The pre-ACR form (no bullets) is run_1 attempt 1's; its attempt 3, also without a dump, lists them.
        if (!flags.acrDiagnosticDump && !matches) assumptions.push('pre-ACR feedback form without criteria bullets (run_1.log attempt 1, sig c1ddd473)')
        rebuild(text, `every criterion of ${criteria.source} (0/${criteria.texts.length} text match${t.record.coach.diagnosticDump ? ' against requirements_met: [] as the dump shows' : ''})`, matches || (criteria.exact && flags.acrDiagnosticDump))
        met = 0
        total = criteria.texts.length
      }
    }
    const gains = gainedPromiseSources(ctx, history)
    const gained = gains.length > 0 ? gainedPromiseInput(ctx, t, gains, history) : null
    if (gained) {
      // Promises this profile's Coach would read and the log does not hold: each value they may have is replayed.
      unknowns.push(gained.unknown)
      const under = coachUnderCoverage(ctx, t, gained)
      if (under) {
        decision = under.decision
        met = under.met
        total = under.total
        if (under.feedback === null) {
          feedback = null
          basis = 'unknown'
          isRecorded = false
        } else rebuild(under.feedback, under.from, under.exact)
        if (!under.exact) fidelity = worse(fidelity, 'approximate')
        assumptions.push(...under.assumptions)
        signatureUnknown = under.signatureUnknown
      }
      assumptions.push(`one of the values enumerated for ${gained.unknown.input}: ${gained.unknown.values.find((v) => v.value === gained.coverage)!.assume}`)
    } else if (gains.length > 0) {
      gainsAssumed = true
      fidelity = worse(fidelity, 'approximate')
      assumptions.push(`assumes no completion_promises would reach the Coach under ${describeFlags(gains)} (not recorded for this era)`)
      if (gains.includes('recoverAgentPromises')) missing.push(`player_turn_${t.turn}.json as written by the agent`)
      if (gains.includes('priorTurnPromises')) missing.push('the completion_promises of earlier player reports')
    }
    for (const id of PROMISE_PIPELINE_FLAGS) handled.add(id)
  } else if (t.kind === 'approved' && !isAsRun && verifiedNone(t)) {
    // This era's Coach approved without verifying any criterion (docs/record-formats.md §6.3); the modelled Coach
    // verifies them (docs/guardkit-logic.md §6.1 step 4). On the task-work path without D9 nothing reaches it: 0/N.
    for (const id of [...REQUIREMENT_FLAGS, ...PROMISE_PIPELINE_FLAGS]) handled.add(id)
    fidelity = worse(fidelity, 'approximate')
    if (ctx.inputs.mode !== 'direct' && !flags.recoverAgentPromises) {
      noneReachTheCoach()
      assumptions.push(`the recorded Coach approved without verifying any criterion; this profile's Coach text-matches them against an absent requirements_met (0/${total ?? 'N'})`)
    } else {
      uncertain = true
      assumptions.push('the recorded Coach approved without verifying any criterion; whether this profile\'s Coach would verify them depends on the Player\'s promises')
      missing.push(`player_turn_${t.turn}.json as written by the agent`)
    }
  } else if (t.kind === 'zero-test' && feedback !== null) {
    if (!isAsRun && testsRanAndPassed(t)) {
      // docs/guardkit-logic.md §6.8 raises nothing once the independent tests passed with a real command: this profile's Coach
      // goes on to the requirements, which need the Player's report (not in the log).
      uncertain = true
      fidelity = worse(fidelity, 'approximate')
      assumptions.push('the recorded zero-test decision stands in: the modelled check (docs/guardkit-logic.md §6.8) does not fire after independent tests that passed, so this profile\'s Coach would judge the requirements instead')
      missing.push(`player_turn_${t.turn}.json (the Player's requirements and promises)`)
    }
    const text = zeroTestFeedback(ctx, feedback)
    if (text !== null && (basis === 'category' || text !== feedback)) rebuild(text, 'the zero-test anomaly text of this profile (docs/guardkit-logic.md §6.8; only the test-file prefix varies)', fidelity === 'exact')
    handled.add('zeroTestSearchText')
  }

  if (decision === 'feedback' && basis === 'category') {
    fidelity = worse(fidelity, 'approximate')
    assumptions.push(`turn ${t.turn}'s feedback is known only from its 80-code-point excerpt`)
  }
  const rest = differs.filter((id) => !handled.has(id))
  if (rest.length > 0) {
    fidelity = worse(fidelity, 'approximate')
    assumptions.push(decision === t.decision
      ? `the recorded ${describeKind(t.kind)} stands in for this profile's; ${describeFlags(rest)} could change it`
      : `the recorded Coach facts of turn ${t.turn} (gates, tests) stand in for this profile's; ${describeFlags(rest)} could change them`)
    if (t.kind === 'tests') missing.push(`raw output of the independent test run of turn ${t.turn}`)
  }
  // A profile's signature comes from its own feedback: when a flag that words this kind of feedback differs
  // from the code that ran and nothing rebuilt the text, the recorded text only stands in for it.
  const wording = decision === 'feedback' && isRecorded && feedback !== null ? rest.filter((id) => wordingFlags(t.kind).includes(id)) : []
  let signatureStandIn: string | undefined
  if (wording.length > 0 && signatureUnknown === undefined) {
    const repeats = feedbackRepeatsInput(ctx.name, t.turn)
    unknowns.push(repeats)
    const why = `${describeFlags(wording)} word it otherwise than the code that ran`
    if (assumedValue(ctx.assume, repeats) === 'never') signatureUnknown = `${ctx.name}'s own feedback text is not in the records (${why})`
    else signatureStandIn = `${ctx.name}'s own feedback text is not in the records (${why}); the recorded text stands in for its repeats`
    missing.push(`the feedback ${ctx.name} would have sent on turn ${t.turn} (${why}; the records hold the run's own)`)
  }
  const gate = testsGate(t)
  const coachReport = decision === null ? null : loopReport(decision, met ?? 0, total ?? met ?? 0, gate.value, feedback)
  if (gate.assumed) assumptions.push(gate.assumed)
  const decisionCertain = asRun !== null && rest.length === 0 && !gainsAssumed && !uncertain
  return {
    decision,
    criteriaMet: met,
    criteriaTotal: total,
    feedback: decision === 'approve' ? null : feedback,
    feedbackBasis: decision === 'approve' ? 'unknown' : basis,
    feedbackFrom: from,
    feedbackIsRecorded: isRecorded,
    coachReport,
    playerReport: null,
    playerSuccess: !t.playerFailed,
    recordedCheckpoint: gate.value,
    fidelity,
    decisionCertain,
    assumptions,
    missingInputs: missing,
    logs: [],
    player: playerDetail(ctx, t),
    coach: coachDetail(ctx, t, coachReport),
    unknowns,
    ...(signatureUnknown !== undefined && decision === 'feedback' ? {signatureUnknown} : {}),
    ...(signatureStandIn !== undefined ? {signatureStandIn} : {}),
  }
}

/** The Coach verified none of the criteria it was shown (every one pending in the progress display). */
function verifiedNone(t: TurnInputs): boolean {
  const c = t.record.coach
  const total = c.criteriaTotal?.value ?? 0
  return total > 0 && c.verified?.value === 0 && c.pending?.value === total
}

/** A 0/N turn on the text path with nothing to match (docs/guardkit-logic.md §7.1): any criteria list gives 0/N, all missing. */
function zeroOfNTextMatch(t: TurnInputs): boolean {
  const c = t.record.coach
  if (t.criteriaMet !== 0) return false
  const dump = c.diagnosticDump?.value
  if (dump) return dump.matchingStrategy === 'text' && dump.requirementsMet.trim() === '[]'
  // Pre-ACR prints no dump: every criterion rejected "Not found in Player requirements_met" (seed 003).
  return (c.rejected?.value ?? 0) > 0 && c.rejected?.value === c.criteriaTotal?.value
}

/** Promise sources this profile has and the as-run code did not, which the records cannot fill in. */
function gainedPromiseSources(ctx: ProfileContext, history: LogHistory): FlagId[] {
  const {flags, asRun} = ctx
  if (!asRun) return []
  const out: FlagId[] = []
  if (ctx.inputs.mode !== 'direct' && flags.recoverAgentPromises && !asRun.recoverAgentPromises) out.push('recoverAgentPromises')
  if (flags.priorTurnPromises && !asRun.priorTurnPromises && history.promisesEarlier) out.push('priorTurnPromises')
  if (ctx.inputs.mode === 'direct' && flags.directSyntheticPromises && !asRun.directSyntheticPromises) out.push('directSyntheticPromises')
  return out
}

/**
 * The missing-requirement feedback under this profile. Pre-ACR code sent the bare description
 * without the criteria bullets: run_1.log's `sig=c1ddd473` is md5("- not all acceptance criteria met").
 */
function requirementsFeedback(ctx: ProfileContext, missing: readonly string[]): string {
  if (!ctx.flags.acrDiagnosticDump) return extractFeedback({issues: [{severity: 'must_fix', category: 'missing_requirement', description: 'Not all acceptance criteria met'}]}) ?? ''
  return missingCriteriaFeedback(missing)
}

/** The zero-test anomaly feedback (docs/guardkit-logic.md §6.8) of the same branch as the recorded one, in this profile's wording. */
function zeroTestFeedback(ctx: ProfileContext, recorded: string): string | null {
  const profile = getProfile('feature')
  const noTestsRun = recorded.startsWith('- Quality gates reported as passed but no tests were executed')
  const nothingFound = recorded.startsWith('- No task-specific tests')
  if (!noTestsRun && !nothingFound) return null
  const twr = noTestsRun ? {tests_written: ['x'], quality_gates: {all_passed: true, tests_passed: 0, coverage: null}} : {tests_written: []}
  const independent = {tests_passed: true, test_command: 'skipped', test_output_summary: '', duration_seconds: 0, raw_output: null}
  const issues = checkZeroTestAnomaly(ctx.inputs.taskId, twr, profile, independent, ctx.flags, NULL_SINK)
  return issues.length === 1 ? extractFeedback({issues}) : null
}

/** The checkpoint's task-work tests gate (docs/guardkit-logic.md §8.1): recorded, else what the Coach's step implies. */
function testsGate(t: TurnInputs): {value: boolean | null; assumed: string | null} {
  if (t.checkpointPassed !== null) return {value: t.checkpointPassed, assumed: null}
  const gates = t.record.coach.gates?.value
  if (gates?.testsPassed !== null && gates?.testsPassed !== undefined) return {value: gates.testsPassed, assumed: null}
  if (t.kind === 'missing-results' || t.kind === 'invalid-task-type' || t.kind === 'error') return {value: false, assumed: null}
  if (t.kind === 'unknown') return {value: true, assumed: `turn ${t.turn}'s checkpoint is not recorded; its tests gate is assumed to pass`}
  return {value: true, assumed: null}
}

function describeKind(kind: TurnKind): string {
  const words: Record<TurnKind, string> = {
    approved: 'approval', 'invalid-task-type': 'invalid task type decision', 'missing-results': 'missing-results decision', gates: 'quality-gate decision',
    tests: 'independent-test failure decision', requirements: 'requirements decision', 'zero-test': 'zero-test anomaly decision', error: 'error turn', unknown: 'decision',
  }
  return words[kind]
}

function playerDetail(ctx: ProfileContext, t: TurnInputs): PlayerDetail {
  return {
    source: t.decision === null && !t.record.player.status ? 'none' : 'log',
    mode: ctx.inputs.mode,
    events: [],
    coachInputs: null,
    agentReportKnown: t.agentReport !== null,
  }
}

function coachDetail(ctx: ProfileContext, t: TurnInputs, report: Record<string, unknown> | null): CoachDetail {
  const c = t.record.coach
  const tests = c.independentTests?.value
  return {
    source: t.decision === null ? 'none' : t.coachReport ? 'recorded-report' : 'recorded-log',
    notValidatedBecause: t.coachReport ? 'the Coach inputs of this turn are incomplete' : 'only log records of this turn exist',
    taskType: ctx.inputs.taskType.value,
    criteria: ctx.criteria ? {texts: ctx.criteria.texts, source: ctx.criteria.source} : null,
    report: t.coachReport?.value ?? report,
    step: stepOf(t.kind),
    gates: c.gates ? {...c.gates.value} : null,
    independentTests: tests ? {passed: tests.passed, command: c.testCommand?.value ?? null, summary: null, durationSeconds: tests.durationSeconds, basis: 'recorded-log'} : null,
    failureClass: c.testFailureClass ? {...c.testFailureClass.value} : null,
    testCommand: c.testCommand?.value ?? null,
    testDispatch: null,
    requirements: null,
    raised: null,
    unknowns: [],
  }
}

function stepOf(kind: TurnKind): CoachDetail['step'] {
  switch (kind) {
    case 'approved':
      return 'approved'
    case 'invalid-task-type':
      return 'invalid-task-type'
    case 'missing-results':
      return 'missing-results'
    case 'gates':
      return 'quality-gates'
    case 'tests':
      return 'independent-tests'
    case 'requirements':
      return 'requirements'
    case 'zero-test':
      return 'zero-test-anomaly'
    default:
      return 'unknown'
  }
}
