import {execFileSync, spawnSync} from 'node:child_process'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {CLI, removeTempDirs, simCommand, tempDir, waitFor} from './helpers.js'

const hasTmux = spawnSync('tmux', ['-V']).status === 0
const session = `gr-live-${process.pid}`
// a tmux server of its own (-L): the e2e files run in parallel, and a server shared with another file's session
// exits under this one when that session ends
const socket = `gr-live-${process.pid}`
const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], {encoding: 'utf8'})
const screen = () => tmux('capture-pane', '-p', '-t', session)
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`

afterAll(() => {
  spawnSync('tmux', ['-L', socket, 'kill-server'])
  removeTempDirs()
})

/**
 * The dashboard in a real terminal: tmux runs `live` on a pseudo-terminal (stdin and stdout are
 * TTYs, CI unset), the test reads the screen with capture-pane and types with send-keys.
 */
// CI installs tmux (.ci/run): there the test runs, and fails without it, rather than passing unseen
describe.runIf(hasTmux || (process.env.CI !== undefined && process.env.CI !== ''))('live dashboard in a real terminal (tmux)', () => {
  it('draws the tasks, the stall window and the warnings in place; ↑, e and q (asked, then y) work; the build stops and the recording is finished', async () => {
    const dir = tempDir()
    const record = join(dir, 'rec')
    // 40×: the build outlasts the keys typed below however loaded the machine is (at 100× it ended in ~30 s, and a
    // slow run found no build left to stop); the test stops it itself
    const live = [process.execPath, CLI, 'live', '--record', record, '--time-scale', '40', '--', ...simCommand('db-003-timeout', join(dir, 'wt'), 40)]
    const script = `cd ${quote(dir)} && env -u CI ${live.map(quote).join(' ')}; echo LIVE-EXIT=$?; sleep 120`
    tmux('new-session', '-d', '-s', session, '-x', '150', '-y', '50', script)

    // the first warning, and TASK-DB-003 selected: the first task still running, once DB-001 and DB-002
    // have their outcomes (how far the build is when the warning shows depends on the machine's load)
    // one capture, checked and asserted on: a whole frame (its first and last lines), not one ink is redrawing
    let s = ''
    await waitFor(() => {
      s = screen()
      return /INFRA_TEST_FAILURE TASK-DB-003 turn 1/.test(s) && /▸ TASK-DB-003/.test(s) && s.includes('guardkit-replay live') && s.includes('q stop the build')
    }, 60_000, 'the first warning on screen, with TASK-DB-003 selected')
    if (process.env.LIVE_TMUX_DEBUG) console.log(s)
    // drawn in place: one header, one task table, however many redraws there were
    expect(s.match(/guardkit-replay live /g)?.length).toBe(1)
    expect(s).toMatch(/ {2}task\s+phase\s+turn\s+criteria\s+elapsed\/timeout\s+warn/)
    expect(s).toMatch(/ {2}TASK-DB-001\s+approved\s+1\/30\s+████████ 6\/6/)
    // the task still running is selected, with its stall window
    expect(s).toMatch(/▸ TASK-DB-003\s+(player|coach|waiting)\s+\d+\/30\s+(░░░░░░░░ 0\/6|–)\s+\d+:\d\d\/40:00\s+⚠ \d/)
    expect(s).toContain('Stall window of TASK-DB-003 (threshold 3)')
    expect(s).toMatch(/Warnings \(\d\)/)
    // no escape sequences left on screen (a terminal interprets them)
    expect(s).not.toContain('[2K')

    tmux('send-keys', '-t', session, 'Up')
    await waitFor(() => /▸ TASK-DB-00[12]/.test(screen()), 15_000, 'the selection to move')
    const selected = /▸ (TASK-DB-00[12])/.exec(screen())![1]!
    await waitFor(() => screen().includes(`Stall window of ${selected}`), 15_000, 'the selected task\'s stall window')

    tmux('send-keys', '-t', session, 'e')
    await waitFor(() => screen().includes(`Explanation so far: ${selected}`), 15_000, 'the explanation')
    tmux('send-keys', '-t', session, 'e')
    await waitFor(() => screen().includes(`Stall window of ${selected}`), 15_000, 'the stall window back')

    tmux('send-keys', '-t', session, 'q')
    await waitFor(() => screen().includes('Stop the build? It gets SIGINT and time to save its state. (y/n)'), 15_000, 'the question')
    tmux('send-keys', '-t', session, 'n')
    await waitFor(() => !screen().includes('Stop the build?'), 15_000, 'the question to go')
    expect(screen()).not.toContain('LIVE-EXIT')

    tmux('send-keys', '-t', session, 'q')
    await waitFor(() => screen().includes('Stop the build?'), 15_000, 'the question again')
    tmux('send-keys', '-t', session, 'y')
    await waitFor(() => screen().includes('LIVE-EXIT='), 30_000, 'live to end')
    s = screen()
    // the simulator stops on SIGINT with 130, which live exits with
    expect(s).toContain('LIVE-EXIT=130')
    expect(s).toContain('command exited with code 130')
    expect(s).toContain(`recording: ${record} (analyze it: guardkit-replay ${record})`)
    expect(s).toMatch(/warning INFRA_TEST_FAILURE TASK-DB-003 turn 1: /)
    const manifest = JSON.parse(readFileSync(join(record, 'guardkit-replay.json'), 'utf8')) as {files: {path: string}[]}
    expect(manifest.files.map((f) => f.path)).toContain('run.log')
    expect(readFileSync(join(record, 'run.log'), 'utf8')).toContain('⚠ Interrupted: cancelling AutoBuild (state saved)')
  }, 120_000)
})
