import {describe, expect, it} from 'vitest'
import {createBoxAssembler, type AssembledEvent} from '../../../../src/ingest/log/box-assembler.js'
import {classifyConsole} from '../../../../src/ingest/log/console-grammar.js'
import {createLogIngest} from '../../../../src/ingest/log/ingest.js'
import type {LogIngestResult} from '../../../../src/ingest/index.js'
import {CUT_TASK, cutTranscript} from '../../../helpers/cut-transcript.js'

/** docs/ingest.md "Signals": a capture can be cut anywhere; what survives of a summary table is still a record. */
function ingest(lines: readonly string[], file = 'cut.log'): LogIngestResult {
  const ing = createLogIngest()
  ing.startFile(file)
  for (const l of lines) ing.push(l)
  return ing.finish()
}

function boxesOf(lines: readonly string[]): AssembledEvent[] {
  const boxes = createBoxAssembler()
  const out: AssembledEvent[] = []
  lines.forEach((text, i) => {
    if (text.trim() === '') out.push(...boxes.flush())
    else out.push(...boxes.feed(text, i + 1))
  })
  return [...out, ...boxes.flush()]
}

describe('a capture cut in the middle', () => {
  it('recognises the cut mark and a box printed under a transcript\'s margin', () => {
    expect(classifyConsole('     ... [28226 characters truncated] ...').event).toEqual({kind: 'c-capture-cut', omitted: 28226, unit: 'characters'})
    expect(classifyConsole('     │ 2      │ Player Implementation     │ ✗ error      │ Player failed -          │').block).toBe('box')
    expect(classifyConsole('          │              │ attempting state         │').block).toBe('box')
    // a rule of the wave display stays a rule, and a feedback bullet goes on its record
    expect(classifyConsole('     ━━━━━━━━━━━━━━━━━━━━').event).toMatchObject({kind: 'c-other', name: 'rule'})
    expect(classifyConsole('  • `tests/seam/` directory exists').start).toBe(false)
  })

  it('reads the summary table whose title and header were cut away: its turns, decisions and the Player\'s failure, each with its line', () => {
    const lines = cutTranscript({turns: 3})
    const r = ingest(lines)
    const task = r.tasks.find((t) => t.taskId === CUT_TASK)!
    expect(task.outcome?.value).toBe('max_turns_exceeded')
    expect(task.turns.map((t) => [t.turn, t.player.status?.value ?? null, t.coach.decision?.value ?? null])).toEqual([
      [1, null, 'feedback'], [2, 'error', 'feedback'], [3, 'error', 'feedback'],
    ])
    const t2 = task.turns[1]!
    expect(t2.player.error?.value).toBe('Player failed - attempting state recovery')
    expect(lines[t2.player.error!.evidence[0]!.line! - 1]).toContain('│ 2      │ Player Implementation')
    // the wrapped cell is one feedback text, cut where the table cut it
    expect(t2.coach.feedback).toMatchObject({text: '- Task-work results not found at /home/dev/proj/.guardka', completeness: 'truncated'})
  })

  it('says where the capture was cut, and lends the running task the cut at the turn it had reached', () => {
    const lines = cutTranscript({turns: 3})
    const r = ingest(lines)
    const at = lines.findIndex((l) => l.includes('characters truncated')) + 1
    expect(r.ingestIssues).toContainEqual(expect.objectContaining({code: 'capture-cut', severity: 'warning', line: at}))
    const cut = r.tasks[0]!.events.find((e) => e.kind === 'other' && e.name === 'capture-cut')
    expect(cut).toMatchObject({turn: 1, evidence: [{file: 'cut.log', line: at, text: '... [21000 characters truncated] ...'}]})
  })

  it('pairs a cut table with its task only when its last turn is the outcome record\'s', () => {
    const lines = cutTranscript({turns: 3, statusBox: false}).map((l) => l.replace('turns=3', 'turns=4'))
    const r = ingest(lines)
    expect(r.tasks[0]!.summary).toBeNull()
    expect(r.ingestIssues.map((i) => i.message)).toContain('an AutoBuild Summary table whose title was cut from the capture could not be matched to a task\'s outcome record')
  })

  it('names a cut table by the status box printed after it, so that a table of another outcome is not paired with the task', () => {
    // the box says MAX_TURNS_EXCEEDED; an outcome record of another decision at the same turn must not take the table
    const lines = cutTranscript({turns: 3}).map((l) => l.replace('decision=max_turns_exceeded', 'decision=approved'))
    const r = ingest(lines)
    expect(r.tasks[0]!.summary).toBeNull()
    expect(r.ingestIssues.map((i) => i.message)).toContain('an AutoBuild Summary (MAX_TURNS_EXCEEDED) table could not be matched to a task\'s outcome record')
  })

  it('reads no other box as a summary table: a panel, another table, a turn row among a panel\'s text', () => {
    const panel = ['│ Status: MAX_TURNS_EXCEEDED        │', '│ Maximum turns (3) reached.        │', '╰───────────────────────────────────╯']
    const wave = ['│  Wave  │  Tasks   │   Status   │  Passed  │  Failed  │  Turns   │', '│   1    │    1     │   ✗ FAIL   │    0     │    1     │    5     │', '╰────────┴──────────┴────────────┴──────────┴──────────┴──────────╯']
    const mixed = ['│ 1      │ Player Implementation     │ ✗ error      │ Player failed            │', '│ Worktree preserved for inspection.                                              │', '╰──╯']
    for (const box of [panel, wave, mixed]) expect(boxesOf(box).map((e) => e.event.kind)).not.toContain('c-summary-table')
  })

  it('reads a table whose title was cut but whose header row survived', () => {
    const table = [
      '╭────────┬───────────────────────────┬──────────────┬──────────────────────────╮',
      '│ Turn   │ Phase                     │ Status       │ Summary                  │',
      '├────────┼───────────────────────────┼──────────────┼──────────────────────────┤',
      '│ 1      │ Player Implementation     │ ✓ success    │ 2 files created, 1       │',
      '│        │                           │              │ modified, 0 tests        │',
      '│ 1      │ Coach Validation          │ ✓ success    │ Coach approved           │',
      '╰────────┴───────────────────────────┴──────────────┴──────────────────────────╯',
    ]
    const [table1] = boxesOf(table)
    expect(table1?.event).toMatchObject({kind: 'c-summary-table', status: null, rows: [{turn: 1, phase: 'Player Implementation', status: 'success'}, {turn: 1, phase: 'Coach Validation', status: 'success'}]})
  })

  it('does not take the transcript\'s own commands for the run: a traceback under `⏺ Bash(pip install …)` is no signal of the task', () => {
    const lines = [
      ...cutTranscript({turns: 2}),
      '⏺ Bash(pip install -q pydantic && pytest tests/ -v 2>&1)',
      '  ⎿  Error: Exit code 1',
      '     Traceback (most recent call last):',
      '       File "/opt/homebrew/bin/pip", line 5, in <module>',
      '     ModuleNotFoundError: No module named \'pip\'',
    ]
    const texts = ingest(lines).tasks[0]!.signals?.map((s) => s.text) ?? []
    expect(texts.some((t) => t.includes('No module named'))).toBe(false)
  })
})
