import {describe, expect, it} from 'vitest'
import type {LogIngestResult} from '../../../../src/ingest/build-from-log.js'
import {createLogIngest} from '../../../../src/ingest/log/ingest.js'
import type {Signal} from '../../../../src/model/signal.js'

/** Authored after the shapes of docs/signals.md: a feature with two tasks in one wave. */
function ingest(lines: readonly string[]): LogIngestResult {
  const i = createLogIngest()
  i.startFile('run.log')
  for (const l of lines) i.push(l)
  return i.finish()
}

const START = [
  'dev@box proj % guardkit autobuild feature FEAT-AB12',
  'INFO:guardkit.cli.autobuild:Starting feature orchestration: FEAT-AB12 (max_turns=5, stop_on_failure=True, resume=False)',
]
const loop = (id: string) => [
  `INFO:guardkit.orchestrator.autobuild:Starting orchestration for ${id} (resume=False)`,
  'INFO:guardkit.orchestrator.autobuild:Executing turn 1/5',
  `INFO:guardkit.orchestrator.agent_invoker:Invoking Player via task-work delegation for ${id} (turn 1)`,
]
const texts = (signals: readonly Signal[] | undefined) => (signals ?? []).map((s) => s.text)

describe('signals: what ingest keeps of the trouble a log records (docs/ingest.md, "Signals")', () => {
  it('keeps WARNING and ERROR records and INFO records of a failure shape, with the line to quote', () => {
    const r = ingest([
      ...START,
      ...loop('TASK-AB-001'),
      'WARNING:guardkit.orchestrator.agent_invoker:[TASK-AB-001] Something odd happened',
      'INFO:guardkit.orchestrator.quality_gates.coach_validator:Independent tests failed in 0.6s',
      'INFO:guardkit.orchestrator.progress:Started turn 1: Player Implementation',
      'INFO:guardkit.orchestrator.autobuild:Checkpoint manager initialized for TASK-AB-001 (rollback_on_pollution=True)',
    ])
    const t = r.tasks.find((x) => x.taskId === 'TASK-AB-001')!
    expect(texts(t.signals)).toEqual(['[TASK-AB-001] Something odd happened', 'Independent tests failed in 0.6s'])
    expect(t.signals![0]).toMatchObject({source: 'record', level: 'WARNING', logger: 'guardkit.orchestrator.agent_invoker', turn: 1, evidence: {file: 'run.log', line: 6, text: '[TASK-AB-001] Something odd happened'}})
  })

  it('does not keep the indented lines of a block its header opened (the 0/N dump), only the header', () => {
    const r = ingest([
      ...START,
      ...loop('TASK-AB-001'),
      'WARNING:guardkit.orchestrator.quality_gates.coach_validator:Criteria verification 0/2 - diagnostic dump:',
      'WARNING:guardkit.orchestrator.quality_gates.coach_validator:  AC text: Users can log in',
      'WARNING:guardkit.orchestrator.quality_gates.coach_validator:  requirements_met: []',
    ])
    expect(texts(r.tasks[0]!.signals)).toEqual(['Criteria verification 0/2 - diagnostic dump:'])
  })

  it('quotes the Error line of a failure whose first line says only that it failed, on its own line number', () => {
    const r = ingest([
      ...START,
      ...loop('TASK-AB-001'),
      'INFO:guardkit.orchestrator.quality_gates.coach_validator:Starting Coach validation for TASK-AB-001 turn 1',
      '  ✗ [2026-06-03T09:19:51.920Z] Coach failed',
      '   Error: Coach decision not found: /home/dev/proj/.guardkit/autobuild/TASK-AB-001/coach_turn_1.json',
    ])
    const s = r.tasks[0]!.signals!.find((x) => x.logger === '(console)')!
    expect(s.text).toBe('Coach failed Error: Coach decision not found: /home/dev/proj/.guardkit/autobuild/TASK-AB-001/coach_turn_1.json')
    expect(s.evidence).toEqual({file: 'run.log', line: 8, text: 'Error: Coach decision not found: /home/dev/proj/.guardkit/autobuild/TASK-AB-001/coach_turn_1.json'})
  })

  it('quotes at most 300 code points of a long line, and marks the cut so the quote is not read as the whole line', () => {
    const tail = 'You can increase the limit by setting the `recursion_limit` config key.'
    const long = `[TASK-AB-001] Phase-A gather failed: ${'x'.repeat(300)} ${tail}`
    const r = ingest([...START, ...loop('TASK-AB-001'), `WARNING:guardkit.orchestrator.agent_invoker:${long}`])
    const quote = r.tasks[0]!.signals![0]!.evidence.text!
    expect(quote).toBe(`${long.slice(0, 300)} …`)
    expect(quote).not.toContain(tail)
    const short = ingest([...START, ...loop('TASK-AB-001'), 'WARNING:guardkit.orchestrator.agent_invoker:[TASK-AB-001] short'])
    expect(short.tasks[0]!.signals![0]!.evidence.text).toBe('[TASK-AB-001] short')
  })

  it("keeps a traceback's exception line, not the traceback", () => {
    const r = ingest([
      ...START,
      ...loop('TASK-AB-001'),
      'Traceback (most recent call last):',
      '  File "/opt/guardkit/orchestrator/agent_invoker.py", line 10, in invoke',
      '    build_backend(max_chars=1)',
      "TypeError: build_backend() got an unexpected keyword argument 'max_chars'",
    ])
    expect(texts(r.tasks[0]!.signals)).toEqual(["TypeError: build_backend() got an unexpected keyword argument 'max_chars'"])
    expect(r.tasks[0]!.signals![0]!.evidence.line).toBe(9)
  })

  it('keeps an interrupt: ^C and click\'s Aborted!', () => {
    const r = ingest([...START, ...loop('TASK-AB-001'), '^C', 'Aborted!'])
    expect(texts(r.tasks[0]!.signals)).toEqual(['^C', 'Aborted!'])
  })

  it('gives a signal to the task its text names, whichever task logged last (tasks of a wave run at once)', () => {
    const r = ingest([
      ...START,
      ...loop('TASK-AB-001'),
      ...loop('TASK-AB-002'),
      'ERROR:guardkit.orchestrator.agent_invoker:[TASK-AB-001] SDK TIMEOUT: task-work execution exceeded 600s timeout',
    ])
    expect(texts(r.tasks.find((t) => t.taskId === 'TASK-AB-001')!.signals)).toEqual(['[TASK-AB-001] SDK TIMEOUT: task-work execution exceeded 600s timeout'])
    expect(texts(r.tasks.find((t) => t.taskId === 'TASK-AB-002')!.signals)).toEqual([])
  })

  it('keeps what comes before any task loop for the run (a feature whose task files could not be copied)', () => {
    const r = ingest([...START, "WARNING:guardkit.orchestrator.feature_orchestrator:Cannot copy tasks: 'tasks' directory not found in path: .", ...loop('TASK-AB-001')])
    expect(texts(r.attempts[0]!.signals)).toEqual(["Cannot copy tasks: 'tasks' directory not found in path: ."])
    expect(texts(r.tasks[0]!.signals)).toEqual([])
  })

  it('counts an identical line repeated in one turn on the first, and caps what one logger can fill', () => {
    const same = Array.from({length: 3}, () => 'WARNING:guardkit.orchestrator.autobuild:Same thing again')
    const storm = Array.from({length: 70}, (_, i) => `ERROR:graphiti_core.driver.falkordb_driver:Error executing FalkorDB query: failure ${i}`)
    const r = ingest([...START, ...loop('TASK-AB-001'), ...same, ...storm, 'ERROR:guardkit.orchestrator.agent_invoker:[TASK-AB-001] the one that matters'])
    const t = r.tasks[0]!
    expect(t.signals!.find((s) => s.text === 'Same thing again')!.repeats).toBe(2)
    expect(t.signals!.filter((s) => s.logger === 'graphiti_core.driver.falkordb_driver')).toHaveLength(60)
    expect(t.signalsDropped).toBe(10)
    expect(texts(t.signals)).toContain('[TASK-AB-001] the one that matters')
  })

  it('a long run keeps each turn\'s first errors of a logger after the logger\'s cap is reached (its last turns are not lost)', () => {
    // six messages of six shapes from one logger on each of 80 turns (numbers differ from turn to turn, words do not)
    const turns = Array.from({length: 80}, (_, k) => k + 1).flatMap((n) => [
      `INFO:guardkit.orchestrator.autobuild:Executing turn ${n}/80`,
      `INFO:guardkit.orchestrator.agent_invoker:Invoking Player via task-work delegation for TASK-AB-001 (turn ${n})`,
      `ERROR:guardkit.orchestrator.agent_invoker:[TASK-AB-001] Player failed after ${n * 7}s: connection reset`,
      `ERROR:guardkit.orchestrator.agent_invoker:[TASK-AB-001] Retry ${n} gave up`,
      ...['a', 'b', 'c', 'd'].map((x) => `ERROR:guardkit.orchestrator.agent_invoker:[TASK-AB-001] Cleanup ${x} failed after ${n}s`),
    ])
    const t = ingest([...START, `INFO:guardkit.orchestrator.autobuild:Starting orchestration for TASK-AB-001 (resume=False)`, ...turns]).tasks[0]!
    const failed = t.signals!.filter((s) => s.text.includes('Player failed after'))
    expect(failed.map((s) => s.turn)).toEqual(Array.from({length: 80}, (_, k) => k + 1))
    // the logger's cap still holds for the rest: 60 kept in turn order (turns 1–10), then the first four shapes of
    // each later turn: a fifth and sixth shape on the same turn are counted, not kept
    const kept = t.signals!.filter((s) => s.logger === 'guardkit.orchestrator.agent_invoker')
    expect(kept).toHaveLength(60 + 70 * 4)
    expect(kept.filter((s) => s.turn === 80).map((s) => s.text)).toEqual(['[TASK-AB-001] Player failed after 560s: connection reset', '[TASK-AB-001] Retry 80 gave up', '[TASK-AB-001] Cleanup a failed after 80s', '[TASK-AB-001] Cleanup b failed after 80s'])
    expect(t.signalsDropped).toBe(80 * 6 - (60 + 70 * 4))
  })

  it('cuts a signal to one line of 400 code points', () => {
    const r = ingest([...START, ...loop('TASK-AB-001'), `ERROR:guardkit.orchestrator.agent_invoker:${'é'.repeat(1000)}`])
    expect([...r.tasks[0]!.signals![0]!.text]).toHaveLength(400)
  })

  it('reads a Claude Code transcript\'s run once: a print that repeats it adds only its new signals (docs/ingest.md, "Transcripts")', () => {
    const run = [
      'INFO:guardkit.cli.autobuild:Starting feature orchestration: FEAT-AB12 (max_turns=5, stop_on_failure=True, resume=False)',
      ...loop('TASK-AB-001'),
      'WARNING:guardkit.orchestrator.agent_invoker:[TASK-AB-001] Something odd happened',
      'INFO:guardkit.orchestrator.quality_gates.coach_validator:Independent tests failed in 0.6s',
      'INFO:guardkit.orchestrator.progress:Started turn 1: Player Implementation',
    ]
    const print = (records: readonly string[]) => ['⏺ Task Output b1e2c3d', `  ⎿  ${records[0]}`, ...records.slice(1).map((l) => `    ${l}`), '']
    const r = ingest([
      '⏺ Bash(guardkit-py autobuild feature FEAT-AB12 --max-turns 5) timeout: 10m 0s',
      '  ⎿  Running in the background (↓ to manage)',
      '',
      ...print(run),
      '⏺ The build is running.',
      '',
      // the whole output again, then what the first print had not reached: an unrecognised WARNING, the next turn
      ...print([...run, 'WARNING:guardkit.orchestrator.agent_invoker:[TASK-AB-001] Something else happened', 'INFO:guardkit.orchestrator.autobuild:Executing turn 2/5']),
    ])
    expect(r.tasks).toHaveLength(1)
    expect(texts(r.tasks[0]!.signals)).toEqual(['[TASK-AB-001] Something odd happened', 'Independent tests failed in 0.6s', '[TASK-AB-001] Something else happened'])
    expect(r.tasks[0]!.signals!.map((x) => x.evidence.line)).toEqual([9, 10, 23])
  })
})

