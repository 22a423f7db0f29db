import {describe, expect, it} from 'vitest'
import type {ArtifactTask, CheckpointEntry} from '../../../../src/ingest/artifacts/assemble-task.js'
import {pairArtifactFolders, sameCommit} from '../../../../src/ingest/merge/pair-attempts.js'
import {loggedTask} from './builders.js'

function folder(taskId: string, hashes: Record<number, string>, dir = `.guardkit/autobuild/${taskId}`): ArtifactTask {
  const checkpoints = new Map<number, CheckpointEntry>(Object.entries(hashes).map(([turn, hash]) => [Number(turn),
    {turn: Number(turn), hash, testsPassed: null, testCount: null, fromPriorRun: null, evidence: {file: `${dir}/checkpoints.json`, pointer: '/checkpoints/0'}}]))
  return {taskId, dir, worktree: '.', turns: new Map(), checkpoints, lastTurn: Math.max(0, ...checkpoints.keys()) || null,
    taskLevel: {checkpoints: null, turnContext: null, specialistResults: null, stateTransitions: null, phase4Summary: null, others: []}}
}

const FULL_1 = 'c9798479e1f3a0b2c4d6e8f0a1b3c5d7e9f1a2b3'
const FULL_2 = '7d0832561111222233334444555566667777aaaa'

describe('pairArtifactFolders', () => {
  it('pairs a folder with the attempt whose logged checkpoint hashes its checkpoints.json holds', () => {
    const tasks = [
      loggedTask('TASK-A-001', 1, [{turn: 1, hash: 'deadbeef'}], 'unrecoverable_stall'),
      loggedTask('TASK-A-001', 3, [{turn: 1, hash: 'c9798479'}, {turn: 2, hash: '7d083256'}]),
    ]
    const r = pairArtifactFolders(tasks, [folder('TASK-A-001', {1: FULL_1, 2: FULL_2})])
    expect([...r.paired.entries()].map(([i, p]) => [i, p.basis])).toEqual([[1, 'checkpoints']])
    expect(r.unpaired).toEqual([])
    expect(r.issues).toEqual([])
  })

  it('without hashes on either side: the task\'s only run, else its latest (with an info issue)', () => {
    const only = pairArtifactFolders([loggedTask('TASK-A-001', 1, [{turn: 1}])], [folder('TASK-A-001', {})])
    expect(only.paired.get(0)?.basis).toBe('only-run')
    expect(only.issues).toEqual([])
    const two = pairArtifactFolders([loggedTask('TASK-A-001', 1, [{turn: 1}]), loggedTask('TASK-A-001', 2, [{turn: 1}])], [folder('TASK-A-001', {})])
    expect([...two.paired.keys()]).toEqual([1])
    expect(two.issues).toEqual([expect.objectContaining({code: 'pairing-guess', severity: 'info'})])
  })

  it('a folder whose hashes contradict every logged run is from another run: read on its own, with a warning', () => {
    const r = pairArtifactFolders([loggedTask('TASK-A-001', 1, [{turn: 1, hash: 'deadbeef'}])], [folder('TASK-A-001', {1: FULL_1})])
    expect(r.paired.size).toBe(0)
    expect(r.unpaired.map((f) => f.taskId)).toEqual(['TASK-A-001'])
    expect(r.issues).toEqual([expect.objectContaining({file: '.guardkit/autobuild/TASK-A-001', code: 'unpaired-artifacts', severity: 'warning'})])
  })

  it('a folder of a task no log ran is unpaired without an issue here', () => {
    const r = pairArtifactFolders([loggedTask('TASK-A-001', 1, [])], [folder('TASK-B-001', {1: FULL_1})])
    expect(r.unpaired.map((f) => f.taskId)).toEqual(['TASK-B-001'])
    expect(r.issues).toEqual([])
  })

  it('two folders for one run: the better match wins, the other is read on its own', () => {
    const tasks = [loggedTask('TASK-A-001', 1, [{turn: 1, hash: 'c9798479'}, {turn: 2, hash: '7d083256'}])]
    const r = pairArtifactFolders(tasks, [folder('TASK-A-001', {1: FULL_1}, 'a'), folder('TASK-A-001', {1: FULL_1, 2: FULL_2}, 'b')])
    expect(r.paired.get(0)?.folder.dir).toBe('b')
    expect(r.unpaired.map((f) => f.dir)).toEqual(['a'])
  })
})

describe('sameCommit', () => {
  it('compares abbreviated and full ids, case-insensitively, needing at least 7 characters', () => {
    expect(sameCommit('c9798479', FULL_1)).toBe(true)
    expect(sameCommit('C9798479', FULL_1)).toBe(true)
    expect(sameCommit('c9798470', FULL_1)).toBe(false)
    expect(sameCommit('c97', FULL_1)).toBe(false)
  })
})
