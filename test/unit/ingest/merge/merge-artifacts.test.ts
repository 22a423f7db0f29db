import {describe, expect, it} from 'vitest'
import {classifyArtifactName} from '../../../../src/ingest/artifacts/artifact-names.js'
import {parseArtifact} from '../../../../src/ingest/artifacts/parse-artifact.js'
import type {WorktreeRecords} from '../../../../src/ingest/artifacts/read-worktree.js'
import {parseFeatureYaml} from '../../../../src/ingest/feature/parse-feature-yaml.js'
import {mergeArtifacts, type LogParts} from '../../../../src/ingest/merge-artifacts.js'
import {parseTaskFile} from '../../../../src/ingest/tasks/parse-task-file.js'
import type {RunAttempt, TaskRun} from '../../../../src/model/run-record.js'
import {loggedTask, type LoggedTurn} from './builders.js'

const DIR = '.guardkit/autobuild/TASK-A-001'
const H1 = 'c9798479e1f3a0b2c4d6e8f0a1b3c5d7e9f1a2b3'
const H2 = '7d0832561111222233334444555566667777aaaa'
const FEEDBACK = '- Not all acceptance criteria met:\n  • `pytest.ini` or `pyproject.toml` registers `@pytest.mark.seam` marker\n  • fixtures exist'

function worktree(files: Record<string, unknown>, extra: Partial<WorktreeRecords> = {}): WorktreeRecords {
  const byFolder = new Map<string, Record<string, unknown>>()
  for (const [path, json] of Object.entries(files)) {
    const [taskId, name] = path.split('/') as [string, string]
    byFolder.set(taskId, {...byFolder.get(taskId), [name]: json})
  }
  return {
    rel: '.', taskFiles: [], features: [], config: null,
    folders: [...byFolder.entries()].map(([taskId, named]) => ({
      taskId, dir: `.guardkit/autobuild/${taskId}`, worktree: '.',
      files: Object.entries(named).map(([name, json]) => {
        const {kind, turn} = classifyArtifactName(name)
        return {name, kind, turn, versions: [parseArtifact(`.guardkit/autobuild/${taskId}/${name}`, JSON.stringify(json), kind).version!]}
      }),
    })),
    ...extra,
  }
}

function logs(tasks: TaskRun[]): LogParts {
  const attempts: RunAttempt[] = [...new Set(tasks.map((t) => t.attempt))].map((attempt) => ({
    attempt, file: 'run.log', startLine: 1, endLine: 1000, command: null, kind: 'feature', featureId: 'FEAT-A', taskIds: tasks.filter((t) => t.attempt === attempt).map((t) => t.taskId),
    waves: [], featureResult: null, truncated: false,
    settings: {maxTurns: null, sdkTimeoutSeconds: null, taskTimeoutSeconds: null, resetTurns: null, enablePerspectiveReset: null, rollbackOnPollution: null},
  }))
  return {logs: ['run.log'], attempts, tasks, eraMarkers: [], loggerStats: [], ingestIssues: []}
}

const coach = (turn: number, decision: string, extra: Record<string, unknown> = {}) => ({task_id: 'TASK-A-001', turn, decision, issues: [], rationale: 'r', ...extra})
const checkpoints = {task_id: 'TASK-A-001', checkpoints: [{turn: 1, commit_hash: H1, tests_passed: false, test_count: 0}, {turn: 2, commit_hash: H2, tests_passed: true, test_count: 4}]}
const logged: LoggedTurn[] = [
  {turn: 1, hash: 'c9798479', decision: 'feedback', met: 0, total: 6, feedback: FEEDBACK.slice(0, 80) + '...', player: 'error'},
  {turn: 2, hash: '7d083256', decision: 'approve', met: 0, total: 6, player: 'success'},
]
const files = {
  'TASK-A-001/coach_turn_1.json': coach(1, 'feedback'),
  'TASK-A-001/coach_turn_2.json': coach(2, 'approve'),
  'TASK-A-001/coach_feedback_for_turn_2.json': {turn: 2, feedback_from_turn: 1, raw_feedback: FEEDBACK},
  'TASK-A-001/player_turn_2.json': {task_id: 'TASK-A-001', turn: 2, files_created: ['a'], files_modified: []},
  'TASK-A-001/work_state_turn_1.json': {turn_number: 1, files_created: ['x'], files_modified: [], test_count: 0, tests_passed: false, detection_method: 'git_only', player_report_available: false},
  'TASK-A-001/checkpoints.json': checkpoints,
  'TASK-A-001/turn_context.json': {task_id: 'TASK-A-001', turn: 2, max_turns: 15},
}

