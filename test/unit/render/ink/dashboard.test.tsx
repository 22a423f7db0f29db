import {render} from 'ink-testing-library'
import {afterEach, describe, expect, it, vi} from 'vitest'
import {Dashboard} from '../../../../src/render/ink/Dashboard.js'
import {DashboardView} from '../../../../src/render/ink/DashboardView.js'
import type {DashboardModel, DashboardSource} from '../../../../src/render/ink/model.js'
import {cleanup} from 'ink-testing-library'

afterEach(cleanup)

const tick = () => new Promise((r) => setTimeout(r, 30))
const ESC = '\u001B'

/**
 * Waits until the latest frame passes `check` (keys are handled and React re-renders when the event
 * loop gets to it: on a loaded machine that can take far longer than a fixed tick).
 */
async function frameWhere(frames: readonly string[], check: (frame: string) => boolean, what: string): Promise<string> {
  const end = Date.now() + 10_000
  for (;;) {
    const frame = frameOf(frames)
    if (check(frame)) return frame
    if (Date.now() > end) throw new Error(`no frame with ${what}; last:\n${frame}`)
    await tick()
  }
}

/** Waits until a mock has been called `times` times. */
async function calls(fn: {mock: {calls: unknown[]}}, times: number): Promise<void> {
  const end = Date.now() + 10_000
  while (fn.mock.calls.length < times) {
    if (Date.now() > end) throw new Error(`called ${fn.mock.calls.length} times, not ${times}`)
    await tick()
  }
}

/** The last frame that is a frame: under CI=true ink adds a bare '\n' frame at unmount (ecosystem.md pitfall 8). */
function frameOf(frames: readonly string[]): string {
  return frames.filter((f) => f.trim() !== '').at(-1) ?? ''
}

const model: DashboardModel = {
  title: 'guardkit autobuild feature FEAT-BA28 --max-turns 30',
  mode: 'spawn',
  status: 'running',
  elapsedSeconds: 1290,
  recordDir: 'runs/feat-ba28',
  worktree: '/src/fastapi/.guardkit/worktrees/FEAT-BA28',
  runningProfile: 'as-run:8a697b80',
  tasks: [
    {key: 'TASK-DB-001#1', taskId: 'TASK-DB-001', attempt: 1, phase: 'approved', done: true, ok: true, turn: 1, maxTurns: 30, criteriaMet: 6, criteriaTotal: 6, elapsedSeconds: 200, timeoutSeconds: 2400, warnings: 0},
    {key: 'TASK-DB-003#1', taskId: 'TASK-DB-003', attempt: 1, phase: 'coach', done: false, ok: null, turn: 9, maxTurns: 30, criteriaMet: 0, criteriaTotal: 6, elapsedSeconds: 1230, timeoutSeconds: 2400, warnings: 3},
  ],
  stall: {
    'TASK-DB-003#1': {
      threshold: 3,
      remainingRunning: 2,
      remainingFixed: 1,
      firedRunning: null,
      firedFixed: null,
      endedFixed: null,
      fixedBranches: null,
      rows: [
        {turn: 3, feedback: '- Independent test verification failed:', raw: 'deaab5ff', normalised: '82511af6', running: {signature: 'deaab5ff', count: 0}, fixed: {signature: '82511af6', count: 0}},
        {turn: 4, feedback: '- Independent test verification failed:', raw: '7e14c185', normalised: '82511af6', running: {signature: '7e14c185', count: 0}, fixed: {signature: '82511af6', count: 0}},
      ],
    },
  },
  explain: {
    'TASK-DB-003#1': {
      happened: 'still running (turn 9 of 30)',
      why: 'the Coach\'s tests fail on the database; the feedback varies only in test ids',
      findings: [{code: 'INFRA_TEST_FAILURE', severity: 'high', turns: [1, 3], message: 'The Coach\'s own test run failed in 3.1 s on t1.'}],
      doNow: ['mock the database in conftest.py'],
    },
  },
  warnings: [
    {id: 'a', key: 'TASK-DB-003#1', taskId: 'TASK-DB-003', attempt: 1, code: 'INFRA_TEST_FAILURE', severity: 'high', turn: 1, message: 'The Coach\'s own test run failed in 3.1 s on t1.', raisedAt: ''},
    {id: 'b', key: 'TASK-DB-003#1', taskId: 'TASK-DB-003', attempt: 1, code: 'STALL_DEFEATED_BY_VARIABLE_OUTPUT', severity: 'high', turn: 4, message: 'turns 3 and 4 gave the same feedback once normalised', raisedAt: ''},
  ],
  logTail: ['INFO:guardkit.orchestrator.autobuild:Executing turn 9/30'],
  notices: [],
  exit: null,
}

