import {describe, expect, it} from 'vitest'
import {analyzeRun, type AnalyzeOptions} from '../../../src/explain/analyze-run.js'
import {builtinProfile} from '../../../src/logic/profiles.js'
import {inferEra} from '../../../src/replay/era.js'
import type {TaskReplay} from '../../../src/replay/types.js'
import {eraOf, loadFixture, replayedTurn, taskReplay} from './helpers.js'

/** A stand-in replay: every profile reproduces the recorded turns and ends undetermined, except fixed, which stalls at 5. */
const replay: AnalyzeOptions['replay'] = (_run, task, profile): TaskReplay => {
  const turns = task.turns.filter((t) => t.coach.decision).map((t) => replayedTurn(t.turn, {decision: t.coach.decision!.value, criteriaMet: t.coach.criteriaMet?.value ?? null}))
  if (profile.name === 'fixed' && task.taskId === 'TASK-DB-003') return taskReplay('fixed', {kind: 'replayed', outcome: 'unrecoverable_stall', turn: 5}, turns.slice(0, 5), 5)
  return taskReplay(profile.name, {kind: 'undetermined', afterTurn: turns.length}, turns)
}

const options = (extra: Partial<AnalyzeOptions> = {}): AnalyzeOptions => ({
  profiles: [builtinProfile('legacy')!, builtinProfile('fixed')!],
  replay,
  inferEra,
  tool: {name: 'guardkit-replay', version: 'test'},
  ...extra,
})

describe('analyzeRun', () => {
  it('replays the inferred profile first, then the chosen ones, and numbers findings across the report', async () => {
    const run = await loadFixture('db-003-timeout')
    const report = analyzeRun(run, options())
    expect(report.profiles.map((p) => p.name)).toEqual(['as-run:8a697b80', 'legacy', 'fixed'])
    const db3 = report.tasks.find((t) => t.task.taskId === 'TASK-DB-003')!
    expect(Object.keys(db3.replays)).toEqual(['as-run:8a697b80', 'legacy', 'fixed'])
    expect(db3.findings[0]!.id).toBe('f1')
    expect(db3.verdict.waste).toMatchObject({shouldHaveStoppedAt: 5, turnsWasted: 13})
    expect(db3.explain!.stall.fixedVerdict).toBe('fixed would have stopped at turn 5')
    expect(db3.whatif).toBeNull()
    expect(report.feature!.featureId).toBe('FEAT-BA28')
    expect(report.tool.version).toBe('test')
  })

  it('gives byte-identical reports for the same record (deterministic ids and order)', async () => {
    const run = await loadFixture('db-003-timeout')
    expect(JSON.stringify(analyzeRun(run, options()))).toBe(JSON.stringify(analyzeRun(run, options())))
  })

  it('runs whatif on request, with the replay it was given', async () => {
    const run = await loadFixture('db-003-timeout')
    const report = analyzeRun(run, options({whatif: true, whatifBounds: {maxSetSize: 2}}))
    const w = report.tasks.find((t) => t.task.taskId === 'TASK-DB-003')!.whatif!
    expect(w.baseline).toBe('as-run:8a697b80')
    expect(w.searched).toMatch(/up to 2/)
  })

  it('still explains a run outside the modelled window from its log records', async () => {
    const run = await loadFixture('db-003-timeout-log-only')
    const report = analyzeRun(run, options({inferEra: () => eraOf(null, false)}))
    const db3 = report.tasks.find((t) => t.task.taskId === 'TASK-DB-003')!
    expect(report.profiles.map((p) => p.name)).toEqual(['legacy', 'fixed'])
    expect(db3.findings.map((f) => f.code)).toEqual(expect.arrayContaining(['INFRA_TEST_FAILURE', 'ENDED_BY_TIMEOUT_NOT_STALL', 'GATES_SHORT_CIRCUIT']))
    expect(db3.findings.map((f) => f.code)).not.toContain('REPLAY_DIVERGES_FROM_RECORD')
  })
})
