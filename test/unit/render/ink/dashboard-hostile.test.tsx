import {cleanup, render} from 'ink-testing-library'
import {afterEach, describe, expect, it} from 'vitest'
import {DashboardView} from '../../../../src/render/ink/DashboardView.js'
import type {DashboardModel} from '../../../../src/render/ink/model.js'

// The dashboard writes the build's text straight to the terminal (docs/security.md): task ids, paths,
// feedback, warnings and the command's own lines are shown escaped, never acted on.

afterEach(cleanup)

const EVIL = 'TASK-X\x1b]0;pwned\x07\x1b[2J-001'
const KEY = `${EVIL}#1`
const model: DashboardModel = {
  title: 'guardkit autobuild feature FEAT-X\x1b]8;;http://evil\x07',
  mode: 'spawn',
  status: 'running',
  elapsedSeconds: 10,
  recordDir: 'runs/x\n::warning title=INJ::y',
  worktree: '/wt\x1b[H',
  runningProfile: 'legacy',
  tasks: [{key: KEY, taskId: EVIL, attempt: 1, phase: 'coach', done: false, ok: null, turn: 2, maxTurns: 5, criteriaMet: 0, criteriaTotal: 3, elapsedSeconds: 5, timeoutSeconds: 100, warnings: 1}],
  stall: {[KEY]: {threshold: 3, remainingRunning: 1, remainingFixed: 1, firedRunning: null, firedFixed: null, endedFixed: null, fixedBranches: null,
    rows: [{turn: 1, feedback: 'fix \x1b[31mred\x07', raw: 'aaaaaaaa', normalised: 'bbbbbbbb', running: {signature: 'aaaaaaaa', count: 1}, fixed: {signature: 'bbbbbbbb', count: 1}}]}},
  explain: {[KEY]: {happened: 'running\x1b[2J', why: 'why\x07', findings: [], doNow: []}},
  warnings: [{id: 'a', key: KEY, taskId: EVIL, attempt: 1, code: 'INFRA_TEST_FAILURE', severity: 'high', turn: 1, message: 'msg\x1b]0;t\x07', raisedAt: ''}],
  logTail: ['INFO:x:\x1b]0;title\x07 \x1b[2J clear'],
  notices: ['notice\x1bc'],
  exit: null,
}

// eslint-disable-next-line no-control-regex
const NOT_SGR = /\x1b(?!\[[0-9;]*m)|[\x00-\x08\x0b-\x1a\x1c-\x1f\x7f]/

describe('the dashboard with hostile text', () => {
  it('shows every text escaped: no escape sequence but ink\'s own colours, no bell, no line break inside a value', () => {
    for (const showExplain of [false, true]) {
      const {frames} = render(<DashboardView model={model} selected={0} showExplain={showExplain} confirming={false} width={160} />)
      const frame = frames.filter((f) => f.trim() !== '').at(-1) ?? ''
      expect(frame).not.toMatch(NOT_SGR)
      expect(frame).toContain('TASK-X\\e]0;pwned\\a\\e[2J-001')
      expect(frame.split('\n').some((l) => /^\s*::/.test(l))).toBe(false)
      if (!showExplain) expect(frame).toContain('fix \\e[31mred\\a')
    }
  })
})
