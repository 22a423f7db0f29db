import {describe, expect, it} from 'vitest'
import {isOutsideMargin, isWrapContinuation, joinWrapped, wrapIndent} from '../../../../src/ingest/log/hard-wrap.js'
import {createLogIngest} from '../../../../src/ingest/log/ingest.js'

/** Transcript wrapping (docs/ingest.md "Transcripts"): authored lines in the shape of the feature-build transcripts. */
describe('hard-wrapped transcript records', () => {
  it('takes the margin of a record that starts a transcript output line', () => {
    expect(wrapIndent('    INFO:guardkit.orchestrator.autobuild:Executing turn 1/3', 'INFO', 'guardkit.orchestrator.autobuild')).toBe(4)
    expect(wrapIndent('  ⎿ INFO:guardkit.cli.autobuild:Starting feature orchestration: FEAT-X (max_turns=3,', 'INFO', 'guardkit.cli.autobuild')).toBe(4)
    expect(wrapIndent('  ⎿  INFO:guardkit.cli.autobuild:Starting', 'INFO', 'guardkit.cli.autobuild')).toBe(5)
    expect(wrapIndent('    [stderr] INFO:guardkit.orchestrator.autobuild:Coach provided feedback on turn 5', 'INFO', 'guardkit.orchestrator.autobuild')).toBe(4)
  })

  it('takes none for a record at column 0, after a spinner, or after other text', () => {
    expect(wrapIndent('INFO:guardkit.orchestrator.autobuild:Executing turn 1/3', 'INFO', 'guardkit.orchestrator.autobuild')).toBe(0)
    expect(wrapIndent('    0%INFO:guardkit.orchestrator.autobuild:x', 'INFO', 'guardkit.orchestrator.autobuild')).toBe(0)
  })

  it('continues only at exactly the margin (deeper lines are the message\'s own line breaks)', () => {
    expect(isWrapContinuation('    turns=5', 4)).toBe(true)
    expect(isWrapContinuation('      • `tests/seam/` directory exists', 4)).toBe(false)
    expect(isWrapContinuation('turns=5', 4)).toBe(false)
    expect(isWrapContinuation('    ', 4)).toBe(false)
  })

  it('sees the transcript\'s own text left of the margin', () => {
    expect(isOutsideMargin('∴ Thinking…', 4)).toBe(true)
    expect(isOutsideMargin('  The SDK is still working.', 4)).toBe(true)
    expect(isOutsideMargin('    turns=5', 4)).toBe(false)
    expect(isOutsideMargin('', 4)).toBe(false)
  })

  it('joins a word wrap with the space it ate and a path cut without one', () => {
    expect(joinWrapped('Orchestration complete: TASK-E1A-001, decision=max_turns_exceeded,', 'turns=3'))
      .toBe('Orchestration complete: TASK-E1A-001, decision=max_turns_exceeded, turns=3')
    expect(joinWrapped('AutoBuildOrchestrator initialized:', 'repo=/Users/dev/proj, max_turns=3')).toBe('AutoBuildOrchestrator initialized: repo=/Users/dev/proj, max_turns=3')
    expect(joinWrapped('Written Player report to /Users/dev/proj/.guardkit/worktrees/FEAT-E1A/.guar', 'dkit/autobuild/TASK-E1A-001/player_turn_1.json'))
      .toBe('Written Player report to /Users/dev/proj/.guardkit/worktrees/FEAT-E1A/.guardkit/autobuild/TASK-E1A-001/player_turn_1.json')
    expect(joinWrapped('Worktree preserved at /Users/dev/proj/.guardkit/worktrees/FEAT-E1A', 'for human review.')).toBe('Worktree preserved at /Users/dev/proj/.guardkit/worktrees/FEAT-E1A for human review.')
  })
})

/** A plain capture copied from a terminal N columns wide: every longer line cut at exactly N characters (docs/record-formats.md §5.1 item 5). */
describe('records of a plain capture hard-wrapped at the terminal\'s width', () => {
  const fold = (lines: readonly string[], width: number) => lines.flatMap((l) => {
    const out: string[] = []
    for (let rest = l; ; rest = rest.slice(width)) {
      out.push(rest.slice(0, width))
      if (rest.length <= width) return out
    }
  })
  const TASK = 'TASK-TS2-004'
  const init = 'INFO:guardkit.orchestrator.autobuild:AutoBuildOrchestrator initialized: repo=/Users/dev/proj, max_turns=5, resume=False, enable_pre_loop=False, development_mode=tdd, sdk_timeout=1800s, skip_arch_review=False, enable_perspective_reset=True, reset_turns=[3, 5], enable_checkpoints=True, rollback_on_pollution=True, ablation_mode=False, existing_worktree=provided, enable_context=True, context_loader=None, factory=available, verbose=False'
  const run = [
    'dev@mac proj % guardkit autobuild feature FEAT-TS2 --max-turns 5',
    'INFO:guardkit.cli.autobuild:Starting feature orchestration: FEAT-TS2 (max_turns=5, stop_on_failure=True, resume=False, fresh=True, sdk_timeout=None, enable_pre_loop=None)',
    init,
    `INFO:guardkit.orchestrator.autobuild:Starting orchestration for ${TASK} (resume=False)`,
    'INFO:guardkit.orchestrator.autobuild:Executing turn 1/5',
    'INFO:guardkit.orchestrator.progress:Started turn 1: Player Implementation',
    `INFO:guardkit.orchestrator.agent_invoker:Invoking Player via task-work delegation for ${TASK} (turn 1)`,
    `INFO:guardkit.orchestrator.agent_invoker:Recovered 6 completion_promises from agent-written player report for ${TASK}`,
    '  ✓ 5 files created, 3 modified, 16 tests (passing)',
    `INFO:guardkit.orchestrator.quality_gates.coach_validator:Starting Coach validation for ${TASK} turn 1`,
    'INFO:guardkit.orchestrator.autobuild:Criteria Progress (Turn 1): 4/6 verified (66%)',
    'INFO:guardkit.orchestrator.autobuild:Coach provided feedback on turn 1',
    `INFO:guardkit.orchestrator.autobuild:Orchestration complete: ${TASK}, decision=max_turns_exceeded, turns=1`,
  ]
  const read = (lines: readonly string[]) => {
    const ingest = createLogIngest()
    ingest.startFile('run.log')
    for (const l of lines) ingest.push(l)
    return ingest.finish().tasks.find((t) => t.taskId === TASK)!
  }

  it('reads a record cut at the width as the one line it was (the task id, the outcome on the next line)', () => {
    const task = read(fold(run, 110))
    expect(task.turns[0]!.player.promisesRecovered?.value).toBe(6)
    expect(task.outcome?.value).toBe('max_turns_exceeded')
    expect(task.turnCount?.value).toBe(1)
  })

  it('reads the whole of a record whose first line the grammar could read alone (the orchestrator\'s settings)', () => {
    const ingest = createLogIngest()
    ingest.startFile('run.log')
    // at 100 columns the cut falls inside rollback_on_pollution
    for (const l of fold(run, 100)) ingest.push(l)
    const attempt = ingest.finish().attempts[0]!
    expect(attempt.settings.resetTurns?.value).toEqual([3, 5])
    expect(attempt.settings.rollbackOnPollution?.value).toBe(true)
  })

  it('leaves a record whose next lines are its own (not all cut at one width) as it is', () => {
    const task = read([...run.slice(0, 7), `INFO:guardkit.orchestrator.agent_invoker:Recovered 6 completion_promises from agent-written player report for`, TASK, ...run.slice(8)])
    expect(task.turns[0]!.player.promisesRecovered).toBeNull()
  })
})
