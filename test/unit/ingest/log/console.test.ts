import {describe, expect, it} from 'vitest'
import {createBoxAssembler, type AssembledEvent} from '../../../../src/ingest/log/box-assembler.js'
import {classifyConsole} from '../../../../src/ingest/log/console-grammar.js'
import {createLogIngest} from '../../../../src/ingest/log/ingest.js'

/** docs/record-formats.md §5.5, the complete per-task summary block (run_2.log:689–714), verbatim. */
const RUN_2_SUMMARY = `                                AutoBuild Summary (UNRECOVERABLE_STALL)
╭────────┬───────────────────────────┬──────────────┬──────────────────────────────────────────────────╮
│ Turn   │ Phase                     │ Status       │ Summary                                          │
├────────┼───────────────────────────┼──────────────┼──────────────────────────────────────────────────┤
│ 1      │ Player Implementation     │ ✓ success    │ 5 files created, 4 modified, 0 tests (failing)   │
│ 1      │ Coach Validation          │ ⚠ feedback   │ Feedback: - Not all acceptance criteria met:     │
│        │                           │              │   • \`tests/seam/\` directory exists with \`__in... │
│ 2      │ Player Implementation     │ ✓ success    │ 1 files created, 2 modified, 0 tests (failing)   │
│ 2      │ Coach Validation          │ ⚠ feedback   │ Feedback: - Not all acceptance criteria met:     │
│        │                           │              │   • \`tests/seam/\` directory exists with \`__in... │
│ 3      │ Player Implementation     │ ✓ success    │ 1 files created, 3 modified, 0 tests (failing)   │
│ 3      │ Coach Validation          │ ⚠ feedback   │ Feedback: - Not all acceptance criteria met:     │
│        │                           │              │   • \`tests/seam/\` directory exists with \`__in... │
╰────────┴───────────────────────────┴──────────────┴──────────────────────────────────────────────────╯

╭──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────╮
│ Status: UNRECOVERABLE_STALL                                                                                                              │
│                                                                                                                                          │
│ Unrecoverable stall detected after 3 turn(s).                                                                                            │
│ AutoBuild cannot make forward progress.                                                                                                  │
│ Worktree preserved for inspection.                                                                                                       │
│ Suggested action: Review task_type classification and acceptance criteria.                                                               │
╰──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────╯
INFO:guardkit.orchestrator.progress:Summary rendered: unrecoverable_stall after 3 turns
INFO:guardkit.orchestrator.autobuild:Worktree preserved at /Users/richardwoollcott/Projects/appmilla_github/guardkit/.guardkit/worktrees/FEAT-AC1A for
INFO:guardkit.orchestrator.autobuild:Orchestration complete: TASK-SFT-001, decision=unrecoverable_stall, turns=3`

