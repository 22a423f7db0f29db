import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {describe, expect, it} from 'vitest'
import {COMMITS, commitIndex} from '../../../src/logic/change-registry/commits.js'
import {analyzeRun} from '../../../src/explain/analyze-run.js'
import {formatReplayOutcome, inferEra} from '../../../src/replay/index.js'
import {load} from '../../unit/replay/helpers.js'
import {CORPUS} from '../helpers.js'

/**
 * Every corpus log and artifact set is placed in an era consistent with its date (docs/era-markers.md
 * "Placement of the public corpus"), and runs outside the modelled window (pre-acr 28534d78 … fixed
 * 5c1aea32, with the stall detector first logged 2026-02-11) are not modelled. Dates: SOURCE.json commit dates, docs/record-formats.md, and the logs'
 * own "Last updated" resume boxes and progress timestamps.
 */
type Place =
  | {readonly side: 'older' | 'newer'; readonly why: string}
  | {readonly side: 'window'; readonly from: string | null; readonly profiles: readonly string[]; readonly why: string}

const LOGS: Readonly<Record<string, Place>> = {
  'FEAT-GI.log': {side: 'older', why: 'FEAT-GI ran 2026-01-28 (artifacts/feat-gi SOURCE.json); January approvals ignore criteria (docs/record-formats.md §6.3)'},
  'mvp_build_1.log': {side: 'older', why: 'GR-PRE tasks ran 2026-01-30 (artifacts/gr-mvp-build-1); 25 turns without a stall (docs/record-formats.md §6.6)'},
  'finally_success.log': {side: 'older', why: 'January approvals ignore criteria (docs/record-formats.md §6.3)'},
  'unrecoverable_stall_output.log': {side: 'older', why: 'resumes a state last updated 2026-02-07 (log line 25)'},
  'db_max_turns_1.log': {side: 'older', why: 'its second run resumes the first, last updated 2026-02-11 (log line 1434); 25 turns, no stall detection'},
  'api_docs_2.log': {side: 'window', from: null, profiles: ['pre-acr'], why: 'stall detection with the pre-723e5f4e wording, criteria never verified'},
  'run_1.log': {side: 'window', from: null, profiles: ['pre-acr'], why: 'FEAT-AC1A run 1, 2026-02-14 (ac1a-run1-attempt1-inputs); seed 003 ran on <= 28534d78 (docs/guardkit-logic.md §0.3)'},
  'db_stalled.log': {side: 'window', from: '723e5f4e', profiles: ['as-run:723e5f4e', 'as-run:de1ce9b8', 'as-run:c4d01fcf'], why: 'extended stall threshold, shell test run, legacy zero-test text'},
  'db_failed_3.log': {side: 'window', from: '723e5f4e', profiles: ['as-run:351c53fa', 'as-run:8a697b80'], why: 'FEAT-BA28 of seed 002, 2026-02-16/17 (docs/guardkit-logic.md §0.3)'},
  'db_failed_2.log': {side: 'window', from: '351c53fa', profiles: COMMITS.slice(commitIndex('351c53fa')).map((c) => profileOf(c.sha)), why: 'the D35 zero-test text; no upper bound'},
  'db_after_infra_aware_changes.log': {side: 'window', from: 'ca7c161a', profiles: ['as-run:b2fee34d'], why: 'SDK test run and confidence tiers, legacy skipped-tests wording'},
  'db_another_fail.log': {side: 'window', from: 'ca7c161a', profiles: ['as-run:b2fee34d'], why: 'conditional-approval check, legacy skipped-tests wording'},
  'db_failed_after_sdk_refactor.log': {side: 'window', from: '5c2b5d82', profiles: ['as-run:b2fee34d'], why: 'SDK test run, legacy skipped-tests wording'},
  'db_fails_after_yet_more_fixes.log': {side: 'window', from: 'ca7c161a', profiles: ['as-run:b2fee34d'], why: 'SDK test run with tiers'},
  'db_finally_succeds.log': {side: 'window', from: '5c2b5d82', profiles: ['as-run:b2fee34d'], why: 'subprocess test run, seam soft gate'},
  'first_task_now_fails.log': {side: 'window', from: '723e5f4e', profiles: ['as-run:b2fee34d'], why: 'dump and the new stall wording'},
  'requirekit_feature_success.log': {side: 'window', from: '5c2b5d82', profiles: ['as-run:b2fee34d'], why: 'resumes a state of 2026-02-19 (log line 26)'},
  'logging_feature_2.log': {side: 'window', from: '5c1aea32', profiles: ['fixed'], why: '"Synthetic report detected" for a direct-mode report: from 2026-02-25 (docs/record-formats.md §6.5)'},
  'TASK-FIX-A7D3-langraph-run-3.log': {side: 'newer', why: 'progress timestamps of 2026-06-03; LLM Coach'},
  'autobuild-FEAT-AOF-run-14.log': {side: 'newer', why: 'June 2026 (artifacts/aof-run-14); timeout_budget_exhausted'},
  'autobuild-FEAT-AOF-run-24.log': {side: 'newer', why: 'June 2026 (artifacts/aof-run-24-synthetic)'},
  'autobuild-FEAT-AOF-run-25.log': {side: 'newer', why: 'June 2026 (artifacts/aof-run-25)'},
  'autobuild-FOREGE-FEAT-005-fails-1.log': {side: 'newer', why: 'player_invocation_stall outcome (docs/record-formats.md §5.6)'},
  'vllm_run_2.log': {side: 'newer', why: 'progress timestamps of 2026-03; timeout_budget_exhausted'},
}

