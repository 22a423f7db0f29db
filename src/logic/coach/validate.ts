import type {LogicFlags} from '../changes.js'
import {LOGGERS, type LogSink} from '../log-sink.js'
import {pyRepr} from '../python/repr.js'
import {pyTruthy} from '../python/strings.js'
import type {WorktreeView} from '../worktree.js'
import {validateRequirements, type ValidateRequirementsResult} from './requirements/validate-requirements.js'
import {approvalRationale} from './approval.js'
import {coachResultToDict, earlyFeedback, type CoachIssue, type CoachValidationResult, type RequirementsVerdict} from './coach-result.js'
import type {CumulativeDiffFacts} from './detect-test-command.js'
import {feedbackFromGates} from './quality-gate-feedback.js'
import {notRequiredReason, notRequiredResult, type IndependentTestResult} from './independent-test-result.js'
import {PyException, pyContains, pyGet, pyJoin, pySubscript} from './py-values.js'
import {qualityGateStatusRepr, verifyQualityGates} from './quality-gates.js'
import {readTaskWorkResults} from './read-task-work-results.js'
import {runIndependentTests, type IndependentTestsInput} from './run-independent-tests.js'
import {checkConsumerContext, checkSeamTestRecommendation} from './soft-gates.js'
import {resolveTaskProfile} from './task-profile.js'
import type {TestDispatch, TestEnvironment} from './test-dispatch.js'
import {judgeTestFailure} from './test-failure-feedback.js'
import {checkZeroTestAnomaly, ZERO_TEST_RATIONALE} from './zero-test-anomaly.js'

/** What the replay knows about one Coach turn (docs/guardkit-logic.md §6 intro). */
export interface CoachValidateInput {
  /** The `task_id` argument (the orchestrator passes the validator's own id). */
  readonly taskId: string
  /** `CoachValidator.task_id`; defaults to `taskId`. It locates checkpoints and prior player reports. */
  readonly validatorTaskId?: string | null
  readonly turn: number
  /**
   * The task dict the orchestrator builds: legacy `{acceptance_criteria, task_type}`; fixed adds
   * `requires_infrastructure`, `_docker_available` (a recorded fact) and `consumer_context`.
   */
  readonly task: unknown
  /** `not enable_pre_loop`; true for most feature-mode runs. */
  readonly skipArchReview: boolean
  /** The architecture context string handed to the Coach, if any. */
  readonly context?: string | null
  /** The worktree as GuardKit saw it when the Coach ran. */
  readonly view: WorktreeView
  /**
   * `task_work_results.json` as read (its parsed value, or GuardKit's `{"error": …}` dict). Absent:
   * read from the view, where a missing file gives the not-found error.
   */
  readonly taskWorkResults?: {readonly value: unknown}
  readonly independentTests: IndependentTestsInput
  readonly environment?: TestEnvironment
  readonly git?: CumulativeDiffFacts
  readonly flags: LogicFlags
  readonly sink: LogSink
}

export type CoachValidateOutcome =
  | {
      readonly kind: 'validated'
      readonly result: CoachValidationResult
      /** `result.to_dict()` = `coach_turn_{turn}.json` = the orchestrator's `coach_result.report`. */
      readonly report: Record<string, unknown>
      /** The test command the model detected (null when none ran or a stub stood in for the run). */
      readonly testCommand: string | null
      readonly testDispatch: TestDispatch | null
      /** The requirements side channel for the explainer (null when requirements were not evaluated). */
      readonly requirements: Extract<ValidateRequirementsResult, {ok: true}> | null
      readonly unknowns: readonly string[]
    }
  /** `validate()` raised: the orchestrator fell back to the LLM Coach (docs/guardkit-logic.md §8.2 step 7), not replayable. */
  | {readonly kind: 'raised'; readonly exception: string; readonly unknowns: readonly string[]}
  /** The inputs do not allow a replay of this turn. */
  | {readonly kind: 'insufficient'; readonly missing: readonly string[]; readonly unknowns: readonly string[]}