/**
 * Authored after the concurrent waves of the corpus (graphiti_enhancement max_turns_exceeded, db_stalled,
 * gb10 db_feature_2, FORGE-FEAT-005): records that name no task, while two tasks' loops run at once
 * (docs/ingest.md, "Signals"). In each, TASK-AB-001 is the task the Player invoker logged for last and
 * the task seen last; the record belongs to TASK-AB-002, named by the record GuardKit writes after it.
 */
describe('signals of tasks running at once: the record that names the task, not the task seen last', () => {
  const AI = 'INFO:guardkit.orchestrator.agent_invoker'
  const WT = '/repo/.guardkit/worktrees/FEAT-AB12/.guardkit/autobuild'
  const two = [...START, ...loop('TASK-AB-002'), ...loop('TASK-AB-001'), `${AI}:[TASK-AB-001] ToolUseBlock Write input keys: ['file_path', 'content']`]
  const of = (r: LogIngestResult, id: string) => r.tasks.find((t) => t.taskId === id)!
  const turn1 = (r: LogIngestResult, id: string) => of(r, id).turns.find((t) => t.turn === 1)
  const lineOf = (r: LogIngestResult, id: string, text: string) => of(r, id).signals!.filter((s) => s.text.includes(text)).map((s) => s.evidence.line)

  it('SDK completed → [TASK-X] Message summary: the summary names the task, with another task\'s record between', () => {
    const r = ingest([
      ...two,
      `${AI}:SDK completed: turns=50`,
      `${AI}:[TASK-AB-001] ToolUseBlock Write input keys: ['file_path', 'content']`,
      `${AI}:[TASK-AB-002] Message summary: total=157, assistant=91, tools=58, results=1`,
      `${AI}:Wrote task_work_results.json to ${WT}/TASK-AB-002/task_work_results.json`,
      `${AI}:Created Player report from task_work_results.json for TASK-AB-002 turn 1`,
    ])
    expect(lineOf(r, 'TASK-AB-002', 'SDK completed: turns=50')).toEqual([10])
    expect(lineOf(r, 'TASK-AB-001', 'SDK completed')).toEqual([])
  })

  it('two SDK sessions ending one after the other: each summary names its own, in order', () => {
    const r = ingest([
      ...two,
      `${AI}:SDK completed: turns=50`,
      `${AI}:SDK completed: turns=12`,
      `${AI}:[TASK-AB-002] Message summary: total=157, assistant=91, tools=58, results=1`,
      `${AI}:[TASK-AB-001] Message summary: total=20, assistant=11, tools=8, results=1`,
    ])
    expect(texts(of(r, 'TASK-AB-002').signals)).toEqual(['SDK completed: turns=50'])
    expect(texts(of(r, 'TASK-AB-001').signals)).toEqual(['SDK completed: turns=12'])
  })

  it('Completed turn N: error - Player failed and ✗ Player failed → Attempting state recovery for TASK-X turn N', () => {
    const r = ingest([
      ...two,
      'ERROR:guardkit.orchestrator.agent_invoker:[TASK-AB-002] SDK API error in stream: unknown',
      '  ✗ Player failed: SDK agent error: unknown',
      '   Error: SDK agent error: unknown',
      'INFO:guardkit.orchestrator.progress:Completed turn 1: error - Player failed: SDK agent error: unknown',
      'INFO:guardkit.orchestrator.autobuild:Attempting state recovery for TASK-AB-002 turn 1 after Player failure: SDK agent error: unknown',
      'INFO:guardkit.orchestrator.state_tracker:Capturing state for TASK-AB-002 turn 1',
    ])
    expect(lineOf(r, 'TASK-AB-002', 'Player failed')).toEqual([11, 13])
    expect(lineOf(r, 'TASK-AB-001', 'Player failed')).toEqual([])
    // the events too: the Player's error is the turn's of the task that failed
    expect(turn1(r, 'TASK-AB-002')?.player.error?.value).toContain('SDK agent error: unknown')
    expect(turn1(r, 'TASK-AB-001')?.player.error ?? null).toBeNull()
  })

  it('two failures with the same error, back to back: each progress line goes with the recovery record after it', () => {
    const failure = (id: string, ts: string, between: readonly string[]) => [
      `${AI}:Wrote direct mode player report to ${WT}/${id}/player_turn_1.json`,
      `  ✗ [2026-04-26T07:37:${ts}Z] Player failed: Unexpected error: Agent player received API error: authentication_failed`,
      '   Error: Unexpected error: Agent player received API error: authentication_failed',
      ...between,
      `INFO:guardkit.orchestrator.progress:[2026-04-26T07:37:${ts}Z] Completed turn 1: error - Player failed: Unexpected error: Agent player received API error: authentication_failed`,
      `INFO:guardkit.orchestrator.autobuild:Attempting state recovery for ${id} turn 1 after Player failure: Unexpected error: Agent player received API error: authentication_failed`,
    ]
    // the first task's state capture is logged between the second's console line and its progress line
    const r = ingest([...two, ...failure('TASK-AB-001', '59.109', []), ...failure('TASK-AB-002', '59.111', ['INFO:guardkit.orchestrator.state_tracker:Capturing state for TASK-AB-001 turn 1'])])
    expect(lineOf(r, 'TASK-AB-001', 'Player failed')).toEqual([11, 13])
    expect(lineOf(r, 'TASK-AB-002', 'Player failed')).toEqual([16, 19])
  })

  it('✗ Player failed printed after its recovery record (stdout behind stderr): the recovery with the same error', () => {
    const r = ingest([
      ...two,
      'INFO:guardkit.orchestrator.progress:Completed turn 1: error - Player failed - attempting state recovery',
      'INFO:guardkit.orchestrator.autobuild:Attempting state recovery for TASK-AB-002 turn 1 after Player failure: SDK timeout after 600s: task-work execution exceeded 600s timeout',
      '  ✗ Player failed - attempting state recovery',
      '   Error: SDK timeout after 600s: task-work execution exceeded 600s timeout',
    ])
    // the progress line (10) and the console line, quoted at its Error line (13)
    expect(lineOf(r, 'TASK-AB-002', 'Player failed')).toEqual([10, 13])
    expect(lineOf(r, 'TASK-AB-001', 'Player failed')).toEqual([])
  })

  it('keeps at the run a record no following record names while two tasks run: no guess', () => {
    const r = ingest([
      ...two,
      `${AI}:SDK completed: turns=50`,
      'WARNING:guardkit.orchestrator.autobuild:Error capturing turn state: \'AutoBuildOrchestrator\' object has no attribute \'_current_task_id\'',
      'INFO:guardkit.orchestrator.progress:Completed turn 1: error - Player failed: SDK agent error: unknown',
      `${AI}:[TASK-AB-001] ToolUseBlock Write input keys: ['file_path', 'content']`,
    ])
    expect(texts(r.attempts[0]!.signals)).toEqual([
      'SDK completed: turns=50',
      'Error capturing turn state: \'AutoBuildOrchestrator\' object has no attribute \'_current_task_id\'',
      'Completed turn 1: error - Player failed: SDK agent error: unknown',
    ])
    expect(texts(of(r, 'TASK-AB-001').signals)).toEqual([])
    expect(texts(of(r, 'TASK-AB-002').signals)).toEqual([])
  })

  it('a lone running task still gets them: the other\'s loop has ended, though the invoker logged for it last', () => {
    const lone = (ended: string) => ingest([
      ...two,
      `INFO:guardkit.orchestrator.autobuild:Orchestration complete: ${ended}, decision=max_turns_exceeded, turns=1`,
      // the running task's heartbeats are notes: the invoker's last task is still TASK-AB-001
      `${AI}:[TASK-AB-002] task-work implementation in progress... (600s elapsed)`,
      `${AI}:SDK completed: turns=50`,
      'WARNING:guardkit.orchestrator.autobuild:Error capturing turn state: \'AutoBuildOrchestrator\' object has no attribute \'_current_task_id\'',
      'INFO:guardkit.orchestrator.progress:Completed turn 1: error - Player failed: SDK agent error: unknown',
    ])
    const all = ['SDK completed: turns=50', 'Error capturing turn state: \'AutoBuildOrchestrator\' object has no attribute \'_current_task_id\'',
      'Completed turn 1: error - Player failed: SDK agent error: unknown']
    // the case of graphiti_enhancement__max_turns_exceeded.log:1215, TASK-CR-007 over and TASK-CR-009 left
    const first = lone('TASK-AB-001')
    expect(texts(of(first, 'TASK-AB-002').signals)).toEqual(all)
    expect(texts(of(first, 'TASK-AB-001').signals)).toEqual([])
    const second = lone('TASK-AB-002')
    expect(texts(of(second, 'TASK-AB-001').signals)).toEqual(all)
    expect(texts(second.attempts[0]!.signals)).toEqual([])
  })

  it('a task the feature timed out goes on running: after its wave\'s end, a record of the next wave\'s task is still told apart', () => {
    const r = ingest([
      ...START,
      'INFO:guardkit.cli.display:Started wave 1: [\'TASK-AB-001\', \'TASK-AB-002\']',
      ...loop('TASK-AB-001'),
      ...loop('TASK-AB-002'),
      'INFO:guardkit.orchestrator.autobuild:Orchestration complete: TASK-AB-001, decision=approved, turns=1',
      '  ⏱ TASK-AB-002: Task TASK-AB-002 timed out after 2400s (40 min)',
      'INFO:guardkit.cli.display:Wave 1 complete: passed=1, failed=1',
      'INFO:guardkit.cli.display:Started wave 2: [\'TASK-AB-003\']',
      ...loop('TASK-AB-003'),
      // TASK-AB-002's thread: the invoker's last task is TASK-AB-003
      `${AI}:SDK completed: turns=50`,
      `${AI}:[TASK-AB-002] Message summary: total=108, assistant=61, tools=45, results=1`,
      'INFO:guardkit.orchestrator.autobuild:Orchestration complete: TASK-AB-002, decision=cancelled, turns=1',
      `${AI}:SDK completed: turns=12`,
    ])
    expect(texts(of(r, 'TASK-AB-002').signals)).toEqual(['TASK-AB-002: Task TASK-AB-002 timed out after 2400s (40 min)', 'SDK completed: turns=50'])
    // once TASK-AB-002's loop is over, TASK-AB-003 runs alone
    expect(texts(of(r, 'TASK-AB-003').signals)).toEqual(['SDK completed: turns=12'])
  })

  it('never gives a record to a task whose loop has ended: a Player failure after its approval is the running task\'s', () => {
    const r = ingest([
      ...two,
      `${AI}:Created Player report from task_work_results.json for TASK-AB-001 turn 1`,
      'INFO:guardkit.orchestrator.quality_gates.coach_validator:Coach approved TASK-AB-001 turn 1',
      'INFO:guardkit.orchestrator.autobuild:Orchestration complete: TASK-AB-001, decision=approved, turns=1',
      '    ✓ TASK-AB-001: approved (1 turns)',
      'ERROR:guardkit.orchestrator.agent_invoker:[TASK-AB-002] SDK TIMEOUT: task-work execution exceeded 900s timeout',
      '  ✗ Player failed: SDK timeout after 900s: task-work execution exceeded 900s timeout',
      '   Error: SDK timeout after 900s: task-work execution exceeded 900s timeout',
      'INFO:guardkit.orchestrator.progress:Completed turn 1: error - Player failed: SDK timeout after 900s: task-work execution exceeded 900s timeout',
      'INFO:guardkit.orchestrator.autobuild:Attempting state recovery for TASK-AB-002 turn 1 after Player failure: SDK timeout after 900s: task-work execution exceeded 900s timeout',
    ])
    // TASK-AB-001 wrote the last Player report, but its loop was over: the failure is TASK-AB-002's
    expect(lineOf(r, 'TASK-AB-001', 'Player failed')).toEqual([])
    expect(lineOf(r, 'TASK-AB-002', 'Player failed')).toEqual([15, 17])
    expect(turn1(r, 'TASK-AB-001')?.player.error ?? null).toBeNull()
    expect(turn1(r, 'TASK-AB-002')?.player.error?.value).toContain('SDK timeout after 900s')
  })

  it('the next task\'s first turn, after the last one ended: its Player failure pairs with its recovery record', () => {
    const r = ingest([
      ...START,
      ...loop('TASK-AB-001'),
      `${AI}:Created Player report from task_work_results.json for TASK-AB-001 turn 1`,
      'INFO:guardkit.orchestrator.autobuild:Orchestration complete: TASK-AB-001, decision=approved, turns=1',
      ...loop('TASK-AB-002'),
      '  ✗ Player failed: Cancelled: Cancelled via cancel scope f8ad386af740',
      '   Error: Cancelled: Cancelled via cancel scope f8ad386af740',
      'INFO:guardkit.orchestrator.progress:Completed turn 1: error - Player failed: Cancelled: Cancelled via cancel scope f8ad386af740',
      'INFO:guardkit.orchestrator.autobuild:Attempting state recovery for TASK-AB-002 turn 1 after Player failure: Cancelled: Cancelled via cancel scope f8ad386af740',
    ])
    expect(lineOf(r, 'TASK-AB-001', 'Player failed')).toEqual([])
    expect(lineOf(r, 'TASK-AB-002', 'Player failed')).toEqual([11, 13])
  })

  it('a record no running task can be told for, after the task seen last ended, stays with the run', () => {
    const r = ingest([
      ...START,
      ...loop('TASK-AB-001'),
      'INFO:guardkit.orchestrator.autobuild:Orchestration complete: TASK-AB-001, decision=approved, turns=1',
      'WARNING:guardkit.orchestrator.autobuild:Error capturing turn state: something odd',
    ])
    expect(texts(of(r, 'TASK-AB-001').signals)).toEqual([])
    expect(texts(r.attempts[0]!.signals)).toEqual(['Error capturing turn state: something odd'])
  })

  it('a graph library\'s record naming a finished task as a graph entity is the running task\'s, not the finished one\'s', () => {
    const r = ingest([
      ...START,
      ...loop('TASK-AB-001'),
      'INFO:guardkit.orchestrator.autobuild:Orchestration complete: TASK-AB-001, decision=approved, turns=1',
      ...loop('TASK-AB-002'),
      "WARNING:graphiti_core.utils.maintenance.node_operations:Invalid duplicate_name for extracted node 94b1; treating as no duplicate. duplicate_name was: 'TASK-AB-001'",
    ])
    expect(lineOf(r, 'TASK-AB-001', 'duplicate_name')).toEqual([])
    expect(lineOf(r, 'TASK-AB-002', 'duplicate_name')).toEqual([10])
  })
})