function profileOf(sha: string): string {
  return sha === '28534d78' ? 'pre-acr' : sha === 'f86b1bf9' ? 'legacy' : sha === '5c1aea32' ? 'fixed' : `as-run:${sha}`
}

const WINDOW_START = '2026-02-11'
const WINDOW_END = '2026-03-01'

describe('era placement of the corpus logs', () => {
  it('covers every log of the corpus', () => {
    expect(readdirSync(`${CORPUS}logs`).sort()).toEqual(Object.keys(LOGS).sort())
  })

  it.each(Object.entries(LOGS))('%s', async (log, place) => {
    const run = await load(`${CORPUS}logs/${log}`)
    const era = inferEra(run)
    expect(era.reason.length).toBeGreaterThan(20)
    expect(era.evidence.length).toBeGreaterThan(0)
    if (place.side === 'window') {
      expect(era.modelled, place.why).toBe(true)
      expect(place.profiles, `${place.why}: ${era.reason}`).toContain(era.profile)
      expect(era.window.from).toBe(place.from)
      expect(era.confidence).not.toBe('low')
    } else {
      expect(era.modelled, place.why).toBe(false)
      expect(era.profile).toBeNull()
      expect(era.reason).toContain(place.side === 'older' ? 'older than the modelled window' : 'newer than the modelled window')
    }
  })
})

describe('era placement of the corpus artifact sets (SOURCE.json dates)', () => {
  const sets = readdirSync(`${CORPUS}artifacts`).sort()

  it.each(sets)('%s', async (set) => {
    const source = JSON.parse(readFileSync(`${CORPUS}artifacts/${set}/SOURCE.json`, 'utf8')) as {commit_date: string}
    const date = source.commit_date.slice(0, 10)
    const run = await load(`${CORPUS}artifacts/${set}`)
    const era = inferEra(run)
    if (run.tasks.length === 0) {
      // Task files only (ac1a-run1-attempt*-inputs): no run to place.
      expect(existsSync(`${CORPUS}artifacts/${set}/.guardkit/autobuild`)).toBe(false)
      expect(era.profile).toBeNull()
      return
    }
    if (date < WINDOW_START) {
      expect(era.modelled).toBe(false)
      expect(era.reason).toContain('older')
    } else if (date > WINDOW_END) {
      expect(era.modelled).toBe(false)
      expect(era.reason).toContain('newer')
    } else {
      expect(era.modelled).toBe(true)
      // The run may not use a commit made after it: ac1a-run4's checkpoints are of 2026-02-15.
      const used = COMMITS.find((c) => profileOf(c.sha) === era.profile)!
      expect(used.date <= date).toBe(true)
    }
  })
})

describe('no divergence flood', () => {
  const logs = Object.keys(LOGS)

  it.each(logs)('%s: the inferred profile reproduces the record, or replay says it is not modelled', async (log) => {
    const run = await load(`${CORPUS}logs/${log}`)
    const result = analyzeRun(run)
    for (const t of result.tasks) {
      for (const [name, replayed] of Object.entries(t.replays)) {
        if (!result.era.modelled) {
          expect(replayed.outcome.kind).toBe('not-modelled')
          expect(replayed.turns).toEqual([])
          continue
        }
        for (const turn of replayed.turns) expect(['exact', 'approximate', 'insufficient']).toContain(turn.fidelity)
        if (name !== result.era.profile) continue
        expect(replayed.turns.filter((x) => x.diverges).map((x) => x.turn), `${t.task.taskId} A${t.task.attempt}`).toEqual([])
        const recorded = t.task.outcome?.value
        if (recorded && replayed.outcome.kind === 'replayed') expect(replayed.outcome.outcome).toBe(recorded)
        if (recorded && replayed.outcome.kind === 'recorded-boundary') expect(['cancelled', 'timeout', 'error', recorded]).toContain(replayed.outcome.outcome)
        if (recorded) expect(formatReplayOutcome(replayed.outcome)).not.toMatch(/^undetermined/)
      }
    }
  })
})
