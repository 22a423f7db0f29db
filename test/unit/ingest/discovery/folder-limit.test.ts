import {describe, expect, it} from 'vitest'
import {discoverRun} from '../../../../src/ingest/discover.js'
import {DEFAULT_LIMITS} from '../../../../src/ingest/discovery/limits.js'
import {loadRun} from '../../../../src/services/load-run.js'
import {createMemoryPort, memoryTree} from '../../../helpers/memory-port.js'

// A task folder of 100 000 per-turn files is not a run GuardKit wrote (docs/ingest.md "Limits"): only the
// first entries by name are looked at, with one issue, so such a folder cannot keep ingest busy for minutes.

const TASK = '.guardkit/autobuild/TASK-X-001'
const player = (turn: number) => JSON.stringify({task_id: 'TASK-X-001', turn, files_modified: [], files_created: [], tests_run: false, tests_passed: false})

describe('the per-folder entry limit', () => {
  it('a task folder of 100 000 files: the first 5 000 by name are looked at, and one issue says so', async () => {
    const files: Record<string, string> = {}
    for (let i = 1; i <= 100_000; i++) files[`${TASK}/player_turn_${i}.json`] = i <= 3 ? player(i) : '{}'
    const entries = memoryTree('/run', files)
    let lstats = 0
    const base = createMemoryPort(entries)
    const counting = {...base, lstat: (p: string) => (lstats++, base.lstat(p)), within: () => counting}
    const d = await discoverRun(counting, '/run')
    expect(DEFAULT_LIMITS.maxFolderEntries).toBe(5_000)
    expect(d.issues.filter((i) => i.code === 'too-many-files')).toEqual([
      expect.objectContaining({file: TASK, severity: 'warning', message: 'the folder holds 100000 entries, more than 5000: only the first 5000 (by name) were looked at'}),
    ])
    const folder = d.worktrees[0]!.taskFolders[0]!
    expect(folder.files.length).toBe(5_000)
    // by code point: player_turn_1, player_turn_10, player_turn_100, … — the first turns are among them
    expect(folder.files.map((f) => f.name)).toContain('player_turn_1.json')
    expect(lstats).toBeLessThan(5_100)
  })

  it('the limit is the caller\'s: a run read with a lower one reads that many', async () => {
    const files: Record<string, string> = {}
    for (let i = 1; i <= 30; i++) files[`${TASK}/player_turn_${i}.json`] = player(i)
    const run = await loadRun('/run', {port: createMemoryPort(memoryTree('/run', files)), limits: {...DEFAULT_LIMITS, maxFolderEntries: 10}})
    expect(run.ingestIssues.filter((i) => i.code === 'too-many-files').map((i) => i.file)).toEqual([TASK])
  })
})
