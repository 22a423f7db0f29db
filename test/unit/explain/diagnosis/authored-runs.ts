/**
 * Small authored logs in GuardKit's record shapes (docs/signals.md, docs/ingest.md), one task each,
 * for the diagnosis and its truth rules. Nothing here is copied from a corpus log.
 */
import {analyzeRun} from '../../../../src/explain/analyze-run.js'
import type {AnalysisReport, TaskAnalysis} from '../../../../src/explain/analysis.js'
import {runOf, TASK} from './signal-harness.js'

/** GuardKit's loggers, as the authored runs of the explain tests write them. */
export const AB = 'guardkit.orchestrator.autobuild'
export const CV = 'guardkit.orchestrator.quality_gates.coach_validator'
export const PR = 'guardkit.orchestrator.progress'
export const AI = 'guardkit.orchestrator.agent_invoker'
export const FO = 'guardkit.orchestrator.feature_orchestrator'
export const WC = 'guardkit.orchestrator.worktree_checkpoints'

const ts = (turn: number, second: number) => `2026-04-20T07:0${turn}:${String(second).padStart(2, '0')}.000Z`

/** One turn whose Player fails at once with `error` (auth, harness…), recovered into a synthetic report. */
export function playerFailsTurn(turn: number, error: string): string[] {
  return [
    `INFO:${AB}:Executing turn ${turn}/30`,
    `INFO:${PR}:[${ts(turn, 0)}] Started turn ${turn}: Player Implementation`,
    `INFO:${AI}:Invoking Player via direct SDK for ${TASK} (turn ${turn})`,
    `  ✗ [${ts(turn, 1)}] Player failed: Unexpected error: ${error}`,
    `INFO:${PR}:[${ts(turn, 1)}] Completed turn ${turn}: error - Player failed: Unexpected error: ${error}`,
    `INFO:${AB}:Attempting state recovery for ${TASK} turn ${turn} after Player failure: Unexpected error: ${error}`,
    `INFO:${AB}:State recovery succeeded via player_report: 0 files, 0 tests (failing)`,
    `WARNING:${AB}:[Turn ${turn}] Building synthetic report: 0 files created, 0 files modified, 0 tests. Generating git-analysis promises for declarative task.`,
    `WARNING:${AB}:[Turn ${turn}] Passing synthetic report to Coach for ${TASK}. Promise matching will fail — falling through to text matching.`,
    `INFO:${CV}:Starting Coach validation for ${TASK} turn ${turn}`,
    `WARNING:${CV}:Synthetic report has no completion_promises — all criteria marked unmet`,
    `INFO:${AB}:Criteria Progress (Turn ${turn}): 0/3 verified (0%)`,
    `INFO:${AB}:Coach provided feedback on turn ${turn}`,
  ]
}

/**
 * What follows a Player failure whose state recovery found work in git: the synthetic report (no promises) and the
 * Coach's 0/3 on it, up to its Criteria Progress line.
 */
export function syntheticReportJudged(turn: number): string[] {
  return [
    `INFO:${AB}:State recovery succeeded via git_test_detection: 6 files, 3 tests (passing)`,
    `WARNING:${AB}:[Turn ${turn}] Building synthetic report: 4 files created, 2 files modified, 3 tests. Note: report has no completion_promises and cannot satisfy promise-based verification.`,
    `WARNING:${AB}:[Turn ${turn}] Passing synthetic report to Coach for ${TASK}. Promise matching will fail — falling through to text matching.`,
    `INFO:${CV}:Starting Coach validation for ${TASK} turn ${turn}`,
    `WARNING:${CV}:Synthetic report has no completion_promises — all criteria marked unmet`,
    `WARNING:${CV}:Criteria verification 0/3 - diagnostic dump:`,
    `WARNING:${CV}:  completion_promises: (empty)`,
    `WARNING:${CV}:  requirements_met: (not used - synthetic path)`,
    `WARNING:${CV}:  matching_strategy: synthetic (no promises)`,
    `WARNING:${CV}:  _synthetic: True`,
    `INFO:${AB}:Criteria Progress (Turn ${turn}): 0/3 verified (0%)`,
  ]
}

/**
 * One turn whose Player succeeds (reporting `tests` tests `state`) and whose Coach's own test run
 * fails in `seconds`, `via` SDK or subprocess, with the classification GuardKit logged (or none).
 */