/**
 * `CoachValidator.validate(task_id, turn, task, skip_arch_review, context)` (docs/guardkit-logic.md §6.1): profile,
 * results, quality gates, independent tests, requirements, zero-test anomaly, soft gates, approval;
 * every failing step short-circuits into feedback carrying what was computed so far. Log records go
 * to `input.sink` under GuardKit's logger names.
 */
export function validate(input: CoachValidateInput): CoachValidateOutcome {
  const unknowns: string[] = []
  const viewUnknownsBefore = input.view.unknowns.length
  const allUnknowns = () => [...input.view.unknowns.slice(viewUnknownsBefore), ...unknowns]
  try {
    const outcome = validateSteps(input, unknowns)
    if (outcome.kind !== 'validated') return {...outcome, unknowns: allUnknowns()}
    return {...outcome, report: coachResultToDict(outcome.result, input.flags), unknowns: allUnknowns()}
  } catch (error) {
    if (error instanceof PyException) return {kind: 'raised', exception: error.text, unknowns: allUnknowns()}
    throw error
  }
}

type StepsOutcome =
  | {kind: 'validated'; result: CoachValidationResult; testCommand: string | null; testDispatch: TestDispatch | null; requirements: Extract<ValidateRequirementsResult, {ok: true}> | null}
  | {kind: 'raised'; exception: string}
  | {kind: 'insufficient'; missing: string[]}

