import {describe, expect, it} from 'vitest'
import {AB, CV, PR, AI, analyse, complete, playerFailsTurn, sdkLimitTurn} from '../diagnosis/authored-runs.js'
import {TASK} from '../diagnosis/signal-harness.js'
import {withRecordedRecovery} from '../../../../src/explain/families/signals.js'

/** A turn whose Coach's feedback names a failing test (`test`) of the Player's code. */
function failingTestTurn(turn: number, test: string): string[] {
  return [
    `INFO:${AB}:Executing turn ${turn}/10`,
    `INFO:guardkit.orchestrator.progress:Started turn ${turn}: Player Implementation`,
    `INFO:guardkit.orchestrator.agent_invoker:Invoking Player via task-work delegation for ${TASK} (turn ${turn})`,
    '  ✓ 1 files created, 1 modified, 12 tests (passing)',
    `INFO:${CV}:Starting Coach validation for ${TASK} turn ${turn}`,
    `  ⚠ Feedback: - ${test} fails: the parser returns None for a valid expression`,
    `INFO:${AB}:Criteria Progress (Turn ${turn}): 3/5 verified (60%)`,
    `INFO:${AB}:Coach provided feedback on turn ${turn}`,
  ]
}

describe('LOG_SIGNAL: "the same error on every turn" (docs/signals.md)', () => {
  it('is said when one error comes back unchanged on every turn', () => {
    const err = 'Agent player received API error: authentication_failed'
    const {task} = analyse([...playerFailsTurn(1, err), ...playerFailsTurn(2, err), complete('player_invocation_stall', 2)])
    expect(task.findings.find((f) => f.category === 'model-api')?.message).toMatch(/The same error came back on every one of the 2 turns/)
  })

  it('does not say no change by the Player could have fixed a repeated result of the Player\'s own session (its SDK turn limit)', () => {
    const {task} = analyse([...sdkLimitTurn(1, {limit: 50, used: 50}), ...sdkLimitTurn(2, {limit: 50, used: 50}), complete('max_turns_exceeded', 2)])
    const repeated = task.findings.filter((f) => /The same error came back on every one of the 2 turns/.test(f.message))
    expect(repeated.length).toBeGreaterThan(0)
    for (const f of repeated) expect(f.message).not.toMatch(/no change by the Player could have fixed it/)
  })

  it('still says it of an error outside the Player\'s reach (the model provider refusing its credentials)', () => {
    const err = 'Agent player received API error: authentication_failed'
    const {task} = analyse([...playerFailsTurn(1, err), ...playerFailsTurn(2, err), complete('player_invocation_stall', 2)])
    expect(task.findings.find((f) => f.category === 'model-api')?.message).toMatch(/no change by the Player could have fixed it/)
  })

  it('is not said when the rule matched a different error on each turn (other failing tests)', () => {
    const {task} = analyse([...failingTestTurn(1, 'test_step_values'), ...failingTestTurn(2, 'test_day_names'), complete('max_turns_exceeded', 2)])
    const f = task.findings.find((x) => x.category === 'code-defect')!
    expect(f.turns).toEqual([1, 2])
    expect(f.message).not.toMatch(/same error/)
    expect(task.diagnosis?.primary.summary).not.toMatch(/same error/)
  })
})

/** A turn whose plan-audit gate failed and whose Coach's own call then ended in error (docs/findings.md, "What the Coach did"). */
function gateFailedThenCoachErrors(turn: number): string[] {
  return [
    `INFO:${AB}:Executing turn ${turn}/2`,
    `INFO:${PR}:[2026-06-03T06:0${turn}:00.000Z] Started turn ${turn}: Player Implementation`,
    `INFO:${AI}:Invoking Player via task-work delegation for ${TASK} (turn ${turn})`,
    '  ✓ 3 files created, 1 modified, 1 tests (passing)',
    `INFO:${PR}:[2026-06-03T06:0${turn}:30.000Z] Completed turn ${turn}: success - 3 files created, 1 modified, 1 tests (passing)`,
    `INFO:${CV}:Starting Coach validation for ${TASK} turn ${turn}`,
    `INFO:${CV}:Quality gate evaluation complete: tests=True (required=True), coverage=True (required=True), arch=True (required=False), audit=False (required=True), ALL_PASSED=False`,
    `INFO:${CV}:gather_evidence: quality gates failed for ${TASK}; downstream (requirements, independent tests) skipped.`,
    `  ✗ [2026-06-03T06:0${turn}:40.000Z] Coach failed`,
    "   Error: Unexpected error: SDK invocation failed for coach (LangGraphHarnessError): LangGraphHarness: failed to construct DeepAgent for role='coach'",
    `INFO:${PR}:[2026-06-03T06:0${turn}:40.000Z] Completed turn ${turn}: error - Coach failed`,
    `ERROR:${AB}:Critical error on turn ${turn}`,
  ]
}

