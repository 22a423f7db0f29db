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

  it('a long run keeps each turn\'s first error of a logger after the logger\'s cap is reached (its last turns are not lost)', () => {
    const turns = Array.from({length: 80}, (_, k) => k + 1).flatMap((n) => [
      `INFO:guardkit.orchestrator.autobuild:Executing turn ${n}/80`,
      `INFO:guardkit.orchestrator.agent_invoker:Invoking Player via task-work delegation for TASK-AB-001 (turn ${n})`,
      `ERROR:guardkit.orchestrator.agent_invoker:[TASK-AB-001] Player failed after ${n * 7}s: connection reset`,
      `ERROR:guardkit.orchestrator.agent_invoker:[TASK-AB-001] Retry ${n} gave up`,
    ])
    const t = ingest([...START, `INFO:guardkit.orchestrator.autobuild:Starting orchestration for TASK-AB-001 (resume=False)`, ...turns]).tasks[0]!
    const failed = t.signals!.filter((s) => s.text.includes('Player failed after'))
    expect(failed.map((s) => s.turn)).toEqual(Array.from({length: 80}, (_, k) => k + 1))
    // the logger's cap still holds for the rest: 60 kept in turn order, then one per turn
    expect(t.signals!.filter((s) => s.logger === 'guardkit.orchestrator.agent_invoker')).toHaveLength(60 + 50)
    expect(t.signalsDropped).toBe(160 - 110)
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
