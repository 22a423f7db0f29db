import {describe, expect, it} from 'vitest'
import {analyse, complete, playerFailsTurn} from '../diagnosis/authored-runs.js'
import {TASK} from '../diagnosis/signal-harness.js'

const AB = 'guardkit.orchestrator.autobuild'
const CV = 'guardkit.orchestrator.quality_gates.coach_validator'

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

  it('is not said when the rule matched a different error on each turn (other failing tests)', () => {
    const {task} = analyse([...failingTestTurn(1, 'test_step_values'), ...failingTestTurn(2, 'test_day_names'), complete('max_turns_exceeded', 2)])
    const f = task.findings.find((x) => x.category === 'code-defect')!
    expect(f.turns).toEqual([1, 2])
    expect(f.message).not.toMatch(/same error/)
    expect(task.diagnosis?.primary.summary).not.toMatch(/same error/)
  })
})
