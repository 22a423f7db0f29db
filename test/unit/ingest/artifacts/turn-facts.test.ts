import {describe, expect, it} from 'vitest'
import {assembleArtifactTask} from '../../../../src/ingest/artifacts/assemble-task.js'
import {classifyArtifactName} from '../../../../src/ingest/artifacts/artifact-names.js'
import {parseArtifact} from '../../../../src/ingest/artifacts/parse-artifact.js'
import type {ArtifactFolder} from '../../../../src/ingest/artifacts/read-worktree.js'
import {turnFromArtifacts} from '../../../../src/ingest/artifacts/turn-facts.js'
import type {IngestIssue} from '../../../../src/model/ingest-issue.js'

const DIR = '.guardkit/autobuild/TASK-A-001'

function folder(files: Record<string, unknown>): ArtifactFolder {
  return {
    taskId: 'TASK-A-001', dir: DIR, worktree: '.',
    files: Object.entries(files).map(([name, json]) => {
      const {kind, turn} = classifyArtifactName(name)
      return {name, kind, turn, versions: [parseArtifact(`${DIR}/${name}`, JSON.stringify(json), kind).version!]}
    }),
  }
}

const coach = (turn: number, decision: string, extra: Record<string, unknown> = {}) => ({task_id: 'TASK-A-001', turn, decision, issues: [], rationale: 'r', ...extra})
const player = (turn: number, extra: Record<string, unknown> = {}) => ({task_id: 'TASK-A-001', turn, files_created: ['a', 'b'], files_modified: ['c'],
  implementation_notes: 'Implementation via task-work delegation', ...extra})
const checkpoints = {task_id: 'TASK-A-001', checkpoints: [
  {turn: 1, commit_hash: 'c9798479aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', tests_passed: false, test_count: 0, message: 'm'},
  {turn: 2, commit_hash: '7d083256bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', tests_passed: true, test_count: 3, message: 'm'},
]}

describe('assembleArtifactTask', () => {
  const task = assembleArtifactTask(folder({
    'player_turn_2.json': player(2),
    'work_state_turn_1.json': {turn_number: 1, files_created: ['x'], files_modified: [], tests_passed: false, test_count: 0, detection_method: 'git_only', player_report_available: false},
    'coach_turn_1.json': coach(1, 'feedback'),
    'coach_turn_2.json': coach(2, 'approve'),
    'coach_feedback_for_turn_2.json': {turn: 2, feedback_from_turn: 1, raw_feedback: '- Not all acceptance criteria met:\n  • x'},
    'task_work_results.json': {task_id: 'TASK-A-001', completed: true},
    'turn_context.json': {task_id: 'TASK-A-001', turn: 2, max_turns: 15},
    'checkpoints.json': checkpoints,
    'phase_4_checkpoint.json': {x: 1},
  }))

  it('sorts files into turns; feedback goes to the turn whose Coach gave it, task_work_results to the last turn', () => {
    expect([...task.turns.keys()]).toEqual([1, 2])
    expect(task.turns.get(1)!.feedbackFile?.file).toBe(`${DIR}/coach_feedback_for_turn_2.json`)
    expect(task.turns.get(1)!.workState?.file).toBe(`${DIR}/work_state_turn_1.json`)
    expect(task.turns.get(2)!.taskWorkResults.map((v) => v.file)).toEqual([`${DIR}/task_work_results.json`])
    expect(task.turns.get(1)!.taskWorkResults).toEqual([])
    expect(task.lastTurn).toBe(2)
  })

  it('keeps single files at task level, uninterpreted kinds among others', () => {
    expect(task.taskLevel.turnContext?.file).toBe(`${DIR}/turn_context.json`)
    expect(task.taskLevel.checkpoints?.file).toBe(`${DIR}/checkpoints.json`)
    expect(task.taskLevel.others.map((v) => v.schema)).toEqual(['phase_4_checkpoint.v1'])
  })

  it('reads checkpoints with a pointer per entry', () => {
    expect(task.checkpoints.get(2)).toEqual({turn: 2, hash: '7d083256bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', testsPassed: true, testCount: 3, fromPriorRun: null,
      evidence: {file: `${DIR}/checkpoints.json`, pointer: '/checkpoints/1'}})
  })

  it('builds turn records whose every value points into its file', () => {
    const issues: IngestIssue[] = []
    const t1 = turnFromArtifacts(1, task.turns.get(1)!, task.checkpoints.get(1)!, issues)
    expect(t1.player.status).toEqual({value: 'error', evidence: [expect.objectContaining({file: `${DIR}/work_state_turn_1.json`, pointer: ''})]})
    expect(t1.player.reportSource?.value).toBe('state-recovery')
    expect(t1.stateRecovery?.value).toEqual({reason: null, method: 'git_only', files: 1, tests: 0, testsPassing: false})
    expect(t1.coach.decision).toEqual({value: 'feedback', evidence: [{file: `${DIR}/coach_turn_1.json`, pointer: '/decision'}]})
    expect(t1.coach.feedback).toEqual({text: '- Not all acceptance criteria met:\n  • x', completeness: 'full', truncatedAt: null,
      evidence: [{file: `${DIR}/coach_feedback_for_turn_2.json`, pointer: '/raw_feedback'}]})
    expect(t1.checkpoint).toEqual({value: {hash: 'c9798479aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', testsPassed: false, testCount: 0}, evidence: [{file: `${DIR}/checkpoints.json`, pointer: '/checkpoints/0'}]})
    const t2 = turnFromArtifacts(2, task.turns.get(2)!, task.checkpoints.get(2)!, issues)
    expect(t2.player).toMatchObject({status: {value: 'success'}, filesCreated: {value: 2}, filesModified: {value: 1}, reportSource: {value: 'task-work-delegation'}})
    expect(t2.coach.decision?.value).toBe('approve')
    expect(t2.coach.feedback).toBeNull()
    expect(issues).toEqual([])
  })
})

