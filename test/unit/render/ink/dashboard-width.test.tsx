import {cleanup, render} from 'ink-testing-library'
import stringWidth from 'string-width'
import {afterEach, describe, expect, it} from 'vitest'
import {DashboardView} from '../../../../src/render/ink/DashboardView.js'
import {layExplanation, layTaskTable, scrollWindow} from '../../../../src/render/ink/layout.js'
import type {DashboardModel} from '../../../../src/render/ink/model.js'

afterEach(cleanup)

/** The last frame that is a frame (ink adds a bare '\n' frame at unmount under CI). */
function frameOf(frames: readonly string[]): string {
  return frames.filter((f) => f.trim() !== '').at(-1) ?? ''
}

const why = 'the Coach\'s own test run failed on infrastructure, not on the code; the Coach ran the tests without the Player\'s environment; the Player was never told the error; and the stall detector could not see that the feedback repeated'

/** A build with everything long: a long command, a long phase, a wide (CJK) task id, long warnings and explanation. */
const model: DashboardModel = {
  title: 'guardkit autobuild feature FEAT-BA28 --max-turns 30 --sdk-timeout 1800 --worktree /home/someone/src/fastapi/.guardkit/worktrees/FEAT-BA28',
  mode: 'spawn',
  status: 'running',
  elapsedSeconds: 1290,
  recordDir: 'runs/feat-ba28-recording-of-the-long-build',
  worktree: '/home/someone/src/fastapi/.guardkit/worktrees/FEAT-BA28',
  runningProfile: 'as-run:8a697b80',
  tasks: [
    {key: 'TASK-DB-001#1', taskId: 'TASK-DB-001', attempt: 1, phase: 'unrecoverable_stall', done: true, ok: false, turn: 18, maxTurns: 30, criteriaMet: 0, criteriaTotal: 6, elapsedSeconds: 2400, timeoutSeconds: 2400, warnings: 12},
    {key: 'TASK-数据-003#2', taskId: 'TASK-数据-003', attempt: 2, phase: 'coach', done: false, ok: null, turn: 9, maxTurns: 30, criteriaMet: 3, criteriaTotal: 6, elapsedSeconds: 1230, timeoutSeconds: 2400, warnings: 3},
  ],
  stall: {
    'TASK-数据-003#2': {
      threshold: 3, remainingRunning: 2, remainingFixed: 1, firedRunning: null, firedFixed: null, endedFixed: null, fixedBranches: null,
      rows: [{turn: 4, feedback: '- Independent test verification failed: tests/test_user.py::test_create FAILED (sqlalchemy.exc.OperationalError)', raw: '7e14c185', normalised: '82511af6', running: {signature: '7e14c185', count: 0}, fixed: {signature: '82511af6', count: 0}}],
    },
  },
  explain: {
    'TASK-数据-003#2': {
      happened: 'still running (turn 9 of 30), the same feedback category for eight turns with no criterion passing',
      why,
      findings: Array.from({length: 6}, (_, i) => ({code: 'STALL_DEFEATED_BY_VARIABLE_OUTPUT', severity: 'high', turns: [3, 4, 5, 6, 7, 8], message: `Finding ${i + 1}: the same feedback category for 6 turns but the md5 signatures never repeated; normalised signatures would have stopped the task at turn 5.`})),
      doNow: ['mock the database in conftest.py or use SQLite for tests; or run the Coach\'s tests with the Player\'s environment (autobuild.coach.test_execution = sdk)'],
    },
  },
  warnings: [
    {id: 'a', key: 'TASK-数据-003#2', taskId: 'TASK-数据-003', attempt: 2, code: 'STALL_DEFEATED_BY_VARIABLE_OUTPUT', severity: 'high', turn: 4, message: 'turns 3 and 4 gave the same feedback once normalised, but the running logic signs the raw text, whose test ids change every turn', raisedAt: ''},
  ],
  logTail: ['INFO:guardkit.orchestrator.autobuild:Executing turn 9/30 for TASK-数据-003 in /home/someone/src/fastapi/.guardkit/worktrees/FEAT-BA28 with a very long line'],
  notices: ['polling the worktree every 2 s: file change events are not available on this file system (network mount)'],
  exit: null,
}

describe('the dashboard fits the terminal (60, 80 and 120 columns)', () => {
  for (const columns of [60, 80, 120]) {
    const width = columns - 1
    for (const showExplain of [false, true]) {
      it(`${columns} columns, ${showExplain ? 'explanation' : 'stall window'}: no line wider than the terminal, nothing cut that matters`, () => {
        const {frames} = render(<DashboardView model={model} selected={1} showExplain={showExplain} confirming={false} width={width} />)
        const frame = frameOf(frames)
        for (const line of frame.split('\n')) expect(stringWidth(line), line).toBeLessThanOrEqual(width)
        // rows are one line each: the table keeps one line per task
        expect(frame.split('\n').filter((l) => l.includes('TASK-DB-001') && l.includes('18/30'))).toHaveLength(1)
        const flat = frame.replace(/[│╭╮╰╯─]/g, ' ').replace(/\s+/g, ' ')
        // the warning and the explanation wrap, whole
        expect(flat).toContain('whose test ids change every turn')
        if (showExplain) {
          expect(flat).toContain(why.replace(/\s+/g, ' '))
          expect(flat).toContain('Finding 6: the same feedback category')
          expect(flat).toContain('(autobuild.coach.test_execution = sdk)')
        }
      })
    }
  }

})

describe('dashboard layout', () => {
  it('task columns shrink at a word and the bar goes before anything is cut', () => {
    const wide = layTaskTable(model.tasks, 119)
    expect(wide.rows[0]!.criteria).toContain('░░░░░░░░ 0/6')
    expect(wide.rows[0]!.phase.trim()).toBe('unrecoverable_stall')
    const narrow = layTaskTable(model.tasks, 59)
    expect(narrow.rows[0]!.criteria.trim()).toBe('0/6')
    for (const row of narrow.rows) expect(stringWidth(`▸ ${row.label} ${row.phase} ${row.turn} ${row.criteria} ${row.time} ${row.warn}`.trimEnd())).toBeLessThanOrEqual(59)
    // the CJK id counts two columns a character: padded to the same display width as the ASCII one
    expect(stringWidth(narrow.rows[1]!.label)).toBe(stringWidth(narrow.rows[0]!.label))
  })

  it('the explanation scrolls: a window of the lines, the offset kept in range', () => {
    const lines = layExplanation(model.explain['TASK-数据-003#2']!, 59)
    expect(lines.length).toBeGreaterThan(10)
    const first = scrollWindow(lines, 5, 0)
    expect(first.shown).toEqual(lines.slice(0, 5))
    expect(first.below).toBe(lines.length - 5)
    const past = scrollWindow(lines, 5, 1000)
    expect(past.offset).toBe(lines.length - 5)
    expect(past.below).toBe(0)
  })
})