export function coachTestsFailTurn(turn: number, o: {tests: number; state?: 'passing' | 'failing'; seconds: number; via: 'sdk' | 'subprocess'; classification?: string}): string[] {
  const how = o.via === 'sdk' ? 'via SDK (environment parity)' : ''
  return [
    `INFO:${AB}:Executing turn ${turn}/10`,
    `INFO:${PR}:Started turn ${turn}: Player Implementation`,
    `INFO:${AI}:Invoking Player via task-work delegation for ${TASK} (turn ${turn})`,
    `  ✓ 2 files created, 1 modified, ${o.tests} tests (${o.state ?? 'passing'})`,
    `INFO:${PR}:Completed turn ${turn}: success - 2 files created, 1 modified, ${o.tests} tests (${o.state ?? 'passing'})`,
    `INFO:${CV}:Starting Coach validation for ${TASK} turn ${turn}`,
    `INFO:${CV}:Quality gate evaluation complete: tests=True (required=True), coverage=True (required=True), arch=True (required=False), audit=True (required=True), ALL_PASSED=True`,
    `INFO:${CV}:Running independent tests${how ? ` ${how}` : ''}: pytest tests/users/test_users.py -v --tb=short`,
    `INFO:${CV}:${o.via === 'sdk' ? 'SDK independent' : 'Independent'} tests failed in ${o.seconds}s`,
    `WARNING:${CV}:Independent test verification failed for ${TASK}${o.classification ? ` (classification=${o.classification})` : ''}`,
    '  ⚠ Feedback: - Independent test verification failed:',
    `INFO:${AB}:Criteria Progress (Turn ${turn}): 0/3 verified (0%)`,
    `INFO:${AB}:Coach provided feedback on turn ${turn}`,
  ]
}

/**
 * One direct-mode turn whose SDK session ends without the agent's report and without an error: the
 * invoker writes the report itself (`written`: the log says so), then the turn is a Player failure.
 */
export function directReportMissingTurn(turn: number, o: {written: boolean}): string[] {
  const report = `/home/dev/proj/.guardkit/worktrees/FEAT-1A2B/.guardkit/autobuild/${TASK}/player_turn_${turn}.json`
  return [
    `INFO:${AB}:Executing turn ${turn}/15`,
    `INFO:${PR}:Started turn ${turn}: Player Implementation`,
    `INFO:${AI}:Invoking Player via direct SDK for ${TASK} (turn ${turn})`,
    `INFO:${AI}:[${TASK}] Player invocation in progress... (30s elapsed)`,
    ...(o.written ? [`INFO:${AI}:Wrote direct mode player report to ${report}`] : []),
    '  ⚠ Player report missing - attempting state recovery',
    `INFO:${PR}:Completed turn ${turn}: feedback - Player report missing - attempting state recovery`,
    `INFO:${AB}:Attempting state recovery for ${TASK} turn ${turn} after Player failure: Player report not found: ${report}`,
    `INFO:${AB}:No work detected in /home/dev/proj/.guardkit/worktrees/FEAT-1A2B`,
    `WARNING:${AB}:State recovery failed for ${TASK} turn ${turn}`,
    `INFO:${AB}:Criteria Progress (Turn ${turn}): 0/4 verified (0%)`,
    `ERROR:${AB}:Critical error on turn ${turn}`,
  ]
}

/**
 * One task-work turn whose Player session was given `limit` SDK turns and used `used`; the tests gate
 * then had no result (`tests=None`), or the Coach's own tests failed on infrastructure (`coachEnv`).
 */
export function sdkLimitTurn(turn: number, o: {limit: number; used: number; coachEnv?: boolean}): string[] {
  return [
    `INFO:${AB}:Executing turn ${turn}/10`,
    `INFO:${PR}:Started turn ${turn}: Player Implementation`,
    `INFO:${AI}:Invoking Player via task-work delegation for ${TASK} (turn ${turn})`,
    `INFO:${AI}:[${TASK}] Max turns: ${o.limit}`,
    `INFO:${AI}:SDK completed: turns=${o.used}`,
    `INFO:${AI}:[${TASK}] Message summary: total=180, assistant=100, tools=79, results=1`,
    '  ✓ 3 files created, 0 modified, 0 tests (failing)',
    `INFO:${CV}:Starting Coach validation for ${TASK} turn ${turn}`,
    o.coachEnv === true
      ? `INFO:${CV}:Quality gate evaluation complete: tests=True (required=True), coverage=True (required=True), arch=True (required=False), audit=True (required=True), ALL_PASSED=True`
      : `INFO:${CV}:Quality gate evaluation complete: tests=None (required=True), coverage=True (required=True), arch=True (required=False), audit=True (required=True), ALL_PASSED=False`,
    ...(o.coachEnv === true
      ? [
          `INFO:${CV}:Running independent tests: pytest tests/users/test_users.py -v --tb=short`,
          `INFO:${CV}:Independent tests failed in 5.4s`,
          `WARNING:${CV}:Independent test verification failed for ${TASK} (classification=infrastructure, confidence=high)`,
        ]
      : []),
    `INFO:${AB}:Criteria Progress (Turn ${turn}): 0/3 verified (0%)`,
    `INFO:${AB}:Coach provided feedback on turn ${turn}`,
  ]
}