describe('mergeArtifacts: a run recorded by both the log and the artifacts', () => {
  const record = mergeArtifacts({runPath: 'RUN', fromLogs: logs([loggedTask('TASK-A-001', 1, logged)]), worktrees: [worktree(files)], fixture: null, issues: []})
  const task = record.tasks[0]!

  it('pairs them, keeps the logged attempt, and reports no issue when they agree', () => {
    expect(record.ingestIssues).toEqual([])
    expect(record.tasks).toHaveLength(1)
    expect(task).toMatchObject({taskId: 'TASK-A-001', attempt: 1, artifactDir: DIR, sources: {log: true, artifacts: true}})
    expect(task.turns.map((t) => t.turn)).toEqual([1, 2])
    expect(record.worktrees).toEqual(['.'])
  })

  it('the full feedback text of the artifacts wins over the log\'s 80 code points, with both as evidence', () => {
    expect(task.turns[0]!.coach.feedback).toEqual({text: FEEDBACK, completeness: 'full', truncatedAt: null,
      evidence: [{file: `${DIR}/coach_feedback_for_turn_2.json`, pointer: '/raw_feedback'}, {file: 'run.log', line: 105}]})
  })

  it('agreeing values carry both evidences; the log\'s Criteria Progress numbers are kept', () => {
    expect(task.turns[0]!.coach.decision?.evidence).toEqual([{file: `${DIR}/coach_turn_1.json`, pointer: '/decision'}, {file: 'run.log', line: 102}])
    expect(task.turns[0]!.coach.criteriaTotal).toEqual({value: 6, evidence: [{file: 'run.log', line: 103}]})
    expect(task.turns[1]!.checkpoint?.value).toEqual({hash: H2, testsPassed: true, testCount: 4})
    expect(task.turns[0]!.player.status?.value).toBe('error')
    expect(task.turns[0]!.stateRecovery?.value.method).toBe('git_only')
  })

  it('keeps what only the log says of the Coach: its classification of a failed test run', () => {
    const withClass = loggedTask('TASK-A-001', 1, logged)
    const turns = withClass.turns.map((t) => t.turn === 1 ? {...t, coach: {...t.coach, testFailureClass: {value: {classification: 'code', confidence: 'n/a'}, evidence: [{file: 'run.log', line: 107}]}}} : t)
    const merged = mergeArtifacts({runPath: 'RUN', fromLogs: logs([{...withClass, turns}]), worktrees: [worktree(files)], fixture: null, issues: []})
    expect(merged.tasks[0]!.turns[0]!.coach.testFailureClass).toEqual({value: {classification: 'code', confidence: 'n/a'}, evidence: [{file: 'run.log', line: 107}]})
  })

  it('keeps the raw artifacts on each turn and the task-level files on the task', () => {
    expect(task.turns[1]!.artifacts.playerReport.map((v) => v.file)).toEqual([`${DIR}/player_turn_2.json`])
    expect(task.taskArtifacts?.turnContext?.file).toBe(`${DIR}/turn_context.json`)
    expect(task.maxTurns).toEqual({value: 15, evidence: [{file: `${DIR}/turn_context.json`, pointer: '/max_turns'}]})
  })

  it('adds one era marker per artifact era seen', () => {
    expect(record.eraMarkers.map((m) => [m.id, m.count])).toEqual([
      ['checkpoints.v1', 1], ['coach_feedback_for_turn.v1', 1], ['coach_turn.v1', 2], ['player_turn.v1', 1], ['turn_context.v1', 1], ['work_state_turn.v1', 1],
    ])
  })
})

