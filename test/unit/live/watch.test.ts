import {closeSync, mkdirSync, openSync, renameSync, rmSync, utimesSync, writeFileSync, writeSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {watchWorktree, type WatchedFile} from '../../../src/live/watch.js'
import {removeTempDirs, tempDir, waitFor} from '../../helpers/temp-dirs.js'

afterAll(removeTempDirs)

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const TASK = '.guardkit/autobuild/TASK-X-001'

function put(root: string, rel: string, content: string): void {
  mkdirSync(dirname(join(root, rel)), {recursive: true})
  writeFileSync(join(root, rel), content)
}

// Concurrent: each test has its own folder and watcher, and mostly waits on the watcher's timers (retries of 3 s
// in all, a 2 s debounce) — one after another they held a worker ~10 s, side by side ~3.5 s.
describe.concurrent('watchWorktree', () => {
  for (const polling of [false, true]) {
    describe(`watchWorktree (${polling ? 'polling' : 'fs.watch'})`, () => {
      it('hands over each complete version of the files ingest reads, folders created later included, and nothing else', async () => {
        const root = tempDir()
        const seen: WatchedFile[] = []
        const removed: string[] = []
        const w = watchWorktree(root, {onFile: (f) => seen.push(f), onRemoved: (r) => removed.push(r), polling})
        await sleep(50)
        put(root, `${TASK}/player_turn_1.json`, '{"a": 1}')
        put(root, 'tasks/backlog/TASK-X-001-x.md', '---\nid: TASK-X-001\n---\n')
        put(root, '.guardkit/features/FEAT-1.yaml', 'id: FEAT-1\n')
        put(root, 'src/app.py', 'print(1)\n')
        put(root, `${TASK}/.player_turn_1.json.tmp`, '{')
        await waitFor(() => seen.length === 3, 10_000, 'three files')
        put(root, `${TASK}/player_turn_1.json`, '{"a": 2}')
        await waitFor(() => seen.length === 4, 10_000, 'the second version')
        // a move (GuardKit's state bridge): the old path goes, the new one comes
        mkdirSync(join(root, 'tasks/design_approved'), {recursive: true})
        renameSync(join(root, 'tasks/backlog/TASK-X-001-x.md'), join(root, 'tasks/design_approved/TASK-X-001-x.md'))
        await waitFor(() => removed.length === 1 && seen.length === 5, 10_000, 'the move')
        await w.close()
        const shown = seen.map((f) => `${f.rel}=${f.bytes.toString()}`)
        // the first three landed together (any order); then the new version, then the moved file
        expect(shown.slice(0, 3).sort()).toEqual([
          `${TASK}/player_turn_1.json={"a": 1}`,
          '.guardkit/features/FEAT-1.yaml=id: FEAT-1\n',
          'tasks/backlog/TASK-X-001-x.md=---\nid: TASK-X-001\n---\n',
        ])
        expect(shown.slice(3)).toEqual([`${TASK}/player_turn_1.json={"a": 2}`, 'tasks/design_approved/TASK-X-001-x.md=---\nid: TASK-X-001\n---\n'])
        expect(removed).toEqual(['tasks/backlog/TASK-X-001-x.md'])
        expect(seen.every((f) => f.invalid === null && f.writesSinceLast <= 1)).toBe(true)
      })

      it('reads a half-written JSON file again until it parses; gives up after the retries and says why', async () => {
        const root = tempDir()
        const seen: WatchedFile[] = []
        const retried: string[] = []
        mkdirSync(join(root, TASK), {recursive: true})
        // retries long enough (3 s in all) that only the order of events matters, not how fast this machine is
        const w = watchWorktree(root, {onFile: (f) => seen.push(f), onRemoved: () => undefined, onRetry: (rel) => retried.push(rel), polling, retryDelaysMs: [100, 200, 400, 800, 1600]})
        await sleep(100)
        const fd = openSync(join(root, TASK, 'coach_turn_1.json'), 'w')
        writeSync(fd, '{"decision": "feedb')
        // the watcher has read the first half and will read it again: now the rest lands
        await waitFor(() => retried.includes(`${TASK}/coach_turn_1.json`), 10_000, 'a read of the half-written file')
        writeSync(fd, 'ack"}')
        closeSync(fd)
        put(root, `${TASK}/coach_turn_2.json`, '{"decision": ')
        await waitFor(() => seen.length === 2, 20_000, 'both files')
        await w.close()
        const one = seen.find((f) => f.rel.endsWith('coach_turn_1.json'))!
        expect(one).toMatchObject({invalid: null, bytes: Buffer.from('{"decision": "feedback"}')})
        expect(one.reads).toBeGreaterThan(1)
        const two = seen.find((f) => f.rel.endsWith('coach_turn_2.json'))!
        expect(two.reads).toBe(6)
        expect(two.invalid).toMatch(/^not valid JSON after 6 reads: Expecting value/)
        expect(retried.filter((r) => r.endsWith('coach_turn_2.json'))).toHaveLength(5)
      })
    })
  }

  describe('watchWorktree gaps and the current-directory fallback', () => {
    it('counts two writes that began before one read: a version may have been missed', async () => {
      const root = tempDir()
      const seen: WatchedFile[] = []
      mkdirSync(join(root, TASK), {recursive: true})
      // reads wait 2 s after the last change, and no rescan comes in between: both writes begin before a read
      const w = watchWorktree(root, {onFile: (f) => seen.push(f), onRemoved: () => undefined, debounceMs: 2000, rescanMs: 60_000})
      await sleep(100)
      writeFileSync(join(root, TASK, 'player_turn_1.json'), '{"completion_promises": [{"criterion_id": "AC-001"}]}')
      // the change event of the first write is handled while this waits (the second write is smaller: a truncation)
      await sleep(100)
      writeFileSync(join(root, TASK, 'player_turn_1.json'), '{"files": []}')
      await waitFor(() => seen.length === 1, 10_000, 'one read')
      await w.close()
      expect(seen[0]!.bytes.toString()).toBe('{"files": []}')
      expect(seen[0]!.writesSinceLast).toBe(2)
    })

    it('with modifiedSince, leaves out files older than the session', async () => {
      const root = tempDir()
      put(root, `${TASK}/player_turn_1.json`, '{"old": true}')
      const past = new Date(Date.now() - 3_600_000)
      utimesSync(join(root, TASK, 'player_turn_1.json'), past, past)
      const seen: WatchedFile[] = []
      const w = watchWorktree(root, {onFile: (f) => seen.push(f), onRemoved: () => undefined, modifiedSince: Date.now() - 1000})
      await sleep(100)
      put(root, `${TASK}/coach_turn_1.json`, '{"new": true}')
      await waitFor(() => seen.length === 1, 10_000, 'the new file')
      rmSync(join(root, TASK, 'player_turn_1.json'))
      await w.close()
      expect(seen.map((f) => f.rel)).toEqual([`${TASK}/coach_turn_1.json`])
    })
  })
})
