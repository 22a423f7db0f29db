import {describe, expect, it} from 'vitest'
import {analyzeRun} from '../../../src/explain/analyze-run.js'
import {builtinProfile} from '../../../src/logic/profiles.js'
import type {RunRecord} from '../../../src/model/run-record.js'
import {
  collectTaskInputs,
  createProfileContext,
  finishReplay,
  formatReplayOutcome,
  initialReplayState,
  recordedSignatures,
  replayTask,
  stepReplay,
} from '../../../src/replay/index.js'
import {loadRun} from '../../../src/services/load-run.js'
import {CORPUS, FIXTURES, findTask, load, profile, replay} from './helpers.js'

describe('determinism', () => {
  it.each(['db-003-timeout', 'ac1a-run2-sft001', 'rk01-003-direct-mode', 'ae7e-promise-loss'])('%s: two ingests, byte-identical replay JSON', async (name) => {
    const a = analyzeRun(await loadRun(`${FIXTURES}${name}`))
    const b = analyzeRun(await loadRun(`${FIXTURES}${name}`))
    const json = (r: typeof a) => JSON.stringify({era: r.era, tasks: r.tasks.map((t) => ({replays: t.replays, findings: t.findings, verdict: t.verdict}))})
    expect(json(a)).toBe(json(b))
  })
})

describe('the reducer (live replays turn by turn)', () => {
  it('folding stepReplay one recorded turn at a time gives the batch replay', async () => {
    const run = await load(`${FIXTURES}db-003-timeout`)
    const task = findTask(run, 'TASK-DB-003')
    const inputs = collectTaskInputs(run, task)
    const asRun = builtinProfile('as-run:8a697b80')!
    const ctx = createProfileContext(inputs, 'fixed', profile('fixed').flags, asRun)
    let state = initialReplayState(ctx)
    const seen: number[] = []
    for (const t of inputs.turns) {
      state = stepReplay(state, ctx, t, recordedSignatures(inputs))
      seen.push(state.turns.length)
    }
    expect(seen.slice(0, 6)).toEqual([1, 2, 3, 4, 5, 5]) // the loop ended at turn 5: later turns are ignored
    expect(JSON.stringify(finishReplay(state, ctx))).toBe(JSON.stringify(replayTask(inputs, profile('fixed'), asRun)))
  })
})

describe('recorded boundaries and the end of the record', () => {
  it('a cancellation between Player and Coach is an input: the turn has no Coach, the outcome is recorded', async () => {
    const run = await load(`${FIXTURES}db-003-timeout`)
    const r = replay(run, findTask(run, 'TASK-DB-003'), 'as-run:8a697b80')
    expect(r.outcome).toMatchObject({kind: 'recorded-boundary', outcome: 'cancelled', turn: 18})
    const last = r.turns.at(-1)!
    expect(last.turn).toBe(18)
    expect(last.decision).toBe('error')
    expect(last.detail.coach.source).toBe('none')
  })

  it('a profile that goes on past the last recorded turn is undetermined, and says what is missing', async () => {
    const run = await load(`${FIXTURES}db-003-timeout`)
    const r = replay(run, findTask(run, 'TASK-DB-001'), 'legacy')
    expect(formatReplayOutcome(r.outcome)).toBe('undetermined after turn 1')
    expect(r.missingInputs.some((m) => m.includes('after turn 1'))).toBe(true)
    // Without D9 the agent's promises are overwritten: text match against nothing, 0/6 (docs/guardkit-logic.md §10 row 000);
    // the log holds no criteria texts for this task, so the feedback text is unknown and said to be.
    expect(r.turns[0]).toMatchObject({decision: 'feedback', criteriaMet: 0, criteriaTotal: 6, fidelity: 'approximate', feedbackBasis: 'unknown'})
    expect(r.turns[0]!.missingInputs).toContain('the acceptance criteria texts')
  })

  it('with the worktree, legacy re-runs the invoker and the Coach: the overwritten promises leave 0/5 (ok-single-turn-promises)', async () => {
    const run = await load(`${FIXTURES}ok-single-turn-promises`)
    const r = replay(run, findTask(run, 'TASK-LOG-002'), 'legacy')
    expect(formatReplayOutcome(r.outcome)).toBe('undetermined after turn 1')
    expect(r.turns[0]).toMatchObject({decision: 'feedback', criteriaMet: 0, criteriaTotal: 5})
    expect(r.turns[0]!.detail.coach.source).toBe('validated')
    expect(r.turns[0]!.detail.player.source).toBe('pipeline-task-work')
    expect(r.turns[0]!.feedback!.startsWith('- Not all acceptance criteria met:\n  • ')).toBe(true)
  })

  it('turns after the first feedback that differs from the record are marked inferred', async () => {
    const run = await load(`${FIXTURES}ac1a-run1-pre-acr`)
    const r = replay(run, findTask(run, 'TASK-SFT-001'), 'legacy')
    expect(r.turns[0]!.confidence).toBe('recorded')
    expect(r.turns[0]!.detail.differences.map((d) => d.field)).toContain('feedback')
    expect(r.turns.slice(1).every((t) => t.confidence === 'inferred')).toBe(true)
    // The inferred profile reproduces the record: nothing is inferred there.
    expect(replay(run, findTask(run, 'TASK-SFT-001'), 'pre-acr').turns.every((t) => t.confidence === 'recorded')).toBe(true)
  })

  it('a run outside the modelled window is not replayed under any profile', async () => {
    const run = await load(`${CORPUS}logs/FEAT-GI.log`)
    const result = analyzeRun(run, {profiles: {kind: 'profiles', profiles: [profile('fixed')]}})
    expect(result.era.modelled).toBe(false)
    for (const t of result.tasks) {
      for (const r of Object.values(t.replays)) {
        expect(r.outcome.kind).toBe('not-modelled')
        expect(formatReplayOutcome(r.outcome)).toBe('not modelled')
        expect(r.missingInputs[0]).toContain('older than the modelled window')
      }
    }
  })
})