describe('the record that ends a task\'s loop (docs/record-formats.md §5.2)', () => {
  it('the traceback printed after `Orchestration failed for TASK-X: E` is that task\'s (it ends in E); what follows it is the run\'s', () => {
    const r = ingest([
      ...START,
      ...loop('TASK-AB-001'),
      'ERROR:guardkit.orchestrator.autobuild:Orchestration failed for TASK-AB-001: Design phase design failed: SDK timeout after 600s',
      'Traceback (most recent call last):',
      '  File "/lib/guardkit/orchestrator/autobuild.py", line 10, in orchestrate',
      '    raise DesignPhaseError(phase="design", error=error_msg)',
      'guardkit.orchestrator.quality_gates.exceptions.DesignPhaseError: Design phase design failed: SDK timeout after 600s',
      'WARNING:guardkit.orchestrator.autobuild:Error capturing turn state: something odd',
    ])
    const t = r.tasks.find((x) => x.taskId === 'TASK-AB-001')!
    expect(t.signals!.map((s) => s.evidence.line)).toEqual([6, 10])
    expect(texts(r.attempts[0]!.signals)).toEqual(['Error capturing turn state: something odd'])
  })
})

describe('signals read during state recovery (docs/ingest.md, "Signals")', () => {
  it('marks an unnamed record between `Attempting state recovery` and its result as the recovery\'s, not a Coach validation\'s', () => {
    const r = ingest([
      ...START,
      ...loop('TASK-AB-001'),
      'INFO:guardkit.orchestrator.progress:Completed turn 1: error - Player failed: SDK timeout after 2340s: task-work execution exceeded 2340s timeout',
      'INFO:guardkit.orchestrator.autobuild:Attempting state recovery for TASK-AB-001 turn 1 after Player failure: SDK timeout after 2340s: task-work execution exceeded 2340s timeout',
      'INFO:guardkit.orchestrator.state_detection:Git detection: 3 files changed (+0/-0)',
      'ERROR:guardkit.orchestrator.coach_verification:Test execution timed out after 120s',
      'INFO:guardkit.orchestrator.state_detection:Test detection (TASK-AB-001 turn 1): 0 tests, failed',
      'INFO:guardkit.orchestrator.autobuild:State recovery succeeded via player_report: 2 files, 0 tests (passing)',
      'WARNING:guardkit.orchestrator.progress:complete_turn called without active turn',
      'INFO:guardkit.orchestrator.quality_gates.coach_validator:Starting Coach validation for TASK-AB-001 turn 2',
      'ERROR:guardkit.orchestrator.coach_verification:Test execution timed out after 120s',
    ])
    const s = r.tasks[0]!.signals!.filter((x) => x.text.startsWith('Test execution timed out'))
    expect(s.map((x) => [x.evidence.line, x.during ?? null])).toEqual([[9, 'state-recovery'], [14, null]])
    expect(r.tasks[0]!.signals!.find((x) => x.text.startsWith('complete_turn'))?.during).toBeUndefined()
  })
})
