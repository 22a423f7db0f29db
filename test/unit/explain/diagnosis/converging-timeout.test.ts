import {describe, expect, it} from 'vitest'
import {TASK} from './signal-harness.js'
import {AB, CV, PR, AI, analyse, complete} from './authored-runs.js'

/** A task-work turn whose Coach's tests pass and which verifies `verified` of 6 criteria (the rest are left to do). */
function progressTurn(turn: number, verified: number): string[] {
  return [
    `INFO:${AB}:Executing turn ${turn}/20`,
    `INFO:${PR}:Started turn ${turn}: Player Implementation`,
    `INFO:${AI}:Invoking Player via task-work delegation for ${TASK} (turn ${turn})`,
    '  ✓ 2 files created, 1 modified, 9 tests (passing)',
    `INFO:${PR}:Completed turn ${turn}: success - 2 files created, 1 modified, 9 tests (passing)`,
    `INFO:${CV}:Starting Coach validation for ${TASK} turn ${turn}`,
    `INFO:${CV}:Quality gate evaluation complete: tests=True (required=True), coverage=True (required=True), arch=True (required=False), audit=True (required=True), ALL_PASSED=True`,
    `INFO:${CV}:Running independent tests via subprocess: pytest tests/test_thumbs.py -v --tb=short`,
    `INFO:${CV}:Independent tests passed in 6.2s`,
    '  ⚠ Feedback: - Not all acceptance criteria met:',
    '  • Failures are retried twice',
    `INFO:${AB}:Criteria Progress (Turn ${turn}): ${verified}/6 verified (${Math.floor((100 * verified) / 6)}%)`,
    `INFO:${AB}:Criteria: ${verified} verified, ${6 - verified} rejected, 0 pending`,
    `INFO:${AB}:Coach provided feedback on turn ${turn}`,
  ]
}

const timedOut = `WARNING:guardkit.orchestrator.feature_orchestrator:Task ${TASK} timed out after 2400s (40 min)`
const budget = (turn: number) => `INFO:${AB}:Timeout budget exhausted for ${TASK} at turn ${turn}: remaining=412.7s < min=600s`

describe('a wall-clock limit that ended a loop still converging (docs/root-causes.md, "Choosing the primary cause")', () => {
  it('is the primary cause when no turn failed for a reason a record names and the verified criteria kept rising, inferred', () => {
    const {task} = analyse([...progressTurn(1, 2), ...progressTurn(2, 3), ...progressTurn(3, 5), timedOut, complete('cancelled', 3)])
    expect(task.diagnosis).toMatchObject({primary: {category: 'timeout'}, confidence: 'inferred'})
    const primary = task.findings.find((f) => f.id === task.diagnosis?.primary.findingId)!
    expect(primary.deduction).toMatch(/2 → 3 → 5 of 6/)
    expect(primary.message).not.toMatch(/the cause is why the turns took that long/i)
    expect(task.verdict.why).toMatch(/\[inferred\]/)
  })

  it('is, for the time budget too', () => {
    const {task} = analyse([...progressTurn(1, 3), ...progressTurn(2, 5), budget(3), complete('timeout_budget_exhausted', 2)])
    expect(task.diagnosis?.primary.category).toBe('timeout')
  })

  it('is not, when the verified criteria stood still or fell: the records then do not say why the loop did not converge', () => {
    const {task} = analyse([...progressTurn(1, 4), ...progressTurn(2, 4), ...progressTurn(3, 3), timedOut, complete('cancelled', 3)])
    expect(task.diagnosis?.primary.category).toBe('unknown')
    expect(task.diagnosis?.contributing.map((c) => c.category)).toContain('timeout')
  })

  it('is not, when a turn failed for a reason a record names (that reason is the primary cause)', () => {
    const fail = (turn: number, v: number) => progressTurn(turn, v).map((l) => l.replace('Independent tests passed in 6.2s', 'Independent tests failed in 6.2s'))
      .flatMap((l) => (l.includes('tests failed in') ? [l, `WARNING:${CV}:Independent test verification failed for ${TASK} (classification=infrastructure, confidence=high)`] : [l]))
    const {task} = analyse([...fail(1, 2), ...fail(2, 3), timedOut, complete('cancelled', 2)])
    expect(task.diagnosis?.primary.category).toBe('test-environment')
  })
})
