import {describe, expect, it} from 'vitest'
import {detectTestCommand} from '../../../../src/logic/coach/detect-test-command.js'
import {detectTestsFromResults, normalizeToRelative} from '../../../../src/logic/coach/test-paths.js'
import {NULL_SINK} from '../../../../src/logic/log-sink.js'
import {createVirtualWorktree} from '../../../../src/logic/worktree.js'
import {FIXED, LEGACY, logLines, flagsOfProfile, ROOT, sink, worktree} from './helpers.js'

// Seed 002's absolute/relative duplicate (docs/findings.md ABSOLUTE_RELATIVE_DUPLICATES): the worktree and the
// paths of TASK-DB-003's turns 1 and 7.
const SEED_ROOT = '/Users/richardwoollcott/Projects/appmilla_github/guardkit-examples/fastapi/.guardkit/worktrees/FEAT-BA28'
const seedView = () =>
  createVirtualWorktree({root: SEED_ROOT, files: {'tests/users/test_users.py': null, 'tests/core/test_config.py': null, 'tests/test_foundation.py': null}, missing: 'absent'})

describe('_detect_tests_from_results: the seed 002 duplicate path (F2, R3)', () => {
  const turn1 = {files_created: [`${SEED_ROOT}/tests/users/test_users.py`, 'tests/users/test_users.py']}

  it('legacy passes the absolute and the relative form of one file to pytest', () => {
    expect(detectTestsFromResults(turn1, seedView(), LEGACY, NULL_SINK)).toBe(
      `pytest ${SEED_ROOT}/tests/users/test_users.py tests/users/test_users.py -v --tb=short`,
    )
  })

  it('fixed runs it once', () => {
    expect(detectTestsFromResults(turn1, seedView(), FIXED, NULL_SINK)).toBe('pytest tests/users/test_users.py -v --tb=short')
  })

  it('turn 7: two files become four paths in legacy, two in fixed', () => {
    const turn7 = {
      files_created: [`${SEED_ROOT}/tests/core/test_config.py`, `${SEED_ROOT}/tests/test_foundation.py`],
      files_modified: ['tests/core/test_config.py', 'tests/test_foundation.py'],
    }
    expect(detectTestsFromResults(turn7, seedView(), LEGACY, NULL_SINK)!.split(' ').filter((w) => w.endsWith('.py'))).toHaveLength(4)
    expect(detectTestsFromResults(turn7, seedView(), FIXED, NULL_SINK)).toBe('pytest tests/core/test_config.py tests/test_foundation.py -v --tb=short')
  })

  it('logs the number of distinct files (corpus db_stalled.log line 489)', () => {
    const s = sink()
    detectTestsFromResults(turn1, seedView(), FIXED, s)
    expect(logLines(s.records)).toEqual(['INFO:guardkit.orchestrator.quality_gates.coach_validator:Task-specific tests detected via task_work_results: 1 file(s)'])
  })
})

describe('_normalize_to_relative (docs/guardkit-logic.md §6.5, §3.11)', () => {
  it('keeps ./tests/x.py and tests/x.py as two strings in both versions', () => {
    const twr = {files_created: ['./tests/test_a.py', 'tests/test_a.py']}
    const view = worktree({'tests/test_a.py': null})
    for (const flags of [LEGACY, FIXED]) expect(detectTestsFromResults(twr, view, flags, NULL_SINK)).toBe('pytest ./tests/test_a.py tests/test_a.py -v --tb=short')
  })

  it('is lexical: `..` is kept and `//` inside the path collapses (checked with CPython relative_to)', () => {
    expect(normalizeToRelative('/worktree/root/../root/tests/test_a.py', ROOT)).toBe('../root/tests/test_a.py')
    expect(normalizeToRelative('/worktree//root/tests/test_a.py', ROOT)).toBe('tests/test_a.py')
    expect(normalizeToRelative('//worktree/root/tests/test_a.py', ROOT)).toBe('//worktree/root/tests/test_a.py')
    expect(normalizeToRelative('/worktree/rootx/test_a.py', ROOT)).toBe('/worktree/rootx/test_a.py')
  })

  it('finds a `..` path on disk as the operating system resolves it', () => {
    const twr = {files_created: ['/worktree/root/../root/tests/test_a.py']}
    expect(detectTestsFromResults(twr, worktree({'tests/test_a.py': null}), FIXED, NULL_SINK)).toBe('pytest ../root/tests/test_a.py -v --tb=short')
  })

  it('never recognises Windows paths on POSIX (the backslash is part of the name)', () => {
    const twr = {files_created: ['tests\\test_a.py', 'C:\\wt\\tests\\test_a.py']}
    expect(detectTestsFromResults(twr, worktree({'tests/test_a.py': null}), FIXED, NULL_SINK)).toBeNull()
  })
})

