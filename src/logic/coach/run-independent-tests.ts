import type {LogicFlags} from '../changes.js'
import {LOGGERS, type LogSink} from '../log-sink.js'
import {pyFormatFixed} from '../python/format.js'
import type {WorktreeView} from '../worktree.js'
import {detectTestCommand, type CumulativeDiffFacts} from './detect-test-command.js'
import {independentTestResultFrom, noTestsFoundResult, type IndependentTestResult} from './independent-test-result.js'
import {pyGet} from './py-values.js'
import {interpretSdkRun, type SdkToolResult} from './sdk-test-run.js'
import {summarizeTestOutput} from './summarize-test-output.js'
import {dispatchIndependentTests, type TestDispatch, type TestEnvironment} from './test-dispatch.js'

/**
 * What physically happened when the Coach ran its tests, as recorded. The replay cannot run tests:
 * the outcome is an input, and the model re-derives the command, the dispatch, the summary and
 * the pass/fail interpretation under each logic version (docs/guardkit-logic.md §6.4).
 */
export type TestOutcome =
  | {readonly kind: 'completed'; readonly returncode: number; readonly stdout: string | null; readonly stderr: string | null; readonly durationSeconds: number}
  | {readonly kind: 'timeout'; readonly durationSeconds: number}
  | {readonly kind: 'error'; readonly message: string; readonly durationSeconds: number}
  | {readonly kind: 'sdk'; readonly toolResults: readonly SdkToolResult[]; readonly assistantText: readonly string[]; readonly durationSeconds: number}
  | {readonly kind: 'sdk-api-error'; readonly error: string; readonly durationSeconds: number}
  | {readonly kind: 'sdk-timeout'; readonly timeoutSeconds: number; readonly durationSeconds: number}
  /** The SDK run raised (not an API error or timeout) and the Coach fell back to the subprocess. */
  | {readonly kind: 'sdk-fallback'; readonly exception: string; readonly then: SubprocessOutcome}
  /** Only what `coach_turn_N.json` kept: the verdict and the summary (raw output when known). */
  | {readonly kind: 'summary'; readonly testsPassed: unknown; readonly summary: unknown; readonly rawOutput: string | null; readonly durationSeconds: unknown}

export type SubprocessOutcome = Extract<TestOutcome, {kind: 'completed' | 'timeout' | 'error'}>

/**
 * The independent-test input of one turn: `stub` replaces `run_independent_tests` entirely (as the
 * oracle harness does, so no detection runs); `outcome` lets the model detect and dispatch, then
 * interprets what was recorded; `unrecorded` when nothing is known about the run.
 */
export type IndependentTestsInput =
  | {readonly kind: 'stub'; readonly result: Readonly<Record<string, unknown>>}
  /** `command`: the command the recorded run executed, when known (a different detected command is noted). */
  | {readonly kind: 'outcome'; readonly outcome: TestOutcome; readonly command?: string}
  | {readonly kind: 'unrecorded'}

export interface RunIndependentTestsInput {
  readonly taskId: string
  readonly validatorTaskId: string | null
  readonly twr: unknown
  readonly task: unknown
  readonly turn: number
  readonly view: WorktreeView
  readonly tests: IndependentTestsInput
  readonly environment: TestEnvironment
  readonly git?: CumulativeDiffFacts
  /** `CoachValidator(test_command=…)`, which bypasses detection; the orchestrator never sets it. */
  readonly testCommand?: string | null
  readonly flags: LogicFlags
  readonly sink: LogSink
  readonly unknowns: string[]
}

export type IndependentTestsRun =
  | {readonly kind: 'result'; readonly result: IndependentTestResult; readonly command: string | null; readonly dispatch: TestDispatch | null}
  /** Tests would have run, but no outcome was recorded: the turn cannot be replayed past step 3. */
  | {readonly kind: 'unrecorded'; readonly command: string; readonly dispatch: TestDispatch}

/** `CoachValidator.run_independent_tests(twr[, task, turn])` on a recorded outcome (docs/guardkit-logic.md §6.4). */
export function runIndependentTests(input: RunIndependentTestsInput): IndependentTestsRun {
  const {tests, flags, sink} = input
  if (tests.kind === 'stub') return {kind: 'result', result: independentTestResultFrom(tests.result), command: null, dispatch: null}
  const cmd =
    input.testCommand ||
    detectTestCommand({taskId: input.taskId, validatorTaskId: input.validatorTaskId, twr: input.twr, turn: flags.priorReportTests ? input.turn : null, view: input.view, git: input.git, flags, sink, unknowns: input.unknowns})
  if (!cmd) {
    sink.emit('INFO', LOGGERS.coach, `No task-specific tests found for ${input.taskId}, skipping independent verification`)
    return {kind: 'result', result: noTestsFoundResult(input.taskId), command: null, dispatch: null}
  }
  const requiresInfrastructure = flags.sdkTests ? pyGet(input.task, 'requires_infrastructure', null) : null
  const dispatch = dispatchIndependentTests(requiresInfrastructure, input.environment, flags)
  logRunning(cmd, dispatch, input)
  if (tests.kind === 'unrecorded') return {kind: 'unrecorded', command: cmd, dispatch}
  if (tests.command !== undefined && tests.command !== cmd) input.unknowns.push(`the test outcome recorded for \`${tests.command}\` stands in for \`${cmd}\``)
  const result = interpretOutcome(cmd, tests.outcome, dispatch, input)
  logFinished(result, tests.outcome, sink)
  return {kind: 'result', result, command: cmd, dispatch}
}

