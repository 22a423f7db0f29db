import {execFileSync} from 'node:child_process'
import {closeSync, constants, mkdirSync, mkdtempSync, openSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {watchWorktree, type SkippedFile, type WatchedFile} from '../../../src/live/watch.js'

// The watcher reads the worktree the build writes, which may hold anything (docs/security.md): links out of
// it, FIFOs, devices, huge files. None is read; each is said once; close() still settles.

const TASK = '.guardkit/autobuild/TASK-X-001'
const MARK = 'watch-hostile-not-for-the-recording'
const dirs: string[] = []
const fifos: string[] = []
afterAll(() => {
  for (const f of fifos) {
    try {
      closeSync(openSync(f, constants.O_WRONLY | constants.O_NONBLOCK))
    } catch {
      // ENXIO: nobody is reading it
    }
  }
  for (const d of dirs) rmSync(d, {recursive: true, force: true})
})
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'gr-watch-'))
  dirs.push(d)
  return d
}
async function waitFor(check: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

for (const polling of [false, true]) {
  describe(`watchWorktree with hostile entries (${polling ? 'polling' : 'fs.watch'})`, () => {
    it('never reads a link out of the worktree, a FIFO, a device or a file over the limit; says each once', async () => {
      const outside = temp()
      writeFileSync(join(outside, 'shadow'), MARK)
      mkdirSync(join(outside, 'TASK-EVIL-001'))
      writeFileSync(join(outside, 'TASK-EVIL-001/player_turn_1.json'), JSON.stringify({note: MARK}))
      const root = temp()
      mkdirSync(join(root, TASK), {recursive: true})
      mkdirSync(join(root, 'tasks/backlog'), {recursive: true})
      const seen: WatchedFile[] = []
      const skipped: SkippedFile[] = []
      const w = watchWorktree(root, {onFile: (f) => seen.push(f), onRemoved: () => undefined, onSkipped: (f) => skipped.push(f), polling, maxBytes: 1000})
      writeFileSync(join(root, TASK, 'player_turn_1.json'), '{"ok": 1}')
      await waitFor(() => seen.length === 1, 10_000, 'the regular file')
      symlinkSync(join(outside, 'shadow'), join(root, TASK, 'player_turn_2.json'))
      symlinkSync(join(outside, 'shadow'), join(root, 'tasks/backlog/TASK-X-002-x.md'))
      symlinkSync(join(outside, 'TASK-EVIL-001'), join(root, '.guardkit/autobuild/TASK-EVIL-001'))
      execFileSync('mkfifo', [join(root, TASK, 'coach_turn_2.json')])
      fifos.push(join(root, TASK, 'coach_turn_2.json'))
      symlinkSync('/dev/zero', join(root, TASK, 'coach_turn_3.json'))
      writeFileSync(join(root, TASK, 'task_work_results.json'), `{"x": "${'y'.repeat(2000)}"}`)
      // a link that stays inside the worktree is read, at its target
      symlinkSync('player_turn_1.json', join(root, TASK, 'player_turn_3.json'))
      await waitFor(() => skipped.length >= 5 && seen.length >= 2, 15_000, 'every entry looked at')
      await w.close()
      expect(skipped.map((f) => [f.rel, f.code]).sort()).toEqual([
        [`${TASK}/coach_turn_2.json`, 'special-file'],
        [`${TASK}/coach_turn_3.json`, 'symlink-outside'],
        [`${TASK}/player_turn_2.json`, 'symlink-outside'],
        [`${TASK}/task_work_results.json`, 'too-large'],
        ['tasks/backlog/TASK-X-002-x.md', 'symlink-outside'],
      ])
      expect(seen.map((f) => [f.rel, f.bytes.toString()])).toEqual([[`${TASK}/player_turn_1.json`, '{"ok": 1}'], [`${TASK}/player_turn_3.json`, '{"ok": 1}']])
      expect(seen.some((f) => f.bytes.includes(MARK))).toBe(false)
    }, 30_000)
  })
}
