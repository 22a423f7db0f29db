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

describe.runIf(hasTmux || (process.env.CI !== undefined && process.env.CI !== ''))('the live dashboard fits the terminal (tmux)', () => {
  for (const columns of [60, 80, 120]) {
    it(`${columns} columns`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'gr-width-'))
      dirs.push(dir)
      const sim = [process.execPath, join(root, 'fixtures/sim/guardkit-sim.mjs'), join(root, 'fixtures/runs/db-003-timeout'), '--worktree', join(dir, 'wt'), '--speed', '40']
      // 40×: the build is still running when q is typed, however loaded the machine is (at 100× it ends in ~30 s)
      const live = [process.execPath, join(root, 'bin/run.js'), 'live', '--record', join(dir, 'rec'), '--time-scale', '40', '--', ...sim]
      const script = `cd ${quote(dir)} && env -u CI ${live.map(quote).join(' ')}; echo LIVE-EXIT=$?; sleep 60`
      spawnSync('tmux', ['-L', socket, 'kill-session', '-t', session])
      // 70 rows: the whole frame fits however late the screen is read (at 60 columns, four warnings and the stall
      // window make it ~55 rows; in a shorter pane its top, the task table, scrolls away)
      tmux('new-session', '-d', '-s', session, '-x', String(columns), '-y', '70', script)
      // one capture, checked and asserted on: a whole frame (its first and last lines), not one ink is redrawing
      let s = ''
      await waitFor(() => {
        s = screen()
        return /INFRA_TEST_FAILURE/.test(s) && /▸ TASK-DB-003/.test(s) && s.includes('guardkit-replay live') && s.includes('q stop the build')
      }, 60_000, 'the first warning')
      for (const line of s.split('\n')) expect(stringWidth(line), `${columns}: ${line}`).toBeLessThanOrEqual(columns)
      // one line per task row
      expect(s.split('\n').filter((l) => /TASK-DB-001/.test(l) && /\/30/.test(l))).toHaveLength(1)
      tmux('send-keys', '-t', session, 'e')
      await waitFor(() => screen().includes('Explanation so far: TASK-DB-003'), 15_000, 'the explanation')
      for (const line of screen().split('\n')) expect(stringWidth(line), `${columns}, explanation: ${line}`).toBeLessThanOrEqual(columns)
      tmux('send-keys', '-t', session, 'q')
      await waitFor(() => screen().includes('Stop the build?'), 15_000, 'the question')
      tmux('send-keys', '-t', session, 'y')
      await waitFor(() => screen().includes('LIVE-EXIT='), 60_000, 'live to end')
      // the summary is not glued to the key hints: it starts a line
      expect(screen()).toMatch(/^command exited with code 130$/m)
    }, 150_000)
  }
})