function source(initial: DashboardModel): DashboardSource & {set(m: DashboardModel): void} {
  let current = initial
  const listeners = new Set<() => void>()
  return {
    getSnapshot: () => current,
    subscribe: (l) => (listeners.add(l), () => listeners.delete(l)),
    set(m) {
      current = m
      for (const l of listeners) l()
    },
  }
}

describe('DashboardView', () => {
  it('shows one row per task (phase, turn/max, criteria with a bar, elapsed vs timeout), the stall window and the warnings', () => {
    const {frames} = render(<DashboardView model={model} selected={1} showExplain={false} confirming={false} width={120} />)
    const frame = frameOf(frames)
    expect(frame).toContain('guardkit-replay live guardkit autobuild feature FEAT-BA28 --max-turns 30')
    expect(frame).toMatch(/▸ TASK-DB-003\s+coach\s+9\/30\s+░░░░░░░░ 0\/6\s+20:30\/40:00\s+⚠ 3/)
    expect(frame).toMatch(/ {2}TASK-DB-001\s+approved\s+1\/30\s+████████ 6\/6\s+3:20\/40:00/)
    expect(frame).toContain('Stall window of TASK-DB-003 (threshold 3)')
    expect(frame).toContain('running logic (as-run:8a697b80): fires after 2 more identical turns   fixed: fires after 1 more identical turn')
    expect(frame).toMatch(/4\s+7e14c185\s+82511af6\s+7e14c185×0\s+82511af6×0\s+- Independent test verification failed:/)
    expect(frame).toContain('Warnings (2)')
    expect(frame).toContain('⚠ STALL_DEFEATED_BY_VARIABLE_OUTPUT TASK-DB-003 turn 4: turns 3 and 4 gave the same feedback once normalised')
    expect(frame).toContain('↑/↓ select · e explanation so far · q stop the build')
  })

  it('an undetermined fixed replay: the window gives each branch with its condition, never a countdown', () => {
    const stall = {...model.stall['TASK-DB-003#1']!, remainingFixed: null, fixedBranches: 'a stall at turn 5 if its own feedback repeated; otherwise cancelled (recorded) at turn 18'}
    const {frames} = render(<DashboardView model={{...model, stall: {'TASK-DB-003#1': stall}}} selected={1} showExplain={false} confirming={false} width={200} />)
    const frame = frameOf(frames)
    expect(frame).toContain('fixed: undetermined: a stall at turn 5 if its own feedback repeated; otherwise cancelled (recorded) at turn 18')
    expect(frame).not.toMatch(/fixed: (fires|no feedback|fired)/)
  })

  it('e: the explanation so far instead of the stall window; q: asks before stopping', () => {
    const {frames} = render(<DashboardView model={model} selected={1} showExplain confirming width={120} />)
    const frame = frameOf(frames)
    expect(frame).toContain('Explanation so far: TASK-DB-003')
    expect(frame).toContain('• INFRA_TEST_FAILURE (turns 1, 3): The Coach\'s own test run failed in 3.1 s on t1.')
    expect(frame).toContain('→ mock the database in conftest.py')
    expect(frame).not.toContain('Stall window of')
    expect(frame).toContain('Stop the build? It gets SIGINT and time to save its state. (y/n)')
  })

  it('says where the worktree is being looked for, and how the command ended', () => {
    const {frames} = render(<DashboardView model={{...model, worktree: null, status: 'finished', exit: {code: 130, detail: 'the command exited with code 130'}}} selected={0} showExplain={false} confirming={false} width={160} />)
    const frame = frameOf(frames)
    expect(frame).toContain('the command exited with code 130')
    expect(frame).toContain('worktree (looking for it in the output)')
  })
})

