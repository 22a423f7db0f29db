import {execFileSync} from 'node:child_process'
import {closeSync, constants, lstatSync, mkdirSync, openSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {builtCliPresent, filesBelow, fixture, jsonEvents, removeTempDirs, SIM, startBuilt, tempDir, waitFor} from './helpers.js'

// `live` watches a worktree that the build (or whoever controls the machine) writes while it runs
// (docs/security.md): a link planted there must not copy its target into the recording, and a FIFO must
// not hang live. The build is the simulator (fixtures/sim) wrapped to exit 7, so that live is seen to
// end with the command's own code.

const MARK = 'sec-e2e-not-for-the-recording'
const TASK = '.guardkit/autobuild/TASK-SFT-001'

afterAll(removeTempDirs)
beforeAll(() => {
  expect(builtCliPresent(), 'dist/ is missing: run `npm run build` (npm test does)').toBe(true)
})

describe('live with a hostile worktree (built CLI)', () => {
  it('a link to a file outside, a link to a folder outside and a FIFO planted mid-run: none is read, live ends with the command\'s code', async () => {
    const dir = tempDir()
    const outside = join(dir, 'outside')
    mkdirSync(join(outside, 'TASK-EVIL-001'), {recursive: true})
    writeFileSync(join(outside, 'shadow'), `root:${MARK}:19000:0:99999:7:::\n`)
    writeFileSync(join(outside, 'TASK-EVIL-001/player_turn_1.json'), JSON.stringify({task_id: 'TASK-EVIL-001', turn: 1, note: MARK}))
    const wt = join(dir, 'wt')
    const rec = join(dir, 'rec')
    const build = `node ${JSON.stringify(SIM)} ${JSON.stringify(fixture('ac1a-run2-sft001'))} --worktree ${JSON.stringify(wt)} --speed 100; exit 7`
    const live = startBuilt(['live', '--json', '--record', rec, '--worktree', wt, '--', 'sh', '-c', build], {cwd: dir, timeoutMs: 90_000})
    // plant once live has recorded the task's first artifact: the watcher is running
    await waitFor(() => jsonEvents(live.output().stdout).some((e) => e.type === 'artifact' && String(e.path).startsWith(TASK)), 60_000, 'the first artifact of the task')
    symlinkSync(join(outside, 'shadow'), join(wt, TASK, 'player_turn_9.json'))
    symlinkSync(join(outside, 'TASK-EVIL-001'), join(wt, '.guardkit/autobuild/TASK-EVIL-001'))
    execFileSync('mkfifo', [join(wt, TASK, 'coach_turn_9.json')])
    const ran = await live.done
    // should a regression block on the FIFO, this releases it (the assertion below still fails)
    try {
      closeSync(openSync(join(wt, TASK, 'coach_turn_9.json'), constants.O_WRONLY | constants.O_NONBLOCK))
    } catch {
      // ENXIO: nobody is reading it
    }
    expect(ran.hung, `live did not end: ${ran.stderr.slice(-2000)}`).toBe(false)
    expect(ran.code).toBe(7)
    for (const [path, bytes] of filesBelow(rec)) expect(bytes.includes(MARK), `${path} holds the planted target`).toBe(false)
    expect(lstatSync(join(rec, 'guardkit-replay.json')).isFile()).toBe(true)
    const events = jsonEvents(ran.stdout)
    const skipped = events.filter((e) => e.type === 'skipped').map((e) => [e.path, e.code])
    expect(skipped).toEqual(expect.arrayContaining([
      [`${TASK}/player_turn_9.json`, 'symlink-outside'],
      [`${TASK}/coach_turn_9.json`, 'special-file'],
    ]))
    expect(events.at(-1)).toMatchObject({type: 'report'})
    expect(events.find((e) => e.type === 'exit')).toMatchObject({code: 7})
  }, 120_000)
})
