import {cpSync, mkdtempSync, readdirSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {builtinProfile} from '../../../../src/logic/profiles.js'
import type {GateSettings, RunJob} from '../../../../src/services/gate/gate-run.js'
import {gateRuns} from '../../../../src/services/gate/pool.js'
import {FIXTURES} from '../../../helpers/gate.js'

describe('gating on worker threads', () => {
  it('gives the same runs, in the same order, as one thread', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gr-pool-'))
    const names = ['ok-parallel-waves', 'hostile-log', 'db-003-timeout-log-only', 'ac1a-run2-sft001']
    for (let i = 0; i < 6; i++) cpSync(join(FIXTURES, names[i % names.length]!), join(dir, `run-${String(i).padStart(2, '0')}`), {recursive: true})
    const jobs: RunJob[] = readdirSync(dir).sort().map((name) => ({abs: join(dir, name), path: name, expectations: []}))
    // fixed → legacy, so that some tasks regress and carry findings across the thread boundary
    const [baseline, candidate] = [builtinProfile('fixed')!, builtinProfile('legacy')!]
    const settings: GateSettings = {
      baseline: {kind: 'profile', name: baseline.name, description: baseline.description, flags: baseline.flags},
      candidate: {kind: 'profile', name: candidate.name, description: candidate.description, flags: candidate.flags},
      policy: {failOn: []},
    }
    const seen: number[] = []
    const threads: number[] = []
    // six runs, not the 24 that start threads by default: each thread still gets several runs, in whatever order they finish
    const threaded = await gateRuns(jobs, settings, {jobs: 2, minRunsForWorkers: 2, onRun: (_run, done) => seen.push(done), onThreads: (n) => threads.push(n)})
    const single = await gateRuns(jobs, settings, {jobs: 1, onThreads: (n) => threads.push(n)})
    expect(threads).toEqual([2, 1])
    expect(threaded).toEqual(single)
    expect(threaded.map((r) => r.path)).toEqual(jobs.map((j) => j.path))
    expect(seen).toEqual(Array.from({length: jobs.length}, (_, i) => i + 1))
    expect(threaded.flatMap((r) => r.tasks).filter((t) => t.classification === 'regressed').length).toBeGreaterThan(0)
  }, 60_000)
})