describe('Dashboard (keys)', () => {
  it('↑/↓ select a task, e toggles the explanation, q asks and y stops the build', async () => {
    const src = source(model)
    const actions = {quit: vi.fn(), interrupt: vi.fn()}
    const {frames, stdin} = render(<Dashboard source={src} actions={actions} confirmQuit />)
    // the first task still running is selected until the user picks one
    await frameWhere(frames, (f) => /▸ TASK-DB-003/.test(f), 'TASK-DB-003 selected')
    // ink reads keys once its input handler is attached (after the first render's effects)
    await tick()
    stdin.write(`${ESC}[A`)
    await frameWhere(frames, (f) => /▸ TASK-DB-001/.test(f), '↑ selecting TASK-DB-001')
    // at the top ↑ stays (keys are handled in order: the frame showing the explanation shows the selection after ↑)
    stdin.write(`${ESC}[A`)
    stdin.write('e')
    const top = await frameWhere(frames, (f) => f.includes('no explanation for TASK-DB-001 yet'), 'the explanation pane')
    expect(top).toMatch(/▸ TASK-DB-001/)
    stdin.write(`${ESC}[B`)
    const down = await frameWhere(frames, (f) => f.includes('Explanation so far: TASK-DB-003'), 'the explanation of TASK-DB-003')
    expect(down).toMatch(/▸ TASK-DB-003/)
    expect(down).toContain('→ mock the database in conftest.py')
    stdin.write('e')
    await frameWhere(frames, (f) => f.includes('Stall window of TASK-DB-003'), 'the stall window back')
    stdin.write('q')
    await frameWhere(frames, (f) => f.includes('Stop the build?'), 'the question')
    stdin.write('n')
    await frameWhere(frames, (f) => !f.includes('Stop the build?'), 'the question gone')
    expect(actions.quit).not.toHaveBeenCalled()
    stdin.write('q')
    await frameWhere(frames, (f) => f.includes('Stop the build?'), 'the question again')
    stdin.write('y')
    await calls(actions.quit, 1)
    stdin.write('\u0003')
    await calls(actions.interrupt, 1)
    expect(actions.quit).toHaveBeenCalledTimes(1)
  })

  it('redraws when the store has a new snapshot; in attach mode q stops following without asking', async () => {
    const src = source({...model, mode: 'attach'})
    const actions = {quit: vi.fn(), interrupt: vi.fn()}
    const {frames, stdin} = render(<Dashboard source={src} actions={actions} confirmQuit={false} />)
    await frameWhere(frames, (f) => f.includes('Warnings (2)'), 'the first snapshot')
    src.set({...model, mode: 'attach', warnings: [...model.warnings, {...model.warnings[0]!, id: 'c', code: 'ENDED_BY_TIMEOUT_NOT_STALL', turn: 9, message: 'half of its 2400 s task timeout'}]})
    const frame = await frameWhere(frames, (f) => f.includes('Warnings (3)'), 'the new snapshot')
    expect(frame).toContain('ENDED_BY_TIMEOUT_NOT_STALL TASK-DB-003 turn 9')
    await tick()
    stdin.write('q')
    await calls(actions.quit, 1)
    expect(frameOf(frames)).not.toContain('Stop the build?')
  })
})