function validateSteps(input: CoachValidateInput, unknowns: string[]): StepsOutcome {
  const {taskId, turn, task, flags, sink} = input
  const base = {task_id: taskId, turn, context_used: input.context ?? null}
  if (input.context) unknowns.push('context_used with an architecture context (docs/guardkit-logic.md does not say what GuardKit stores)')
  const done = (result: CoachValidationResult, extra: Partial<Omit<Extract<StepsOutcome, {kind: 'validated'}>, 'kind' | 'result'>> = {}): StepsOutcome => ({
    kind: 'validated',
    result,
    testCommand: extra.testCommand ?? null,
    testDispatch: extra.testDispatch ?? null,
    requirements: extra.requirements ?? null,
  })
  sink.emit('INFO', LOGGERS.coach, `Starting Coach validation for ${taskId} turn ${turn}`)

  // Step 0: profile.
  const resolution = resolveTaskProfile(pyGet(task, 'task_type', null))
  if (!resolution.ok) {
    const issue = {severity: 'must_fix', category: 'invalid_task_type', description: resolution.error}
    return done(earlyFeedback(base, {issues: [issue], rationale: `Invalid task type: ${resolution.error}`}))
  }
  const {taskType, profile} = resolution
  sink.emit('INFO', LOGGERS.coach, `Using quality gate profile for task type: ${taskType}`)

  // Step 1: task-work results; any `error` key (even null) short-circuits.
  let twr: unknown
  if (input.taskWorkResults) twr = input.taskWorkResults.value
  else {
    const read = readTaskWorkResults(input.view, taskId, unknowns)
    if (read.kind === 'unknown') return {kind: 'insufficient', missing: [`content of ${read.path}`]}
    twr = read.value
  }
  if (pyContains(twr, 'error')) {
    sink.emit('WARNING', LOGGERS.coach, `Task-work results not found for ${taskId}`)
    const issue = {severity: 'must_fix', category: 'missing_results', description: pySubscript(twr, 'error')}
    return done(earlyFeedback(base, {issues: [issue], rationale: 'Task-work quality gate results not found'}))
  }

  // Step 2: quality gates (docs/guardkit-logic.md §6.1: a failure here hides the tests and the requirements).
  const gates = verifyQualityGates(twr, profile, input.skipArchReview, sink)
  if (!gates.all_gates_passed) {
    sink.emit('INFO', LOGGERS.coach, `Quality gates failed for ${taskId}: ${qualityGateStatusRepr(gates)}`)
    return done(feedbackFromGates(base, gates, twr))
  }

  // Step 3: independent tests.
  let tests: IndependentTestResult
  let testCommand: string | null = null
  let testDispatch: TestDispatch | null = null
  let conditional = false
  if (!profile.tests_required) {
    tests = notRequiredResult(taskType, flags)
    sink.emit('INFO', LOGGERS.coach, `Independent test verification skipped for ${taskId} (${notRequiredReason(taskType, flags)})`)
  } else {
    const run = runIndependentTests({
      taskId,
      validatorTaskId: input.validatorTaskId === undefined ? taskId : input.validatorTaskId,
      twr,
      task,
      turn,
      view: input.view,
      tests: input.independentTests,
      environment: input.environment ?? {},
      git: input.git,
      flags,
      sink,
      unknowns,
    })
    if (run.kind === 'unrecorded') return {kind: 'insufficient', missing: [`the independent test run of \`${run.command}\` (${run.dispatch.mode})`]}
    tests = run.result
    testCommand = run.command
    testDispatch = run.dispatch
    if (!pyTruthy(tests.tests_passed)) {
      const verdict = judgeTestFailure(taskId, tests, task, gates.all_gates_passed, flags, sink)
      if (verdict.kind === 'feedback') {
        return done(earlyFeedback(base, {quality_gates: gates, independent_tests: tests, issues: [verdict.issue], rationale: verdict.rationale}), {testCommand, testDispatch})
      }
      conditional = true
    }
  }
  const testFacts = {testCommand, testDispatch}

  // Step 4: requirements (docs/guardkit-logic.md §7, another module).
  const requirements = validateRequirements(task as Record<string, unknown>, twr as Record<string, unknown>, turn, {taskId: input.validatorTaskId === undefined ? taskId : input.validatorTaskId, worktree: input.view, flags, log: sink})
  if (!requirements.ok) return {kind: 'raised', exception: requirements.exception}
  const verdict: RequirementsVerdict = requirements.validation
  const withTests = {quality_gates: gates, independent_tests: tests, requirements: verdict}
  if (!verdict.all_criteria_met) {
    sink.emit('INFO', LOGGERS.coach, `Requirements not met for ${taskId}: missing ${pyRepr(verdict.missing)}`)
    const issue = {severity: 'must_fix', category: 'missing_requirement', description: 'Not all acceptance criteria met', missing_criteria: verdict.missing}
    const rationale = `Missing ${verdict.missing.length} acceptance criteria: ${pyJoin(', ', verdict.missing)}`
    return done({...base, decision: 'feedback', ...withTests, issues: [issue], rationale, approved_without_independent_tests: false}, {...testFacts, requirements})
  }

  // Step 5: zero-test anomaly.
  const zeroTest = checkZeroTestAnomaly(taskId, twr, profile, tests, flags, sink)
  if (zeroTest.some((issue) => issue.severity === 'error')) {
    sink.emit('INFO', LOGGERS.coach, `Coach rejected ${taskId} turn ${turn}: zero-test anomaly (blocking)`)
    return done({...base, decision: 'feedback', ...withTests, issues: zeroTest, rationale: ZERO_TEST_RATIONALE, approved_without_independent_tests: false}, {...testFacts, requirements})
  }

  // Steps 5.5/5.6: soft gates (fixed), then approval.
  const issues: CoachIssue[] = [...zeroTest, ...checkSeamTestRecommendation(twr, profile, flags, sink), ...checkConsumerContext(task, flags, unknowns)]
  const rationale = approvalRationale(profile, tests, conditional, input.context ?? null)
  sink.emit('INFO', LOGGERS.coach, `Coach approved ${taskId} turn ${turn}`)
  return done({...base, decision: 'approve', ...withTests, issues, rationale, approved_without_independent_tests: conditional}, {...testFacts, requirements})
}
