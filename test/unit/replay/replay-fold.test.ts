import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
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
import {FIXTURES, findTask, load, profile, replay} from './helpers.js'

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
    // One fold gives the replay under the first value of every input the records lack (fixed's own wording
    // repeating as the recorded one does); the batch replay also runs the other values (replay/branches.ts).
    expect(state.unknowns.map((u) => u.id)).toEqual(['feedbackRepeats'])
    const folded = finishReplay(state, ctx)
    const batch = replayTask(inputs, profile('fixed'), asRun)
    const underFirstValues = batch.outcome.kind === 'branches' ? batch.outcome.branches.at(-1)!.replay : null
    expect(JSON.stringify(underFirstValues)).toBe(JSON.stringify({outcome: folded.outcome, turns: folded.turns}))
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

  // The log-only form of a 0/N turn: GuardKit's diagnostic dump holds the criteria texts, from which the
  // feedback is rebuilt as GuardKit words it: "- desc:" then one "  • criterion[:100]" line per missing
  // criterion, five at most, then "(N more)" (docs/guardkit-logic.md §8.3).
  it('rebuilds a 0/N feedback from the diagnostic dump exactly (an authored log-only run)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gr-dump-'))
    const coach = 'WARNING:guardkit.orchestrator.quality_gates.coach_validator:'
    const criteria = [
      '`inventory` table created by an Alembic migration',
      'GET /items returns the stored items as JSON',
      'POST /items validates the payload with pydantic',
      'Stock counts never go below zero',
      'Unit tests cover the repository layer',
      'README documents the new endpoints',
    ]
    try {
      writeFileSync(join(dir, 'run.log'), [
        'INFO:guardkit.orchestrator.autobuild:Starting orchestration for TASK-INV-001 (resume=False)',
        'INFO:guardkit.orchestrator.autobuild:Executing turn 1/5',
        'INFO:guardkit.orchestrator.agent_invoker:task-work completed successfully for TASK-INV-001',
        'INFO:guardkit.orchestrator.quality_gates.coach_validator:Starting Coach validation for TASK-INV-001 turn 1',
        `${coach}Criteria verification 0/6 - diagnostic dump:`,
        ...criteria.map((c) => `${coach}  AC text: ${c}`),
        `${coach}  requirements_met: []`,
        `${coach}  completion_promises: (not used)`,
        `${coach}  matching_strategy: text`,
        `${coach}  _synthetic: False`,
        '  ⚠ Feedback: - Not all acceptance criteria met:',
        '  • `inventory` table created by an Alembic m...',
        'INFO:guardkit.orchestrator.autobuild:Criteria Progress (Turn 1): 0/6 verified (0%)',
        'INFO:guardkit.orchestrator.autobuild:Coach provided feedback on turn 1',
        '',
      ].join('\n'))
      const run = await loadRun(dir)
      const t1 = collectTaskInputs(run, findTask(run, 'TASK-INV-001')).turns[0]!
      expect(t1.feedback?.basis).toBe('rebuilt')
      expect(t1.feedback?.text.split('\n')).toEqual(['- Not all acceptance criteria met:', ...criteria.slice(0, 5).map((c) => `  • ${c}`), '  (1 more)'])
      expect(t1.feedback?.evidence[0]).toEqual({file: 'run.log', line: 5})
    } finally {
      rmSync(dir, {recursive: true, force: true})
    }
  })

  it('maps a recording\'s earlier task_work_results.json versions to their turns', async () => {
    const run = await load(`${FIXTURES}ae7e-promise-loss`)
    const inputs = collectTaskInputs(run, findTask(run, 'TASK-USR-003'))
    expect(inputs.turns.map((t) => t.taskWorkResults?.basis)).toEqual(['recorded', 'recorded', 'recorded', 'recorded'])
    expect(inputs.turns[0]!.agentReport?.value).not.toBeNull()
  })
})