describe('mergeArtifacts: conflicts', () => {
  it('a different Coach decision: the report wins, the conflict is reported with its pointer', () => {
    const task = loggedTask('TASK-A-001', 1, [{...logged[0]!, decision: 'approve'}, logged[1]!])
    const r = mergeArtifacts({runPath: 'RUN', fromLogs: logs([task]), worktrees: [worktree(files)], fixture: null, issues: []})
    expect(r.tasks[0]!.turns[0]!.coach.decision?.value).toBe('feedback')
    expect(r.ingestIssues).toEqual([expect.objectContaining({file: `${DIR}/coach_turn_1.json`, pointer: '/decision', code: 'conflict', severity: 'warning',
      message: 'TASK-A-001 turn 1: the Coach decision differs: "feedback" (kept) vs "approve"'})])
  })

  it('feedback the log shows that the full text does not start with is a conflict', () => {
    const task = loggedTask('TASK-A-001', 1, [{...logged[0]!, feedback: '- Tests failed: database connection refused'}, logged[1]!])
    const r = mergeArtifacts({runPath: 'RUN', fromLogs: logs([task]), worktrees: [worktree(files)], fixture: null, issues: []})
    expect(r.ingestIssues).toEqual([expect.objectContaining({pointer: '/raw_feedback', code: 'conflict'})])
  })

  it('a different number of verified criteria is reported; the log\'s count is kept', () => {
    const withVerification = {...files, 'TASK-A-001/coach_turn_2.json': coach(2, 'approve', {criteria_verification: [{criterion_id: 'AC-001', result: 'verified'}]})}
    const r = mergeArtifacts({runPath: 'RUN', fromLogs: logs([loggedTask('TASK-A-001', 1, logged)]), worktrees: [worktree(withVerification)], fixture: null, issues: []})
    expect(r.tasks[0]!.turns[1]!.coach.criteriaMet?.value).toBe(0)
    expect(r.ingestIssues).toEqual([expect.objectContaining({code: 'conflict', message: expect.stringContaining('the number of verified criteria differs: 0 (kept) vs 1')})])
  })

  it('a turn in the artifacts that the finished log run does not have is kept and reported', () => {
    const more = {...files, 'TASK-A-001/coach_turn_3.json': coach(3, 'approve')}
    const r = mergeArtifacts({runPath: 'RUN', fromLogs: logs([loggedTask('TASK-A-001', 1, logged)]), worktrees: [worktree(more)], fixture: null, issues: []})
    expect(r.tasks[0]!.turns.map((t) => t.turn)).toEqual([1, 2, 3])
    expect(r.ingestIssues).toEqual([expect.objectContaining({file: DIR, code: 'conflict', severity: 'warning', message: expect.stringContaining('turn 3')})])
  })

  it('artifacts that end before the log\'s run are reported as info, later turns are the log\'s alone', () => {
    const fewer = Object.fromEntries(Object.entries(files).filter(([k]) => !k.endsWith('_2.json') && !k.endsWith('checkpoints.json')))
    const r = mergeArtifacts({runPath: 'RUN', fromLogs: logs([loggedTask('TASK-A-001', 1, logged)]), worktrees: [worktree(fewer)], fixture: null, issues: []})
    expect(r.tasks[0]!.turns.map((t) => [t.turn, t.artifacts.coachReport !== null])).toEqual([[1, true], [2, false]])
    expect(r.ingestIssues).toEqual([expect.objectContaining({code: 'conflict', severity: 'info', message: expect.stringContaining('end at turn 1')})])
  })

  it('a different implementation mode in the worktree files is reported; the log\'s is kept', () => {
    const direct = {...files, 'TASK-A-001/player_turn_2.json': {task_id: 'TASK-A-001', turn: 2, implementation_mode: 'direct', success: true}}
    const r = mergeArtifacts({runPath: 'RUN', fromLogs: logs([loggedTask('TASK-A-001', 1, logged)]), worktrees: [worktree(direct)], fixture: null, issues: []})
    expect(r.tasks[0]!.mode?.value).toBe('task-work')
    expect(r.ingestIssues).toEqual([expect.objectContaining({pointer: '/implementation_mode', code: 'conflict', severity: 'warning'})])
  })
})

