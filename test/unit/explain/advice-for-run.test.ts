import {describe, expect, it} from 'vitest'
import {adviceForRun} from '../../../src/explain/advice-for-run.js'
import {changeById, type FlagId} from '../../../src/logic/changes.js'
import type {RunAttempt, RunSettings} from '../../../src/model/run-record.js'
import {ev, fact, runRecord, taskRun, turn} from './helpers.js'

const NO_SETTINGS: RunSettings = {maxTurns: null, sdkTimeoutSeconds: null, taskTimeoutSeconds: null, resetTurns: null, enablePerspectiveReset: null, rollbackOnPollution: null}

function attempt(settings: Partial<RunSettings>): RunAttempt {
  return {attempt: 1, file: 'run.log', startLine: 1, endLine: 900, command: null, kind: 'feature', featureId: 'FEAT-A1', taskIds: ['TASK-X-001'], waves: [], featureResult: null, truncated: false, settings: {...NO_SETTINGS, ...settings}}
}

describe('advice the run already followed is not given again (advice-for-run.ts)', () => {
  const task = taskRun({turns: [turn(1, {coach: {testVia: fact('subprocess', 210), decision: fact('feedback', 220)}})]})

  it('a run started with --fresh is told so, citing its start record, instead of "start with --fresh"', () => {
    const run = runRecord([task], {attempts: [attempt({fresh: fact(true, 3)})]})
    const out = adviceForRun(run, task, [1], 'Commit the tasks/ folder (a worktree only has tracked files), or start with --fresh so the worktree is made from the current branch.')
    expect(out).toBe('Commit the tasks/ folder (a worktree only has tracked files); the run already started with --fresh (run.log:3), and that did not prevent it.')
  })

  it('keeps the other steps of a sentence that ends in "and start again with --fresh"', () => {
    const run = runRecord([task], {attempts: [attempt({fresh: fact(true, 3)})]})
    const out = adviceForRun(run, task, [1], 'Run git worktree prune, delete the stale autobuild branch or index.lock, and start again with --fresh.')
    expect(out).toMatch(/^Run git worktree prune, delete the stale autobuild branch or index\.lock; the run already started with --fresh \(run\.log:3\)/)
    expect(out).not.toMatch(/start again with --fresh/)
  })

  it('still advises --fresh when the run did not start fresh (fresh=False or not recorded)', () => {
    const text = 'Commit the tasks/ folder, or start with --fresh so the worktree is made from the current branch.'
    expect(adviceForRun(runRecord([task], {attempts: [attempt({fresh: fact(false, 3)})]}), task, [1], text)).toBe(text)
    expect(adviceForRun(runRecord([task], {attempts: [attempt({})]}), task, [1], text)).toBe(text)
  })

  it('"raise --sdk-timeout" names the timeout the run already had', () => {
    const run = runRecord([task], {attempts: [attempt({sdkTimeoutSeconds: fact(1800, 42)})]})
    const out = adviceForRun(run, task, [1], 'Check whether the session was waiting for input; otherwise raise --sdk-timeout or split the task.')
    expect(out).toBe('Check whether the session was waiting for input; otherwise raise --sdk-timeout above the 1800 s this run already had (run.log:42) or split the task.')
    // "do not raise" is not turned into advice
    expect(adviceForRun(run, task, [1], 'Do not raise --sdk-timeout: the session never started.')).toBe('Do not raise --sdk-timeout: the session never started.')
  })

  it('a run whose Coach already read coach_test_execution=sdk is not told to set it; how the Coach ran its tests is cited', () => {
    const run = runRecord([task], {attempts: [attempt({coachTestExecution: {value: 'sdk', evidence: [ev(100), ev(205), ev(400)]}})]})
    const out = adviceForRun(run, task, [1], 'Mock the database in conftest.py or use SQLite for tests; or run the Coach\'s tests in the Player\'s environment: autobuild.coach.test_execution: sdk in .guardkit/config.yaml (GuardKit 5c2b5d82+).')
    expect(out).toMatch(/^Mock the database in conftest\.py or use SQLite for tests; the run already had autobuild\.coach\.test_execution: sdk/)
    // the record of this task's own validation (the last before its test run at 210), not another task's
    expect(out).toMatch(/coach_test_execution=sdk, run\.log:205\), yet the Coach ran its tests via subprocess \(run\.log:210\)/)
    expect(out).not.toMatch(/in \.guardkit\/config\.yaml/)
  })

  it('leaves the setting advised when the records disagree or say another value', () => {
    const text = 'Run the Coach\'s tests with the Player\'s environment (autobuild.coach.test_execution: sdk, GuardKit 5c2b5d82+), or make the tests independent of local services.'
    for (const value of ['mixed', 'subprocess']) {
      const run = runRecord([task], {attempts: [attempt({coachTestExecution: {value, evidence: [ev(205)]}})]})
      expect(adviceForRun(run, task, [1], text)).toBe(text)
    }
  })

  it('a run that had max_parallel=1 is not told to lower it or to run fewer tasks in parallel; its other steps stay', () => {
    const run = runRecord([task], {attempts: [attempt({maxParallel: fact(1, 3)})]})
    expect(adviceForRun(run, task, [1], 'Report it to GuardKit with the log lines around it; meanwhile keep the task budget generous and max-parallel low.'))
      .toBe('Report it to GuardKit with the log lines around it; meanwhile keep the task budget generous; the run already had max_parallel=1 (run.log:3), so there is no lower setting.')
    expect(adviceForRun(run, task, [1], 'Run the wave with --max-parallel 1, or give each task its own port, database or worktree.'))
      .toBe('Give each task its own port, database or worktree; the run already had max_parallel=1 (run.log:3), so there is no lower setting.')
    const lowered = adviceForRun(run, task, [1], 'Lower --max-parallel (fewer tasks calling the API at once), wait for the limit window, or raise the account limit; then resume the feature.')
    expect(lowered).not.toMatch(/[Ll]ower --max-parallel/)
    expect(lowered).toMatch(/^Wait for the limit window/)
    // a run with more than one task at once is still advised to lower it
    const text = 'Run the wave with --max-parallel 1, or give each task its own port, database or worktree.'
    expect(adviceForRun(runRecord([task], {attempts: [attempt({maxParallel: fact(3, 3)})]}), task, [1], text)).toBe(text)
  })

  it("does not advise an upgrade to a commit the run's GuardKit already had by its era; where the era cannot tell, the advice stays", () => {
    const run = runRecord([task], {attempts: [attempt({})]})
    const hadCommit = (sha: string) => (f: FlagId) => (changeById(f).commit === sha ? true : null)
    const text = "Check that FalkorDB is reachable; run the feature with Graphiti disabled; GuardKit 98ee6962+ keeps each thread's event loop for cleanup."
    const out = adviceForRun(run, task, [1], text, hadCommit('98ee6962'))
    expect(out).toBe("Check that FalkorDB is reachable; run the feature with Graphiti disabled; this run's GuardKit already had 98ee6962 (by its era), so upgrading to it is not the fix.")
    expect(adviceForRun(run, task, [1], text, () => null)).toBe(text)
    // a commit qualifying a setting in parentheses: the setting stays advised, the upgrade goes
    const sdk = adviceForRun(run, task, [1], "Install the module, or run the Coach's tests in the Player's environment (autobuild.coach.test_execution: sdk in .guardkit/config.yaml, GuardKit 5c2b5d82+).", hadCommit('5c2b5d82'))
    expect(sdk).toMatch(/\(autobuild\.coach\.test_execution: sdk in \.guardkit\/config\.yaml; by its era this run's GuardKit already had 5c2b5d82\)/)
    expect(sdk).not.toMatch(/5c2b5d82\+/)
  })
})
