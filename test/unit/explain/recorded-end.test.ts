import {describe, expect, it} from 'vitest'
import {AB, CV, FO, analyse, complete, playerFailsTurn} from './diagnosis/authored-runs.js'
import {runOf, TASK} from './diagnosis/signal-harness.js'

/** A turn the Coach rejects on the same required gate, its Coach's test set-up recorded. */
function gateTurn(turn: number): string[] {
  return [
    `INFO:${AB}:Executing turn ${turn}/5`,
    `INFO:guardkit.orchestrator.progress:Started turn ${turn}: Player Implementation`,
    `INFO:guardkit.orchestrator.agent_invoker:Invoking Player via task-work delegation for ${TASK} (turn ${turn})`,
    `INFO:${CV}:Starting Coach validation for ${TASK} turn ${turn}`,
    `INFO:${CV}:Test execution environment: sys.executable=/usr/bin/python3, which pytest=/usr/bin/pytest, coach_test_execution=sdk`,
    `INFO:${CV}:Running independent tests via subprocess: pytest tests/test_a.py -v --tb=short`,
    // four more warnings of the Coach's logger on every turn: past the logger's cap, ingest keeps the first four message
    // shapes of a turn (src/ingest/log/signals/store.ts), so the gate line after them is not kept on the later turns
    ...['a', 'b', 'c', 'd'].map((x) => `WARNING:${CV}:Specialist ${x} skipped on turn ${turn}`),
    `INFO:${CV}:Quality gate evaluation complete: tests=None (required=True), coverage=True (required=True), arch=True (required=False), audit=True (required=True), ALL_PASSED=False`,
    '  ⚠ Feedback: - Tests did not pass during task-work execution',
    `INFO:${AB}:Criteria Progress (Turn ${turn}): 0/3 verified (0%)`,
    `INFO:${AB}:Coach provided feedback on turn ${turn}`,
  ]
}

describe('the recorded end of a task (verdict.ts, signals.ts)', () => {
  it('a feature task timeout that more turns of the task followed is not its end', () => {
    const lines = [...gateTurn(1), `WARNING:${FO}:Task ${TASK} timed out after 2400s (40 min)`, ...gateTurn(2), ...gateTurn(3), `WARNING:${AB}:Max turns (3) exceeded for ${TASK}`, complete('max_turns_exceeded', 3)]
    const {task} = analyse(lines)
    expect(task.verdict.happened).toBe('max_turns_exceeded after 3 turns')
    const limit = task.findings.find((f) => (f.detail as {ruleId?: string} | undefined)?.ruleId === 'timeout.feature-task-timeout')
    // it is said, as context, with the turns that followed it; never as what ended the task
    expect(limit?.message).toMatch(/It did not end the task: the task's loop ran on through t2, t3, and it ended \(max_turns_exceeded\) after turn 3/)
    expect(limit?.severity).toBe('low')
    expect(task.diagnosis?.contributing.map((c) => c.category) ?? []).not.toContain('timeout')
    expect(task.findings.some((f) => /wall-clock limit[^.]* ended the task/i.test(f.message))).toBe(false)
  })

  it('a feature task timeout after the task\'s last turn is still its recorded end', () => {
    const lines = [...gateTurn(1), ...gateTurn(2), `WARNING:${FO}:Task ${TASK} timed out after 2400s (40 min)`, complete('cancelled', 2)]
    const {task} = analyse(lines)
    expect(task.verdict.happened).toBe('cancelled at turn 2 (feature task timeout, 2400 s)')
  })
})

describe('run options read at ingest', () => {
  it('keeps fresh=True of the start record, the Coach\'s coach_test_execution and how it ran its tests', () => {
    const run = runOf(gateTurn(1), {ownTurns: true})
    const turn = run.tasks[0]!.turns[0]!
    expect(turn.coach.testVia?.value).toBe('subprocess')
    expect(run.attempts[0]!.settings.coachTestExecution?.value).toBe('sdk')
  })
})

describe('"the same error on every turn" is never said of a task that was approved', () => {
  it('an error on the turns before the approving one does not make it "unfixable"', () => {
    const err = 'Agent player received API error: authentication_failed'
    const approved = [
      `INFO:${AB}:Executing turn 3/30`,
      `INFO:guardkit.orchestrator.progress:Started turn 3: Player Implementation`,
      `INFO:${CV}:Starting Coach validation for ${TASK} turn 3`,
      `INFO:${CV}:Coach approved ${TASK} turn 3`,
      `INFO:${AB}:Criteria Progress (Turn 3): 3/3 verified (100%)`,
    ]
    const {task} = analyse([...playerFailsTurn(1, err), ...playerFailsTurn(2, err), ...approved, complete('approved', 3)])
    for (const f of task.findings) {
      expect(f.message).not.toMatch(/on every one of the|a detector keyed on this error would have stopped/)
    }
  })
})

describe('turns and counts of signal lines ingest capped (signals.ts)', () => {
  it('are said to be of the lines kept, with how many were not and the later turns that may hold it too', () => {
    const turns = Array.from({length: 35}, (_, i) => gateTurn(i + 1)).flat()
    const {task} = analyse([...turns, `WARNING:${AB}:Max turns (35) exceeded for ${TASK}`, complete('max_turns_exceeded', 35)])
    expect(task.task.signalsDropped ?? 0).toBeGreaterThan(0)
    const gate = task.findings.find((f) => (f.detail as {ruleId?: string} | undefined)?.ruleId === 'configuration.tests-required-never-run')!
    const last = Math.max(...gate.turns)
    expect(last).toBeLessThan(35)
    expect(gate.message).toContain(`lines of those kept on t1–t${last}; ingest did not keep`)
    expect(gate.message).toContain(`so t${last + 1}–t35 may show it too`)
    expect(gate.message).not.toMatch(/on every one of the/)
    // the feedback is read from the turn records, never capped: its count stands as it is
    const feedback = task.findings.find((f) => (f.detail as {ruleId?: string} | undefined)?.ruleId === 'quality-gate.tests-feedback')
    expect(feedback?.message).toContain('(35 lines on t1–t35)')
    if (task.diagnosis?.primary.findingId === gate.id) expect(task.diagnosis.primary.summary).toContain('(of the signal lines kept)')
  })
})

describe('fresh=True of the run\'s start record', () => {
  it('is kept on the run\'s settings', async () => {
    const {createLogIngest} = await import('../../../src/ingest/log/ingest.js')
    const ingest = createLogIngest()
    ingest.startFile('run.log')
    for (const line of [
      'dev@box proj % guardkit autobuild feature FEAT-A1 --fresh',
      'INFO:guardkit.cli.autobuild:Starting feature orchestration: FEAT-A1 (max_turns=5, stop_on_failure=True, resume=False, fresh=True, sdk_timeout=None)',
    ]) ingest.push(line)
    const settings = ingest.finish().attempts[0]!.settings
    expect(settings.fresh).toEqual({value: true, evidence: [{file: 'run.log', line: 2}]})
  })
})
