import {describe, expect, it} from 'vitest'
import {analyzeRun} from '../../../src/explain/analyze-run.js'
import {failingTurns} from '../../../src/explain/diagnosis/choose-primary.js'
import {timeoutWhen} from '../../../src/explain/feature.js'
import {createLogIngest} from '../../../src/ingest/log/ingest.js'
import {mergeArtifacts} from '../../../src/ingest/merge-artifacts.js'
import type {RunRecord} from '../../../src/model/run-record.js'
import {collectTaskInputs} from '../../../src/replay/turn-inputs.js'
import {AB, CV, FO, WC, analyse, complete} from './diagnosis/authored-runs.js'
import {runOf, TASK} from './diagnosis/signal-harness.js'

/** A turn of three the Coach rejects on its gates, its criteria count logged. */
function gate(n: number): string[] {
  return [
    `INFO:${AB}:Executing turn ${n}/3`,
    `INFO:${CV}:Starting Coach validation for ${TASK} turn ${n}`,
    '  ⚠ Feedback: - Tests did not pass during task-work execution:',
    `INFO:${AB}:Criteria Progress (Turn ${n}): 0/3 verified (0%)`,
    `INFO:${AB}:Coach provided feedback on turn ${n}`,
  ]
}

/** A turn whose Player reports passing tests and whose Coach's agent-invocations gate rejects it; its checkpoint fails. */
function invocationGateTurn(turn: number): string[] {
  return [
    `INFO:${AB}:Executing turn ${turn}/30`,
    `INFO:guardkit.orchestrator.progress:Started turn ${turn}: Player Implementation`,
    `INFO:guardkit.orchestrator.agent_invoker:Invoking Player via task-work delegation for ${TASK} (turn ${turn})`,
    '  ✓ 3 files created, 2 modified, 1 tests (passing)',
    `INFO:${CV}:Starting Coach validation for ${TASK} turn ${turn}`,
    `WARNING:${CV}:Agent-invocations gate rejected ${TASK}: missing phases 3`,
    '  ⚠ Feedback: - Task-work produced a report with 2 of 3 required agent invocations. Missing ph...',
    `INFO:${AB}:Criteria Progress (Turn ${turn}): 0/4 verified (0%)`,
    `INFO:${WC}:Creating checkpoint for ${TASK} turn ${turn} (tests: fail, count: 0)`,
    `INFO:${AB}:Coach provided feedback on turn ${turn}`,
  ]
}

const pollutionStop = [
  `WARNING:${WC}:Context pollution detected: 3 consecutive test failures in turns [1, 2, 3]`,
  `WARNING:${WC}:No passing checkpoints found in history`,
  `ERROR:${AB}:Unrecoverable stall detected for ${TASK}: context pollution detected but no passing checkpoint exists. Exiting loop early to avoid wasting turns.`,
]

const row = (turn: number, phase: string, status: string, summary: string) => `│ ${String(turn).padEnd(6)} │ ${phase.padEnd(25)} │ ${status.padEnd(12)} │ ${summary.padEnd(60)} │`

/** The summary table and the status box GuardKit prints for the stop (docs/record-formats.md §5.5), the box's text as given. */
function summary(boxText: readonly string[]): string[] {
  const rows = [1, 2, 3].flatMap((t) => [
    row(t, 'Player Implementation', '✓ success', '3 files created, 2 modified, 1 tests (passing)'),
    row(t, 'Coach Validation', '⚠ feedback', 'Feedback: - Task-work produced a report with 2 of 3 required'),
  ])
  const width = 120
  const boxLine = (s: string) => `│ ${s.padEnd(width - 4)} │`
  return [
    '',
    '                      AutoBuild Summary (UNRECOVERABLE_STALL)',
    `╭${'─'.repeat(8)}┬${'─'.repeat(27)}┬${'─'.repeat(14)}┬${'─'.repeat(62)}╮`,
    row(0, 'Phase', 'Status', 'Summary').replace('0     ', 'Turn  '),
    `├${'─'.repeat(8)}┼${'─'.repeat(27)}┼${'─'.repeat(14)}┼${'─'.repeat(62)}┤`,
    ...rows,
    `╰${'─'.repeat(8)}┴${'─'.repeat(27)}┴${'─'.repeat(14)}┴${'─'.repeat(62)}╯`,
    '',
    `╭${'─'.repeat(width - 2)}╮`,
    boxLine('Status: UNRECOVERABLE_STALL'),
    boxLine(''),
    ...boxText.map(boxLine),
    `╰${'─'.repeat(width - 2)}╯`,
    `INFO:guardkit.orchestrator.progress:Summary rendered: unrecoverable_stall after 3 turns`,
    complete('unrecoverable_stall', 3),
  ]
}