describe('console lines (docs/record-formats.md §5.5)', () => {
  it.each([
    {text: '⠋ Turn 1/15: Player Implementation ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━   0%', kind: 'c-spinner'},
    {text: '⠙ [2026-04-24T11:32:18.146Z] Turn 1/30: Coach Validation ━━━   0%', kind: 'c-spinner'},
    {text: 'richardwoollcott@Mac ~ % cd Projects', kind: 'c-prompt'},
    {text: 'richardwoollcott@promaxgb10-41b1:~/Projects/appmilla_github/forge$ guardkit autobuild feature FEAT-FORGE-005', kind: 'c-prompt'},
    {text: '  ✓ 3 files created, 3 modified, 0 tests (failing)', kind: 'c-player'},
    {text: '  ✗ Player failed: SDK timeout after 900s: task-work execution exceeded 900s timeout', kind: 'c-player'},
    {text: '  ⚠ [2026-04-26T07:37:59.197Z] Feedback: - Not all acceptance criteria met:', kind: 'c-coach'},
    {text: '  ✓ Coach approved - ready for human review', kind: 'c-coach'},
    {text: '  ✓ TASK-GI-001: SUCCESS (2 turns) approved', kind: 'c-task-result'},
    {text: '    ✗ TASK-DOC-002: unrecoverable_stall (3 turns)', kind: 'c-task-result'},
    {text: '  ⏱ TASK-DB-006: Task TASK-DB-006 timed out after 2400s (40 min)', kind: 'c-task-timeout'},
    {text: '  Wave 2/5: TASK-FBP-002, TASK-FBP-004 (parallel: 2)', kind: 'c-wave'},
    {text: '  TASK-GI-001            SUCCESS           2   approved', kind: 'c-task-status'},
    {text: 'FEATURE RESULT: SUCCESS', kind: 'c-feature-result'},
    {text: 'Your choice [R/f]: R', kind: 'c-resume-prompt'},
    {text: '/usr/lib/python3.12/asyncio/events.py:88: RuntimeWarning: The executor did not finishing joining its threads within 300 seconds.', kind: 'c-other'},
  ])('recognises $kind: $text', ({text, kind}) => {
    const c = classifyConsole(text)
    expect(c.start).toBe(true)
    expect(c.event?.kind).toBe(kind)
  })

  it('reads the wave header and the task result fields', () => {
    expect(classifyConsole('  [2026-03-07T12:39:19.411Z] Wave 2/5: TASK-FBP-002, TASK-FBP-004 (parallel: 2)').event)
      .toEqual({kind: 'c-wave', wave: 2, total: 5, taskIds: ['TASK-FBP-002', 'TASK-FBP-004'], ts: '2026-03-07T12:39:19.411Z'})
    expect(classifyConsole('  ✗ TASK-DOC-002: FAILED (3 turns) unrecoverable_stall').event)
      .toEqual({kind: 'c-task-result', taskId: 'TASK-DOC-002', ok: false, turns: 3, decision: 'unrecoverable_stall'})
  })

  it('lets continuation lines continue: feedback bullets, traceback frames, wrapped text', () => {
    expect(classifyConsole('  • `tests/seam/` directory exists with `__in...').start).toBe(false)
    expect(classifyConsole('  File "/x.py", line 7, in <module>').start).toBe(false)
    expect(classifyConsole('    choice = input("Your choice [R/f]: ").strip().lower() or "r"').start).toBe(false)
  })
})

describe('summary tables and status boxes', () => {
  it('assembles the §5.5 summary table: rows, statuses, wrapped summaries, and the status box', () => {
    const boxes = createBoxAssembler()
    const out: AssembledEvent[] = []
    RUN_2_SUMMARY.split('\n').forEach((text, i) => {
      const line = 689 + i
      if (text.includes('AutoBuild Summary (')) out.push(...boxes.expectSummary('UNRECOVERABLE_STALL', line))
      else if (/^[╭│├╰]/.test(text)) out.push(...boxes.feed(text, line))
      else if (text === '') out.push(...boxes.flush())
    })
    out.push(...boxes.flush())
    const table = out.find((e) => e.event.kind === 'c-summary-table')!
    expect(table.line).toBe(689)
    if (table.event.kind !== 'c-summary-table') throw new Error('no table')
    expect(table.event.rows.map((r) => [r.turn, r.phase, r.status, r.line])).toEqual([
      [1, 'Player Implementation', 'success', 693], [1, 'Coach Validation', 'feedback', 694],
      [2, 'Player Implementation', 'success', 696], [2, 'Coach Validation', 'feedback', 697],
      [3, 'Player Implementation', 'success', 699], [3, 'Coach Validation', 'feedback', 700],
    ])
    expect(table.event.rows[1]!.summary).toBe('Feedback: - Not all acceptance criteria met:\n• `tests/seam/` directory exists with `__in...')
    const box = out.find((e) => e.event.kind === 'c-status-box')!
    expect(box.event).toMatchObject({kind: 'c-status-box', status: 'UNRECOVERABLE_STALL'})
    if (box.event.kind === 'c-status-box') expect(box.event.lines).toContain('Unrecoverable stall detected after 3 turn(s).')
  })

  it('gives the table to the task whose outcome record follows it', () => {
    const ingest = createLogIngest()
    ingest.startFile('run_2.log')
    ingest.push('INFO:guardkit.orchestrator.autobuild:Starting orchestration for TASK-SFT-001 (resume=False)')
    for (const line of RUN_2_SUMMARY.split('\n')) ingest.push(line)
    const r = ingest.finish()
    const t = r.tasks[0]!
    expect(t.outcome?.value).toBe('unrecoverable_stall')
    expect(t.turns.map((u) => [u.turn, u.player.status?.value, u.coach.decision?.value])).toEqual([
      [1, 'success', 'feedback'], [2, 'success', 'feedback'], [3, 'success', 'feedback'],
    ])
    expect(t.summary).toHaveLength(6)
    expect(t.turns[2]!.coach.decision?.evidence).toEqual([{file: 'run_2.log', line: 13}])
  })
})
