import {describe, expect, it} from 'vitest'
import {isOutsideMargin, isWrapContinuation, joinWrapped, wrapIndent} from '../../../../src/ingest/log/hard-wrap.js'

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
