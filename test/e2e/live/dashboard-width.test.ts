// The live dashboard in a real terminal of 60, 80 and 120 columns (tmux): no row the terminal has to
// wrap, and the summary printed when it ends starts on a line of its own.
import {execFileSync, spawnSync} from 'node:child_process'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import stringWidth from 'string-width'
import {afterAll, describe, expect, it} from 'vitest'
import {root} from '../helpers/built-cli.js'

const hasTmux = spawnSync('tmux', ['-V']).status === 0
const session = `gr-width-${process.pid}`
// a tmux server of its own (-L): the e2e files run in parallel, and a server shared with another file's session
// exits under this one when that session ends
const socket = `gr-width-${process.pid}`
const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], {encoding: 'utf8'})
/** The screen, wrapped lines joined back (-J): a line wider than the pane is one the terminal wrapped. */
const screen = () => tmux('capture-pane', '-p', '-J', '-t', session)
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`
const dirs: string[] = []

afterAll(() => {
  spawnSync('tmux', ['-L', socket, 'kill-server'])
  for (const d of dirs) rmSync(d, {recursive: true, force: true})
})

async function waitFor(check: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; screen:\n${screen()}`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

// One build, in one terminal resized from 60 to 80 to 120 columns (wider each time, as ink redraws a widened terminal
// in place; docs/cli.md "Terminal width"): the dashboard reads the terminal's columns at each redraw, so each width is
// still a real terminal's; a build per width cost a live run each (~5 s of CPU, ~15 s) for the same code. The layout at
// each width, on every pane, is also checked in-process (test/unit/render/ink/dashboard-width.test.tsx).
describe.runIf(hasTmux || (process.env.CI !== undefined && process.env.CI !== ''))('the live dashboard fits the terminal (tmux)', () => {
  it('60, 80 and 120 columns', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gr-width-'))
    dirs.push(dir)
    const sim = [process.execPath, join(root, 'fixtures/sim/guardkit-sim.mjs'), join(root, 'fixtures/runs/db-003-timeout'), '--worktree', join(dir, 'wt'), '--speed', '40']
    // 40×: the build is still running when q is typed, however loaded the machine is (at 100× it ends in ~30 s)
    const live = [process.execPath, join(root, 'bin/run.js'), 'live', '--record', join(dir, 'rec'), '--time-scale', '40', '--', ...sim]
    const script = `cd ${quote(dir)} && env -u CI ${live.map(quote).join(' ')}; echo LIVE-EXIT=$?; sleep 60`
    // 70 rows: the whole frame fits however late the screen is read (at 60 columns, four warnings and the stall
    // window make it ~55 rows; in a shorter pane its top, the task table, scrolls away)
    tmux('new-session', '-d', '-s', session, '-x', '60', '-y', '70', script)
    await waitFor(() => /INFRA_TEST_FAILURE/.test(screen()), 60_000, 'the first warning')
    for (const columns of [60, 80, 120]) {
      if (columns !== 60) tmux('resize-window', '-t', session, '-x', String(columns), '-y', '70')
      // the explanation first: its border spans the pane (one column short of the terminal), so a border of this
      // width is a frame drawn for this width, not one left from the narrower terminal
      tmux('send-keys', '-t', session, 'e')
      let s = ''
      await waitFor(() => {
        s = screen()
        return s.includes('Explanation so far: TASK-DB-003') && s.split('\n').some((l) => l.startsWith('╭') && stringWidth(l) === columns - 1)
      }, 15_000, `the explanation at ${columns} columns`)
      for (const line of s.split('\n')) expect(stringWidth(line), `${columns}, explanation: ${line}`).toBeLessThanOrEqual(columns)
      tmux('send-keys', '-t', session, 'e')
      // one capture, checked and asserted on: a whole frame (its first and last lines), not one ink is redrawing
      await waitFor(() => {
        s = screen()
        return !s.includes('Explanation so far') && /Warnings \(\d+\)/.test(s) && /▸ TASK-DB-003/.test(s) && s.includes('guardkit-replay live') && s.includes('q stop the build')
      }, 15_000, `the stall window at ${columns} columns`)
      for (const line of s.split('\n')) expect(stringWidth(line), `${columns}: ${line}`).toBeLessThanOrEqual(columns)
      // one line per task row
      expect(s.split('\n').filter((l) => /TASK-DB-001/.test(l) && /\/30/.test(l))).toHaveLength(1)
    }
    tmux('send-keys', '-t', session, 'q')
    await waitFor(() => screen().includes('Stop the build?'), 15_000, 'the question')
    tmux('send-keys', '-t', session, 'y')
    await waitFor(() => screen().includes('LIVE-EXIT='), 60_000, 'live to end')
    // the summary is not glued to the key hints: it starts a line
    expect(screen()).toMatch(/^command exited with code 130$/m)
  }, 150_000)
})