/**
 * One turn whose Coach's SDK test run fails to build its agent, falls back to a subprocess run that passes, and
 * whose Coach's own call then fails to build its agent for the same reason, ending the loop (a LangGraph-harness run).
 */
export function coachTestsRecoveredThenCoachFails(turn: number): string[] {
  const harness = (role: string) => `LangGraphHarness: failed to construct DeepAgent for role='${role}' model='local-model': Unable to infer model provider for model='local-model'. Please specify 'model_provider' directly.`
  return [
    `INFO:${AB}:Executing turn ${turn}/5`,
    `INFO:${PR}:[${ts(turn, 0)}] Started turn ${turn}: Player Implementation`,
    `INFO:${AI}:Invoking Player via task-work delegation for ${TASK} (turn ${turn})`,
    '  ✓ 3 files created, 1 modified, 1 tests (passing)',
    `INFO:${PR}:[${ts(turn, 30)}] Completed turn ${turn}: success - 3 files created, 1 modified, 1 tests (passing)`,
    `INFO:${PR}:[${ts(turn, 31)}] Started turn ${turn}: Coach Validation`,
    `INFO:${CV}:Quality gate evaluation complete: tests=True (required=True), coverage=True (required=True), arch=True (required=False), audit=True (required=True), ALL_PASSED=True`,
    `INFO:${CV}:Running independent tests via SDK (environment parity): pytest tests/unit/test_widget.py -v --tb=short`,
    `ERROR:${CV}:SDK coach test execution failed (error_class=LangGraphHarnessError): ${harness('coach_test')}`,
    `WARNING:${CV}:SDK test execution failed (error_class=LangGraphHarnessError), falling back to subprocess.`,
    `INFO:${CV}:Running independent tests via subprocess: pytest tests/unit/test_widget.py -v --tb=short`,
    `INFO:${CV}:Independent tests passed in 3.2s`,
    `  ✗ [${ts(turn, 40)}] Coach failed`,
    `   Error: Unexpected error: SDK invocation failed for coach (LangGraphHarnessError): ${harness('coach')}`,
    `INFO:${PR}:[${ts(turn, 40)}] Completed turn ${turn}: error - Coach failed`,
    `ERROR:${AB}:Critical error on turn ${turn}`,
  ]
}

/** The Coach approves the turn (after the Player's `tests` passing tests). */
export function approvedTurn(turn: number): string[] {
  return [
    `INFO:${AB}:Executing turn ${turn}/10`,
    `INFO:${PR}:Started turn ${turn}: Player Implementation`,
    `INFO:${AI}:Invoking Player via task-work delegation for ${TASK} (turn ${turn})`,
    '  ✓ 2 files created, 1 modified, 3 tests (passing)',
    `INFO:${CV}:Starting Coach validation for ${TASK} turn ${turn}`,
    `INFO:${CV}:Independent tests passed in 4.2s`,
    `INFO:${CV}:Coach approved ${TASK} turn ${turn}`,
    `INFO:${AB}:Criteria Progress (Turn ${turn}): 3/3 verified (100%)`,
    `INFO:${AB}:Coach approved on turn ${turn}`,
  ]
}

export const complete = (decision: string, turns: number) => `INFO:${AB}:Orchestration complete: ${TASK}, decision=${decision}, turns=${turns}`

export function analyse(lines: readonly string[]): {report: AnalysisReport; task: TaskAnalysis} {
  const report = analyzeRun(runOf(lines, {ownTurns: true}))
  const task = report.tasks.find((t) => t.task.taskId === TASK)
  if (task === undefined) throw new Error(`no ${TASK} in the authored run`)
  return {report, task}
}