describe('mergeArtifacts: artifacts alone', () => {
  const taskFile = parseTaskFile('tasks/backlog/TASK-A-001-x.md', '---\nid: TASK-A-001\ncomplexity: 3\ntask_type: feature\nimplementation_mode: task-work\n---\n## Acceptance Criteria\n- [ ] one\n- [ ] two\n')
  const feature = parseFeatureYaml('.guardkit/features/FEAT-A.yaml', 'id: FEAT-A\ntasks:\n- id: TASK-A-001\n  result:\n    total_turns: 2\n    final_decision: approved\n')
  const wt = worktree(files, {taskFiles: [{...taskFile, inWorktree: taskFile.record.file}], features: [feature]})

  it('builds a task run (attempt 1) from the folder, the task file and the feature file', () => {
    const r = mergeArtifacts({runPath: 'RUN', fromLogs: null, worktrees: [wt], fixture: null, issues: []})
    expect(r.ingestIssues).toEqual([])
    expect(r.feature?.featureId).toBe('FEAT-A')
    const t = r.tasks[0]!
    expect(t).toMatchObject({taskId: 'TASK-A-001', attempt: 1, featureId: 'FEAT-A', sources: {log: false, artifacts: true}, turnCount: {value: 2}})
    expect(t.outcome).toEqual({value: 'approved', evidence: [expect.objectContaining({file: '.guardkit/features/FEAT-A.yaml', pointer: '/tasks/0/result/final_decision'})]})
    expect(t.complexity).toEqual({value: 3, evidence: [{file: 'tasks/backlog/TASK-A-001-x.md', line: 3}]})
    expect(t.mode?.value).toBe('task-work')
    expect(t.taskType?.value).toBe('feature')
    expect(t.taskFile?.file).toBe('tasks/backlog/TASK-A-001-x.md')
    expect(t.criteria).toMatchObject({texts: ['one', 'two'], source: 'task-file', complete: true})
    expect(t.turns.map((u) => [u.turn, u.coach.decision?.value, u.coach.feedback?.completeness ?? null])).toEqual([[1, 'feedback', 'full'], [2, 'approve', null]])
  })

  it('does not take the feature file\'s result when its turn count is not the folder\'s (a stale record)', () => {
    const stale = parseFeatureYaml('.guardkit/features/FEAT-A.yaml', 'id: FEAT-A\ntasks:\n- id: TASK-A-001\n  result:\n    total_turns: 5\n    final_decision: unrecoverable_stall\n')
    const r = mergeArtifacts({runPath: 'RUN', fromLogs: null, worktrees: [{...wt, features: [stale]}], fixture: null, issues: []})
    expect(r.tasks[0]!.outcome).toBeNull()
    expect(r.ingestIssues).toEqual([expect.objectContaining({pointer: '/tasks/0/result', code: 'stale-record', severity: 'info'})])
  })

  it('a folder of a task the logs never ran becomes a run after the logged ones', () => {
    const r = mergeArtifacts({runPath: 'RUN', fromLogs: logs([loggedTask('TASK-B-001', 1, [])]), worktrees: [worktree(files)], fixture: null, issues: []})
    expect(r.tasks.map((t) => [t.taskId, t.attempt, t.sources])).toEqual([['TASK-B-001', 1, {log: true, artifacts: false}], ['TASK-A-001', 2, {log: false, artifacts: true}]])
    expect(r.ingestIssues).toEqual([expect.objectContaining({file: DIR, code: 'artifacts-without-log', severity: 'info'})])
  })

  it('prefers the criteria the Coach verified (its report lists them) over the task file', () => {
    const verified = {...files, 'TASK-A-001/coach_turn_2.json': coach(2, 'approve', {
      criteria_verification: [{criterion_id: 'AC-001', criterion_text: 'one', result: 'verified'}, {criterion_id: 'AC-002', criterion_text: 'two', result: 'verified'}]})}
    const r = mergeArtifacts({runPath: 'RUN', fromLogs: null, worktrees: [worktree(verified, {taskFiles: wt.taskFiles})], fixture: null, issues: []})
    expect(r.tasks[0]!.criteria).toEqual({texts: ['one', 'two'], source: 'coach-report', complete: true, evidence: [{file: `${DIR}/coach_turn_2.json`, pointer: '/criteria_verification'}]})
  })
})