describe('what the replay takes from the records', () => {
  it('uses the task file\'s autobuild_state feedback only when it agrees with the log', async () => {
    const run = await load(`${FIXTURES}db-003-timeout`)
    const task = findTask(run, 'TASK-DB-003')
    expect(collectTaskInputs(run, task).turns[0]!.feedback?.basis).toBe('full')
    const state = task.taskFile!.frontmatter.autobuild_state as {turns: {turn: number; feedback: string}[]}
    const other = {...state, turns: state.turns.map((t) => (t.turn === 3 ? {...t, feedback: '- Something else entirely'} : t))}
    const stale: RunRecord = {...run, tasks: run.tasks.map((t) => (t === task ? {...t, taskFile: {...t.taskFile!, frontmatter: {...t.taskFile!.frontmatter, autobuild_state: other}}} : t))}
    const inputs = collectTaskInputs(stale, findTask(stale, 'TASK-DB-003'))
    expect(inputs.turns[0]!.feedback?.basis).toBe('category')
    expect(inputs.missingInputs.some((m) => m.includes('the log keeps 80 characters'))).toBe(true)
  })

  it('rebuilds a 0/N feedback from the diagnostic dump exactly (first_task_now_fails.log turn 1)', async () => {
    const run = await load(`${CORPUS}logs/first_task_now_fails.log`)
    const inputs = collectTaskInputs(run, findTask(run, 'TASK-DB-001'))
    const t1 = inputs.turns[0]!
    expect(t1.feedback?.basis).toBe('rebuilt')
    // docs/guardkit-logic.md §8.3: "- desc:" then one "  • criterion[:100]" line per missing criterion (the dump's AC texts).
    expect(t1.feedback?.text.split('\n')).toEqual([
      '- Not all acceptance criteria met:',
      '  • `docker compose up -d db` starts PostgreSQL successfully',
      '  • SQLAlchemy engine connects to PostgreSQL via asyncpg',
      '  • `get_db()` dependency yields async session with auto-commit/rollback',
      '  • Connection pool configured with specified parameters',
      '  • Settings load DATABASE_URL from environment/.env file',
      '  (1 more)',
    ])
  })

  it('maps a recording\'s earlier task_work_results.json versions to their turns', async () => {
    const run = await load(`${FIXTURES}ae7e-promise-loss`)
    const inputs = collectTaskInputs(run, findTask(run, 'TASK-USR-003'))
    expect(inputs.turns.map((t) => t.taskWorkResults?.basis)).toEqual(['recorded', 'recorded', 'recorded', 'recorded'])
    expect(inputs.turns[0]!.agentReport?.value).not.toBeNull()
  })
})