function interpretOutcome(cmd: string, outcome: TestOutcome, dispatch: TestDispatch, input: RunIndependentTestsInput): IndependentTestResult {
  const {flags} = input
  if (outcome.kind === 'sdk-fallback') {
    if (dispatch.mode !== 'sdk') input.unknowns.push('independent tests fell back from the SDK to a subprocess but this logic would not use the SDK')
    return interpretOutcome(cmd, outcome.then, {...dispatch, mode: 'subprocess'}, input)
  }
  const sdkOutcome = outcome.kind === 'sdk' || outcome.kind === 'sdk-api-error' || outcome.kind === 'sdk-timeout'
  if (outcome.kind !== 'summary' && sdkOutcome !== (dispatch.mode === 'sdk')) {
    input.unknowns.push(`independent tests ran via ${sdkOutcome ? 'the SDK' : 'a subprocess'} but this logic would use ${dispatch.mode === 'sdk' ? 'the SDK' : 'a subprocess'}`)
  }
  // classifyFailure (D23): raw output is kept for the classifier from 5c2b5d82 on (docs/guardkit-logic.md §6.7).
  const keepRaw = flags.classifyFailure
  switch (outcome.kind) {
    case 'completed': {
      const summary = summarizeTestOutput(outcome.stdout || outcome.stderr || 'No output', flags)
      const raw = keepRaw ? (outcome.stdout ?? '') + (outcome.stderr ?? '') : null
      return {tests_passed: outcome.returncode === 0, test_command: cmd, test_output_summary: summary, duration_seconds: outcome.durationSeconds, raw_output: raw}
    }
    case 'timeout':
      return {tests_passed: false, test_command: cmd, test_output_summary: 'Test execution timed out after 300s', duration_seconds: outcome.durationSeconds, raw_output: null}
    case 'error':
      return {tests_passed: false, test_command: cmd, test_output_summary: `Test execution failed: ${outcome.message}`, duration_seconds: outcome.durationSeconds, raw_output: null}
    case 'sdk': {
      const run = interpretSdkRun(outcome.toolResults, outcome.assistantText)
      return {tests_passed: run.testsPassed, test_command: cmd, test_output_summary: summarizeTestOutput(run.outputText, flags), duration_seconds: outcome.durationSeconds, raw_output: run.outputText}
    }
    case 'sdk-api-error': {
      const text = `SDK API error: ${outcome.error}`
      return {tests_passed: false, test_command: cmd, test_output_summary: text, duration_seconds: outcome.durationSeconds, raw_output: text}
    }
    case 'sdk-timeout':
      return {tests_passed: false, test_command: cmd, test_output_summary: `SDK test execution timed out after ${outcome.timeoutSeconds}s`, duration_seconds: outcome.durationSeconds, raw_output: `Timeout after ${outcome.timeoutSeconds}s`}
    case 'summary': {
      const summary = outcome.rawOutput !== null ? summarizeTestOutput(outcome.rawOutput, flags) : outcome.summary
      return {tests_passed: outcome.testsPassed, test_command: cmd, test_output_summary: summary, duration_seconds: outcome.durationSeconds, raw_output: keepRaw ? outcome.rawOutput : null}
    }
  }
}

/** The INFO line before the run; the infra-pinned text needs `sys.executable`, noted when unknown. */
function logRunning(cmd: string, dispatch: TestDispatch, input: RunIndependentTestsInput): void {
  const {sink} = input
  if (dispatch.legacyShell) return sink.emit('INFO', LOGGERS.coach, `Running independent tests: ${cmd}`)
  if (dispatch.mode === 'sdk') return sink.emit('INFO', LOGGERS.coach, `Running independent tests via SDK (environment parity): ${cmd}`)
  if (!dispatch.infraPinned) return sink.emit('INFO', LOGGERS.coach, `Running independent tests via subprocess: ${cmd}`)
  const exe = input.environment.sysExecutable
  if (exe) sink.emit('INFO', LOGGERS.coach, `Running independent tests via subprocess (infra-pinned, sys.executable=${exe}): ${cmd}`)
  else input.unknowns.push('sys.executable of the GuardKit process (infra-pinned subprocess log line)')
}

function logFinished(result: IndependentTestResult, outcome: TestOutcome, sink: LogSink): void {
  if (outcome.kind === 'sdk-fallback') return logFinished(result, outcome.then, sink)
  if (outcome.kind === 'sdk-timeout') return sink.emit('ERROR', LOGGERS.coach, `SDK coach test execution timed out after ${outcome.timeoutSeconds}s`)
  if (outcome.kind !== 'completed' && outcome.kind !== 'sdk') return
  const verdict = result.tests_passed ? 'passed' : 'failed'
  const prefix = outcome.kind === 'sdk' ? 'SDK independent tests' : 'Independent tests'
  sink.emit('INFO', LOGGERS.coach, `${prefix} ${verdict} in ${pyFormatFixed(outcome.durationSeconds, 1)}s`)
}