/** The same gate failure, and the Coach rejecting the turn on it (feedback recorded). */
function gateFailedCoachRejects(turn: number): string[] {
  return [
    `INFO:${AB}:Executing turn ${turn}/3`,
    `INFO:${PR}:Started turn ${turn}: Player Implementation`,
    `INFO:${AI}:Invoking Player via task-work delegation for ${TASK} (turn ${turn})`,
    '  ✓ 3 files created, 1 modified, 1 tests (passing)',
    `INFO:${CV}:Starting Coach validation for ${TASK} turn ${turn}`,
    `INFO:${CV}:Quality gate evaluation complete: tests=True (required=True), coverage=True (required=True), arch=True (required=False), audit=False (required=True), ALL_PASSED=False`,
    '  ⚠ Feedback: - Plan audit failed',
    `INFO:${AB}:Criteria Progress (Turn ${turn}): 0/3 verified (0%)`,
    `INFO:${AB}:Coach provided feedback on turn ${turn}`,
  ]
}

describe('LOG_SIGNAL: what the Coach did is said only from its recorded decision (docs/findings.md, "What the Coach did")', () => {
  it('does not say the Coach rejected a turn whose Coach call ended in error, and says the error instead', () => {
    const {task} = analyse([...gateFailedThenCoachErrors(1), complete('error', 1)])
    const gate = task.findings.find((f) => f.code === 'LOG_SIGNAL' && /quality gate/i.test(f.message) && /ALL_PASSED=False/.test(f.message))!
    expect(gate).toBeDefined()
    for (const f of task.findings) {
      expect(f.message).not.toMatch(/the Coach rejected|the Coach judged|verdict path/)
    }
    expect(gate.message).toMatch(/The Coach's own call ended in error on t1, so it neither approved nor rejected it\./)
  })

  it('keeps "the Coach rejected" on a turn whose Coach decision is recorded feedback', () => {
    const {task} = analyse([...gateFailedCoachRejects(1), ...gateFailedCoachRejects(2), ...gateFailedCoachRejects(3), complete('max_turns_exceeded', 3)])
    const gate = task.findings.find((f) => f.code === 'LOG_SIGNAL' && /ALL_PASSED=False/.test(f.message))
    expect(gate?.message).toMatch(/so the Coach rejected the turn/)
    expect(gate?.message).not.toMatch(/neither approved nor rejected/)
  })
})

/** A turn whose Coach found no test of the task and approved it (`approve`) or rejected it on a criterion. */
function noTaskTestsTurn(turn: number, approve: boolean): string[] {
  return [
    `INFO:${AB}:Executing turn ${turn}/5`,
    `INFO:${PR}:Started turn ${turn}: Player Implementation`,
    `INFO:${AI}:Invoking Player via task-work delegation for ${TASK} (turn ${turn})`,
    '  ✓ 2 files created, 1 modified, 0 tests (passing)',
    `INFO:${CV}:Starting Coach validation for ${TASK} turn ${turn}`,
    `INFO:${CV}:Quality gate evaluation complete: tests=True (required=True), coverage=True (required=True), arch=True (required=False), audit=True (required=True), ALL_PASSED=True`,
    `INFO:${CV}:No task-specific tests found for ${TASK}, skipping independent verification. Glob pattern tried: tests/**/test_task_abc_001*.py`,
    ...(approve
      ? [`INFO:${CV}:Coach approved ${TASK} turn ${turn}`, `INFO:${AB}:Criteria Progress (Turn ${turn}): 3/3 verified (100%)`, `INFO:${AB}:Coach approved on turn ${turn}`]
      : ['  ⚠ Feedback: - Not all acceptance criteria met:', `INFO:${AB}:Criteria Progress (Turn ${turn}): 1/3 verified (33%)`, `INFO:${AB}:Coach provided feedback on turn ${turn}`]),
  ]
}

describe('LOG_SIGNAL: a rule about the zero-test check says what the check does only where it rejected a turn', () => {
  it('does not say a blocking zero-test check rejects the turn, nor advise for it, when the Coach rejected on criteria', () => {
    const {task} = analyse([...noTaskTestsTurn(1, false), ...noTaskTestsTurn(2, false), complete('max_turns_exceeded', 2)])
    const f = task.findings.find((x) => x.code === 'LOG_SIGNAL' && /No task-specific tests found/.test(x.message))
    expect(f).toBeDefined()
    expect(f!.message).not.toMatch(/zero-test check/)
    expect(f!.remediation).not.toMatch(/Name the task's tests/)
    expect(f!.remediation).toMatch(/no zero-test rejection is recorded on t1, t2/)
  })
})

describe('LOG_SIGNAL: the pollution check that neither rolled back nor stopped the loop', () => {
  it('makes no finding when the loop went on after it and the task was approved', () => {
    const lines = [
      ...gateFailedCoachRejects(1),
      `INFO:guardkit.orchestrator.worktree_checkpoints:Creating checkpoint for ${TASK} turn 1 (tests: fail, count: 0)`,
      ...gateFailedCoachRejects(2),
      `INFO:guardkit.orchestrator.worktree_checkpoints:Creating checkpoint for ${TASK} turn 2 (tests: fail, count: 0)`,
      'WARNING:guardkit.orchestrator.worktree_checkpoints:Context pollution detected: 2 consecutive test failures in turns [1, 2]',
      'WARNING:guardkit.orchestrator.worktree_checkpoints:No passing checkpoints found in history',
      ...noTaskTestsTurn(3, true),
      complete('approved', 3),
    ]
    const {task} = analyse(lines)
    expect(task.findings.map((f) => f.message).join('\n')).not.toMatch(/pollution check|--fresh/)
  })
})

/** A turn whose Coach ran the whole tests/ directory (no record of a search for the task's tests) and whose run failed fast. */
function wholeDirectoryTurn(turn: number): string[] {
  return [
    `INFO:${AB}:Executing turn ${turn}/5`,
    `INFO:${PR}:Started turn ${turn}: Player Implementation`,
    `INFO:${AI}:Invoking Player via task-work delegation for ${TASK} (turn ${turn})`,
    '  ✓ 2 files created, 1 modified, 4 tests (passing)',
    `INFO:${CV}:Starting Coach validation for ${TASK} turn ${turn}`,
    `INFO:${CV}:Quality gate evaluation complete: tests=True (required=False), coverage=True (required=False), arch=True (required=False), audit=True (required=True), ALL_PASSED=True`,
    `INFO:${CV}:Running independent tests: pytest tests/ -v --tb=short`,
    `INFO:${CV}:Independent tests failed in 0.5s`,
    `WARNING:${CV}:Independent test verification failed for ${TASK}`,
    `INFO:${PR}:Completed turn ${turn}: feedback - Feedback: - Independent test verification failed:`,
    `INFO:${AB}:Criteria Progress (Turn ${turn}): 0/3 verified (0%)`,
    `INFO:${AB}:Coach provided feedback on turn ${turn}`,
  ]
}

describe('LOG_SIGNAL: a search for the task\'s tests is said only where a record shows it', () => {
  it('does not say the Coach found no test file of the task, nor advise naming tests for that search, when only `pytest tests/` is recorded', () => {
    const {task} = analyse([...wholeDirectoryTurn(1), ...wholeDirectoryTurn(2), complete('max_turns_exceeded', 2)])
    const f = task.findings.find((x) => x.code === 'LOG_SIGNAL' && /Running independent tests: pytest tests\//.test(x.message))
    expect(f).toBeDefined()
    expect(f!.message).not.toMatch(/Finding no test file of the task/)
    expect(f!.message).toMatch(/The Coach ran every test under tests\//)
    expect(f!.remediation).not.toMatch(/Name the task's tests/)
  })
})

/** A turn whose Player's call a cancel scope cut short, recovered `via` the method GuardKit logged. */
function cancelledTurn(turn: number, via: 'git_test_detection' | 'player_report'): string[] {
  return [
    `INFO:${AB}:Executing turn ${turn}/10`,
    `INFO:${PR}:Started turn ${turn}: Player Implementation`,
    `INFO:${AI}:Invoking Player via direct SDK for ${TASK} (turn ${turn})`,
    `  ✗ Player failed: Cancelled: Cancelled via cancel scope 7f00aa11bb2${turn} by <Task pending name='Task-4${turn}'>`,
    `INFO:${PR}:Completed turn ${turn}: error - Player failed: Cancelled: Cancelled via cancel scope 7f00aa11bb2${turn} by <Task pending name='Task-4${turn}'>`,
    `INFO:${AB}:Attempting state recovery for ${TASK} turn ${turn} after Player failure: Cancelled: Cancelled via cancel scope 7f00aa11bb2${turn} by <Task pending name='Task-4${turn}'>`,
    `INFO:${AB}:State recovery succeeded via ${via}: 3 files, 12 tests (passing)`,
    `INFO:${CV}:Starting Coach validation for ${TASK} turn ${turn}`,
    '  ⚠ Feedback: - Not all acceptance criteria met:',
    `INFO:${AB}:Criteria Progress (Turn ${turn}): 1/3 verified (33%)`,
    `INFO:${AB}:Coach provided feedback on turn ${turn}`,
  ]
}

describe('LOG_SIGNAL: how state recovery went is said per turn from its records', () => {
  // a rule's meaning that claims recovery from git for all its turns (the catalogue's synthetic-report rules do)
  const MEANS = 'The Player\'s call was cut short: the session ended without its report and GuardKit recovered state from git.'

  it('does not say the session left no report and state came from git on turns recovered via player_report', () => {
    const {task} = analyse([...cancelledTurn(1, 'git_test_detection'), ...cancelledTurn(2, 'player_report'), ...cancelledTurn(3, 'player_report'), complete('max_turns_exceeded', 3)])
    const r = withRecordedRecovery(task.task, MEANS, [1, 2, 3])
    expect(r.means).not.toMatch(/ended without its report and GuardKit recovered state from git/)
    expect(r.means).toMatch(/via git_test_detection on t1; state recovery went via player_report on t2, t3, which used the Player's report/)
    // the cancellation's own finding claims no recovery at all: its line says only that GuardKit caught it
    const f = task.findings.find((x) => x.code === 'LOG_SIGNAL' && /cancel scope/.test(x.message))
    expect(f).toBeDefined()
    expect(f!.message).not.toMatch(/from git/)
  })

  it('keeps the claim when every turn recovered from git', () => {
    const {task} = analyse([...cancelledTurn(1, 'git_test_detection'), ...cancelledTurn(2, 'git_test_detection'), complete('max_turns_exceeded', 2)])
    expect(withRecordedRecovery(task.task, MEANS, [1, 2]).means).toBe(MEANS)
  })
})

describe('LOG_SIGNAL: a synthetic feedback decision after a failed verdict is not the Coach judging', () => {
  it('says the Coach produced no verdict instead of "the Coach judged the turn without its result"', () => {
    const {task} = analyse([
      `INFO:${AB}:Executing turn 1/5`,
      `INFO:${PR}:Started turn 1: Player Implementation`,
      `INFO:${AI}:Invoking Player via task-work delegation for ${TASK} (turn 1)`,
      '  ✓ 2 files created, 1 modified, 4 tests (passing)',
      `INFO:${CV}:Starting Coach validation for ${TASK} turn 1`,
      `ERROR:${CV}:SDK coach test execution timed out after 300s`,
      `WARNING:${AB}:Coach verdict-emission failed in primary path for ${TASK} turn 1: Coach decision not found: no fenced \`\`\`json block in Coach response for ${TASK} turn 1 (200 chars content + 900 chars reasoning_content). Emitting synthetic feedback decision (the Player will retry on turn 2 with this feedback).`,
      '  ⚠ Feedback: Coach verdict-emission failed: Coach decision not found: no fenced ```json block...',
      `INFO:${PR}:Completed turn 1: feedback - Feedback: Coach verdict-emission failed: Coach decision not found: no fenced \`\`\`json block...`,
      `INFO:${AB}:Criteria Progress (Turn 1): 0/3 verified (0%)`,
      `INFO:${AB}:Coach provided feedback on turn 1`,
      `INFO:${AB}:Timeout budget exhausted for ${TASK} at turn 2: remaining=300.0s < min=600s`,
      complete('timeout_budget_exhausted', 1),
    ])
    for (const f of task.findings) expect(f.message).not.toMatch(/the Coach judged the turn/)
    const tests = task.findings.find((x) => x.code === 'LOG_SIGNAL' && /Coach's own test run timed out/.test(x.message))
    expect(tests?.message).toMatch(/The Coach produced no verdict on t1: its verdict emission failed and GuardKit emitted a synthetic feedback decision in its place\./)
    const budget = task.findings.find((x) => /Timeout budget exhausted/.test(x.message))
    expect(budget?.message).toMatch(/^The task's own time budget ran out between turns/)
    expect(budget?.message).not.toMatch(/outside the loop/)
  })
})
