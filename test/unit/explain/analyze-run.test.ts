import {describe, expect, it} from 'vitest'
import {analyzeRun} from '../../../src/explain/analyze-run.js'
import {planProfiles} from '../../../src/explain/profile-selection.js'
import type {RunRecord} from '../../../src/model/run-record.js'
import {loadFixture} from './helpers.js'

const TOOL = {name: 'guardkit-replay', version: 'test'}

/** The same record with a marker of June 2026 (the LLM Coach): newer than the modelled window. */
function outsideWindow(run: RunRecord): RunRecord {
  return {...run, eraMarkers: [...run.eraMarkers, {id: 'llm-coach', evidence: [], count: 1}]}
}

describe('analyzeRun (the spine)', () => {
  it('replays the inferred profile first, then legacy and fixed, and numbers findings across the report', async () => {
    // fixtures/runs/db-003-timeout/README.md: the fixed logic's stall detector fires at turn 5 of 18 if fixed's own
    // feedback (not in the records) repeats as the recorded one does; the normalised recorded feedback repeats by turn 5
    const run = await loadFixture('db-003-timeout')
    const report = analyzeRun(run, {tool: TOOL})
    expect(report.profiles.map((p) => p.name)).toEqual(['as-run:8a697b80', 'legacy', 'fixed'])
    const db3 = report.tasks.find((t) => t.task.taskId === 'TASK-DB-003')!
    expect(Object.keys(db3.replays)).toEqual(['as-run:8a697b80', 'legacy', 'fixed'])
    expect(db3.findings[0]!.id).toBe('f1')
    expect(db3.replays.fixed!.outcome.kind === 'branches' ? db3.replays.fixed!.outcome.branches.map((b) => b.stallTurn) : []).toEqual([null, 5])
    expect(db3.verdict.waste).toMatchObject({shouldHaveStoppedAt: 5, turnsWasted: 13})
    expect(db3.whatif).toBeNull()
    expect(report.feature!.featureId).toBe('FEAT-BA28')
    expect(report.tool.version).toBe('test')
  })

  it('gives byte-identical reports for the same record (deterministic ids and order)', async () => {
    const run = await loadFixture('db-003-timeout')
    expect(JSON.stringify(analyzeRun(run, {tool: TOOL}))).toBe(JSON.stringify(analyzeRun(run, {tool: TOOL})))
  })

  it('runs whatif on request, from the era profile', async () => {
    const run = await loadFixture('db-003-timeout')
    const report = analyzeRun(run, {whatif: true, whatifBounds: {maxSetSize: 2}})
    const w = report.tasks.find((t) => t.task.taskId === 'TASK-DB-003')!.whatif!
    expect(w.baseline).toBe('as-run:8a697b80')
    expect(w.searched).toMatch(/up to 2/)
  })

  it('replays each task under a profile once, through the memo when one is given', async () => {
    const run = await loadFixture('db-003-timeout')
    const slots: string[] = []
    analyzeRun(run, {memo: {replay: (slot, compute) => (slots.push(`${slot.task.taskId}#${slot.task.attempt} ${slot.profile.name}`), compute())}})
    expect(slots.length).toBe(new Set(slots).size)
    expect(slots).toContain('TASK-DB-003#1 fixed')
  })

  it('still explains a run outside the modelled window from its log records, and replays nothing', async () => {
    const run = outsideWindow(await loadFixture('db-003-timeout-log-only'))
    const report = analyzeRun(run)
    expect(report.era.modelled).toBe(false)
    // said once, for the run: no profile is replayed, so no task carries a "not modelled" line per profile
    expect(report.runEra?.replayed).toBe(false)
    expect(report.runEra?.statement).toMatch(/: the February 2026 logic is not replayed; the diagnosis reads the records$/)
    expect(report.profiles).toEqual([])
    const db3 = report.tasks.find((t) => t.task.taskId === 'TASK-DB-003')!
    expect(db3.replays).toEqual({})
    expect(db3.verdict.underProfiles).toEqual([])
    expect(db3.findings.map((f) => f.code)).toEqual(expect.arrayContaining(['INFRA_TEST_FAILURE', 'ENDED_BY_TIMEOUT_NOT_STALL', 'GATES_SHORT_CIRCUIT']))
    expect(db3.findings.map((f) => f.code)).not.toContain('REPLAY_DIVERGES_FROM_RECORD')
  })
})

describe('planProfiles (the one profile-list normaliser)', () => {
  const request = (names: string[], w: string[] = [], wo: string[] = []) => ({kind: 'request' as const, names, with: w as never[], without: wo as never[], user: []})

  it('defaults to the era profile, legacy and fixed; --with adds the era profile adjusted', () => {
    expect(planProfiles(request([]), 'as-run:8a697b80').profiles.map((p) => p.name)).toEqual(['as-run:8a697b80', 'legacy', 'fixed'])
    expect(planProfiles(request([], ['stallNormalize']), null).profiles.map((p) => p.name)).toEqual(['legacy', 'fixed', 'legacy+stallNormalize'])
  })

  it('keeps each profile once, the era profile first, also when named again', () => {
    const plan = planProfiles(request(['fixed', 'as-run:8a697b80', 'fixed']), 'as-run:8a697b80')
    expect(plan.profiles.map((p) => p.name)).toEqual(['as-run:8a697b80', 'fixed'])
    expect(plan.asRun?.name).toBe('as-run:8a697b80')
  })
})