describe('the stop GuardKit\'s own summary names (stall.ts, verdict.ts)', () => {
  const turns = [1, 2, 3].flatMap(invocationGateTurn)

  it('follows the status box: the named stall stopped the loop, the pollution rule co-fired with it', () => {
    const {task} = analyse([...turns, ...pollutionStop, ...summary([
      'Unrecoverable stall detected after 3 turn(s) .',
      'Coach\'s agent-invocations gate rejected the Player\'s task-work results for 3 consecutive turns (missing phases: [\'3\'];',
      'expected 3, actual 2).',
      'Co-fired stall sub-types: context_pollution_stall_no_checkpoint.',
      'Worktree preserved for inspection.',
    ])])
    expect(task.task.stall?.recordedStop?.reason).toBe('Coach\'s agent-invocations gate rejected the Player\'s task-work results for 3 consecutive turns (missing phases: [\'3\']; expected 3, actual 2)')
    expect(task.task.stall?.recordedStop?.coFired).toEqual(['context_pollution_stall_no_checkpoint'])
    expect(task.verdict.happened).toBe('unrecoverable_stall at turn 3 (Coach\'s agent-invocations gate rejected the Player\'s task-work results for 3 consecutive turns (missing phases: [\'3\']; expected 3, actual 2); co-fired: context_pollution_stall_no_checkpoint)')
    const pollution = task.findings.find((f) => f.code === 'CONTEXT_POLLUTION_STALL')!
    expect(pollution.message).toMatch(/^GuardKit's summary records what stopped the loop at turn 3: "Coach's agent-invocations gate rejected/)
    expect(pollution.message).toContain('the context-pollution rule fired with it')
    expect(pollution.message).not.toMatch(/because the checkpoints|not stopped by repeated feedback/)
    expect(pollution.severity).toBe('medium')
    // the Player reported passing tests on every turn: no advice to make them pass
    expect(task.verdict.doNow.join(' ')).not.toMatch(/make the Player's own test run pass/i)
  })

  it('without a stop named in the box, the pollution rule is the stop; the Player\'s own passing reports keep the test advice out', () => {
    const {task} = analyse([...turns, ...pollutionStop, ...summary([
      'Unrecoverable stall detected after 3 turn(s).',
      'Worktree preserved for inspection.',
    ])])
    expect(task.task.stall?.recordedStop).toBeUndefined()
    expect(task.verdict.happened).toBe('unrecoverable_stall at turn 3 (context pollution: no passing checkpoint)')
    const pollution = task.findings.find((f) => f.code === 'CONTEXT_POLLUTION_STALL')!
    expect(pollution.message).toBe('The loop stopped at turn 3 because the checkpoints of t1–t3 all recorded failing tests and none had passed to roll back to; it was not stopped by repeated feedback.')
    expect(pollution.remediation).toContain('the Player reported its tests passing on t1–t3')
    expect(pollution.remediation).not.toMatch(/make the Player's own test run pass/)
  })
})

describe('where the records of a task end (verdict.ts, task-draft.ts)', () => {
  it('a turn that started and left no result is where the records end, not the last turn with a result', () => {
    const lines = [
      `INFO:${AB}:Executing turn 1/30`,
      `INFO:${CV}:Starting Coach validation for ${TASK} turn 1`,
      '  ⚠ Feedback: - Not all acceptance criteria met:',
      `INFO:${AB}:Criteria Progress (Turn 1): 1/3 verified (33%)`,
      `INFO:${AB}:Coach provided feedback on turn 1`,
      `INFO:${AB}:Executing turn 2/30`,
      `INFO:guardkit.orchestrator.agent_invoker:Invoking Player via task-work delegation for ${TASK} (turn 2)`,
    ]
    const report = analyzeRun(runOf(lines, {ownTurns: true}))
    const task = report.tasks.find((t) => t.task.taskId === TASK)!
    expect(task.verdict.happened).toBe('no outcome recorded (the records end after turn 2 started; the last result is turn 1\'s)')
  })
})

describe('a time limit before a turn is not a timeout during it (feature.ts)', () => {
  it('the time budget is checked before the turn its line names: that turn did not start', () => {
    expect(timeoutWhen({seconds: null, turn: 2, stage: 'before-turn'})).toBe('time budget exhausted before turn 2 (turn 2 did not start)')
    expect(timeoutWhen({seconds: 2400, turn: 17, stage: 'during-turn'})).toBe('after 2400 s, during turn 17')
    expect(timeoutWhen({seconds: 2400, turn: 17, stage: 'during-turn', laterTurn: 25})).toBe('after 2400 s, during turn 17; the task\'s own loop went on to turn 25')
  })

  it('a feature run whose task hit its time budget before turn 2 says so in the feature picture', () => {
    const lines = [
      'dev@box proj % guardkit autobuild feature FEAT-T1',
      `INFO:guardkit.cli.autobuild:Starting feature orchestration: FEAT-T1 (max_turns=5)`,
      `INFO:${AB}:Starting orchestration for ${TASK} (resume=False)`,
      `INFO:${AB}:Executing turn 1/5`,
      `INFO:${CV}:Starting Coach validation for ${TASK} turn 1`,
      '  ⚠ Feedback: - Not all acceptance criteria met:',
      `INFO:${AB}:Criteria Progress (Turn 1): 1/3 verified (33%)`,
      `INFO:${AB}:Coach provided feedback on turn 1`,
      `INFO:${AB}:Timeout budget exhausted for ${TASK} at turn 2: remaining=262.3s < min=600s`,
      complete('timeout_budget_exhausted', 1),
    ]
    const report = analyzeRun(runOfFeature(lines))
    const timeout = report.feature?.timeouts.find((t) => t.taskId === TASK)
    expect(timeout).toMatchObject({turn: 2, stage: 'before-turn'})
    expect(timeoutWhen(timeout!)).toBe('time budget exhausted before turn 2 (turn 2 did not start)')
  })
})

describe('criteria counts come from records (recorded-stall.ts, stall.ts)', () => {
  it('a run of feedback whose turns record no criteria count is not said to have had 0 passing', () => {
    const turn = (n: number) => [
      `INFO:${AB}:Executing turn ${n}/3`,
      `INFO:${CV}:Starting Coach validation for ${TASK} turn ${n}`,
      '  ⚠ Feedback: - Tests did not pass during task-work execution:',
      `INFO:${AB}:Coach provided feedback on turn ${n}`,
    ]
    const {task} = analyse([...turn(1), ...turn(2), ...turn(3), `WARNING:${AB}:Max turns (3) exceeded for ${TASK}`, complete('max_turns_exceeded', 3)])
    const said = task.findings.filter((f) => f.code === 'MAX_TURNS_WITHOUT_STALL' || f.code === 'STALL_DEFEATED_BY_VARIABLE_OUTPUT')
    expect(said.length).toBeGreaterThan(0)
    for (const f of said) {
      expect(f.message).toContain('with no criteria count in the log')
      expect(f.message).not.toMatch(/0 criteria passing/)
    }
  })

  it('a turn with no decision and no error in its records is not listed as failing', () => {
    const run = runOf([`INFO:${AB}:Executing turn 1/3`, ...gate(2), ...gate(3), complete('max_turns_exceeded', 3)], {ownTurns: true})
    const task = run.tasks.find((t) => t.taskId === TASK)!
    expect(task.turns.map((t) => t.turn)).toEqual([1, 2, 3])
    expect(failingTurns(task)).toEqual([2, 3])
  })
})

describe('the replay\'s recorded end (turn-inputs.ts)', () => {
  it('a feature task timeout that more turns of the task followed is not a boundary', () => {
    const run = runOf([...gate(1), `WARNING:${FO}:Task ${TASK} timed out after 2400s (40 min)`, ...gate(2), ...gate(3), complete('max_turns_exceeded', 3)], {ownTurns: true})
    const task = run.tasks.find((t) => t.taskId === TASK)!
    expect(collectTaskInputs(run, task).boundary).toBeNull()
  })

  it('a feature task timeout after the task\'s last turn is its boundary', () => {
    const run = runOf([...gate(1), ...gate(2), `WARNING:${FO}:Task ${TASK} timed out after 2400s (40 min)`, complete('cancelled', 2)], {ownTurns: true})
    const task = run.tasks.find((t) => t.taskId === TASK)!
    expect(collectTaskInputs(run, task).boundary).toMatchObject({kind: 'timeout', seconds: 2400})
  })
})

/** An authored feature run: its own start lines, no task-run prelude. */
function runOfFeature(lines: readonly string[]): RunRecord {
  const ingest = createLogIngest()
  ingest.startFile('run.log')
  for (const line of lines) ingest.push(line)
  return mergeArtifacts({runPath: 'run.log', fromLogs: ingest.finish(), worktrees: [], fixture: null, issues: []})
}