describe('_detect_test_command (docs/guardkit-logic.md §6.5)', () => {
  const base = {taskId: 'TASK-X-001', validatorTaskId: 'TASK-X-001', turn: 3, sink: NULL_SINK}

  it('orders glob hits as Path objects: tests/a/… before tests/a-b/…, hidden directories included (CPython pathlib)', () => {
    const view = worktree({
      'tests/a/test_task_x_1.py': null,
      'tests/a-b/test_task_x_1.py': null,
      'tests/test_task_x_2.py': null,
      'tests/.hidden/test_task_x_3.py': null,
      'tests/deep/er/test_task_x.py': null,
      'tests/TEST_task_x.py': null,
      'tests/test_task_x.txt': null,
      'test_task_x_root.py': null,
    })
    expect(detectTestCommand({...base, taskId: 'TASK-X', validatorTaskId: 'TASK-X', twr: {}, view, flags: FIXED})).toBe(
      'pytest tests/.hidden/test_task_x_3.py tests/a/test_task_x_1.py tests/a-b/test_task_x_1.py tests/deep/er/test_task_x.py tests/test_task_x_2.py -v --tb=short',
    )
  })

  it('logs the glob it tried before the fixed fallbacks (corpus db_after_infra_aware_changes.log lines 416-417)', () => {
    const s = sink()
    const files = {
      '.guardkit/autobuild/TASK-DB-003/checkpoints.json': JSON.stringify({checkpoints: [{turn: 1, commit_hash: 'abc123'}]}),
      'tests/users/test_users.py': null,
    }
    const cmd = detectTestCommand({
      taskId: 'TASK-DB-003',
      validatorTaskId: 'TASK-DB-003',
      twr: {files_created: ['src/users.py']},
      turn: 2,
      view: worktree(files),
      git: {cumulativeDiff: ['src/users.py', 'tests/users/test_users.py', 'tests/gone/test_deleted.py', '   ']},
      flags: FIXED,
      sink: s,
    })
    expect(cmd).toBe('pytest tests/users/test_users.py -v --tb=short')
    expect(logLines(s.records)).toEqual([
      'INFO:guardkit.orchestrator.quality_gates.coach_validator:No task-specific tests found for TASK-DB-003, skipping independent verification. Glob pattern tried: tests/**/test_task_db_003*.py',
      'INFO:guardkit.orchestrator.quality_gates.coach_validator:Found test files via cumulative diff for TASK-DB-003: 1 file(s)',
    ])
  })

  it('notes the git question when checkpoints exist but the diff was not recorded, and goes on', () => {
    const unknowns: string[] = []
    const files = {'.guardkit/autobuild/TASK-X-001/checkpoints.json': JSON.stringify({checkpoints: [{commit_hash: 'abc123'}]}), 'tests/test_seam.py': null}
    const twr = {files_created: [], completion_promises: [{criterion_id: 'AC-001', status: 'complete', test_file: 'tests/test_seam.py'}]}
    expect(detectTestCommand({...base, twr, view: worktree(files), flags: FIXED, unknowns})).toBe('pytest tests/test_seam.py -v --tb=short')
    expect(unknowns).toEqual(['git diff --name-only abc123~1 HEAD'])
  })

  it('adds the fallbacks commit by commit: cumulative diff (351c53fa), promises (8a697b80), prior reports (7f15c9ff)', () => {
    const files = {'tests/test_users.py': null, '.guardkit/autobuild/TASK-X-001/player_turn_1.json': JSON.stringify({files_created: ['tests/test_users.py']})}
    const input = {...base, twr: {files_created: ['src/users.py']}, view: worktree(files)}
    expect(detectTestCommand({...input, flags: flagsOfProfile('as-run:8a697b80')})).toBeNull()
    expect(detectTestCommand({...input, flags: flagsOfProfile('as-run:7f15c9ff')})).toBe('pytest tests/test_users.py -v --tb=short')
  })

  it('scans prior reports from the most recent turn down, skipping unreadable ones', () => {
    const files = {
      'tests/test_old.py': null,
      'tests/test_new.py': null,
      '.guardkit/autobuild/TASK-X-001/player_turn_1.json': JSON.stringify({files_created: ['tests/test_old.py']}),
      '.guardkit/autobuild/TASK-X-001/player_turn_2.json': JSON.stringify({files_modified: ['tests/test_new.py']}),
      '.guardkit/autobuild/TASK-X-001/player_turn_3.json': '{not json',
    }
    expect(detectTestCommand({...base, turn: 4, twr: {}, view: worktree(files), flags: FIXED})).toBe('pytest tests/test_new.py -v --tb=short')
    expect(detectTestCommand({...base, turn: 2, twr: {}, view: worktree(files), flags: FIXED})).toBe('pytest tests/test_old.py -v --tb=short')
  })

  it('without a task id, picks a project-level command from marker files', () => {
    const none = {...base, taskId: null, twr: null, flags: FIXED}
    expect(detectTestCommand({...none, view: worktree({'requirements.txt': null, 'package.json': null})})).toBe('pytest tests/ -v --tb=short')
    expect(detectTestCommand({...none, view: worktree({'package.json': null})})).toBe('npm test')
    expect(detectTestCommand({...none, view: worktree({'src/App.csproj': null})})).toBe('pytest tests/ -v --tb=short')
  })
})