describe('turnFromArtifacts: the Coach report', () => {
  it('counts verified and rejected criteria as the Criteria Progress line does; a V1 report counts 0', () => {
    const verifications = [{criterion_id: 'AC-001', result: 'verified'}, {criterion_id: 'AC-002', result: 'rejected'}, {criterion_id: 'AC-003', result: 'verified'}]
    const t = assembleArtifactTask(folder({'coach_turn_1.json': coach(1, 'feedback', {criteria_verification: verifications}), 'coach_turn_2.json': coach(2, 'feedback')}))
    const one = turnFromArtifacts(1, t.turns.get(1)!, null, [])
    expect([one.coach.criteriaMet?.value, one.coach.verified?.value, one.coach.rejected?.value, one.coach.criteriaTotal]).toEqual([2, 2, 1, null])
    expect(turnFromArtifacts(2, t.turns.get(2)!, null, []).coach.criteriaMet?.value).toBe(0)
  })

  it('reads gates, the test command, independent tests, missing criteria and issue categories', () => {
    const t = assembleArtifactTask(folder({'coach_turn_1.json': coach(1, 'feedback', {
      validation_results: {
        quality_gates: {tests_passed: true, coverage_met: true, arch_review_passed: true, plan_audit_passed: true, all_gates_passed: true},
        independent_tests: {tests_passed: false, test_command: 'pytest tests/x.py', test_output_summary: 'boom', duration_seconds: 1.5},
        requirements: {criteria_total: 2, criteria_met: 1, all_criteria_met: false, missing: ['Existing tests pass']},
      },
      issues: [{severity: 'must_fix', category: 'test_failure', description: 'd'}, {severity: 'must_fix', category: 'zero_test_anomaly', description: 'z'}],
    })}))
    const c = turnFromArtifacts(1, t.turns.get(1)!, null, []).coach
    expect(c.gates?.value).toMatchObject({testsPassed: true, allPassed: true, testsRequired: null})
    expect(c.testCommand).toEqual({value: 'pytest tests/x.py', evidence: [{file: `${DIR}/coach_turn_1.json`, pointer: '/validation_results/independent_tests/test_command'}]})
    expect(c.independentTests?.value).toEqual({passed: false, durationSeconds: 1.5, skipped: false})
    expect(c.missingCriteria?.value).toEqual(['Existing tests pass'])
    expect(c.issueCategories?.value).toEqual(['test_failure', 'zero_test_anomaly'])
    expect(c.zeroTestAnomaly?.value).toBe(true)
  })

  it('an unknown decision is not used, and says so with a pointer', () => {
    const t = assembleArtifactTask(folder({'coach_turn_1.json': coach(1, 'maybe')}))
    const issues: IngestIssue[] = []
    expect(turnFromArtifacts(1, t.turns.get(1)!, null, issues).coach.decision).toBeNull()
    expect(issues).toEqual([expect.objectContaining({pointer: '/decision', code: 'json-shape'})])
  })

  it('a synthetic report with a work_state file is state recovery, without one a direct-mode synthetic report', () => {
    const synthetic = player(1, {_synthetic: true, implementation_mode: 'direct', implementation_notes: 'x'})
    const recovered = assembleArtifactTask(folder({'player_turn_1.json': synthetic, 'work_state_turn_1.json': {turn_number: 1}}))
    const direct = assembleArtifactTask(folder({'player_turn_1.json': synthetic}))
    expect(turnFromArtifacts(1, recovered.turns.get(1)!, null, []).player.reportSource?.value).toBe('state-recovery')
    expect(turnFromArtifacts(1, direct.turns.get(1)!, null, []).player.reportSource?.value).toBe('direct-synthetic')
  })
})
