import {describe, expect, it} from 'vitest'
import {classifyArtifactName, type ArtifactKind} from '../../../../src/ingest/artifacts/artifact-names.js'
import {ERAS} from '../../../../src/ingest/artifacts/kinds.js'
import {parseArtifact} from '../../../../src/ingest/artifacts/parse-artifact.js'

// Authored, trimmed after the shapes of docs/record-formats.md §4.3 (one per kind and era).
const promise = {criterion_id: 'AC-001', criterion_text: 'x exists', status: 'complete', evidence: 'made x', test_file: null, implementation_files: ['x.py']}
const playerV1 = {task_id: 'TASK-A-001', turn: 1, files_modified: ['a.py'], files_created: [], tests_written: [], tests_run: true, tests_passed: true,
  test_output_summary: '', implementation_notes: 'Implementation via task-work delegation', concerns: [], requirements_addressed: [], requirements_remaining: [], tests_passed_count: 3}
const twrV1 = {task_id: 'TASK-A-001', timestamp: '2026-01-28T22:41:00.663745', completed: true, phases: {phase_3: {detected: true, text: 'Implementation', completed: false}},
  quality_gates: {tests_passing: true, tests_passed: 36, tests_failed: 0, coverage: null, coverage_met: null, all_passed: true}, files_modified: ['NEW:'], files_created: [], summary: '36 tests passed'}
const coachV1 = {task_id: 'TASK-A-001', turn: 1, decision: 'feedback', validation_results: {quality_gates: null, independent_tests: null, requirements: null},
  issues: [{severity: 'must_fix', category: 'missing_results', description: 'task-work execution exceeded 900s timeout'}], rationale: 'Task-work quality gate results not found'}
const verification = {criterion_id: 'AC-001', criterion_text: 'x exists', result: 'verified', status: 'verified', evidence: 'seen', notes: 'seen'}
const coachV2 = {...coachV1, criteria_verification: [verification], acceptance_criteria_verification: {criteria_results: [verification]}, context_used: null}
const coachV3 = {...coachV2, approved_without_independent_tests: false, is_configuration_error: false, environment_conditional_approval: false, honesty_verification: null, coach_primary_synthetic_feedback: true}
const coachV4 = {task_id: 'TASK-A-001', turn: 1, decision: 'approve', validation_results: {requirements_met: ['AC-001'], tests_run: true, tests_passed: true, test_command: 'pytest',
  test_output_summary: '1 passed', code_quality: 'fine', edge_cases_covered: []}, criteria_verification: [{criterion_id: 'AC-001', result: 'verified', notes: 'ok'}], rationale: 'done'}
const checkpoint = {turn: 1, commit_hash: 'a6978cc41b897628d07c7a9bea1c2cb52741f3a5', timestamp: '2026-06-08T15:28:40.177166', tests_passed: false, test_count: 0, message: '[guardkit-checkpoint] Turn 1 complete (tests: fail)'}

const EXAMPLES: [string, unknown, string][] = [
  ['player_turn_1.json', playerV1, 'player_turn.v1'],
  ['player_turn_1.json', {...playerV1, completion_promises: [promise]}, 'player_turn.v2'],
  ['player_turn_1.json', {...playerV1, completion_promises: [promise], sdk_turns_used: null, sdk_max_turns: 150, sdk_ceiling_hit: false, files_authored: []}, 'player_turn.v3'],
  ['task_work_results.json', twrV1, 'task_work_results.v1'],
  ['task_work_results.json', {...twrV1, completion_promises: [promise], tests_written: [], sdk_turns: {turns_used: null, max_turns: 150, ceiling_hit: false}}, 'task_work_results.v2'],
  ['task_work_results.json', {...twrV1, agent_invocations: [{phase: '4', agent: 'test-orchestrator', status: 'failed', source: 'orchestrator', duration_seconds: 150.05, error: 'hang'}],
    agent_invocations_validation: {status: 'violation', expected_phases: 3, actual_invocations: 0, missing_phases: ['3'], violation_message: 'x'}}, 'task_work_results.v3'],
  ['task_work_results.json', {...twrV1, files_authored: [], task_type: 'feature', plan_audit: {status: 'passed'}, unconfirmed_low_confidence_assumptions: {status: 'ok'}}, 'task_work_results.v4'],
  ['coach_turn_1.json', coachV1, 'coach_turn.v1'],
  ['coach_turn_1.json', coachV2, 'coach_turn.v2'],
  ['coach_turn_1.json', coachV3, 'coach_turn.v3'],
  ['coach_turn_1.json', coachV4, 'coach_turn.v4'],
  ['coach_turn_2.json', {task_id: 'TASK-A-001', turn: 2, decision: 'feedback', criteria_verification: [{criterion_id: 'AC-001', result: 'rejected', notes: 'no'}], issues: [], rationale: 'r'}, 'coach_turn.v4'],
  ['coach_feedback_for_turn_2.json', {turn: 2, feedback_from_turn: 1, feedback_summary: '- x', must_fix: [], should_fix: [], validation_results: {}, raw_feedback: '- x'}, 'coach_feedback_for_turn.v1'],
  ['turn_context.json', {task_id: 'TASK-A-001', turn: 2, max_turns: 5, turns_remaining: 3, approaching_limit: false, escape_hatch_active: false, instructions: 'i'}, 'turn_context.v1'],
  ['turn_context.json', {task_id: 'TASK-A-001', turn: 2, max_turns: 5, promise_schema_reminder: {criterion_id: 'CORRECT'}}, 'turn_context.v2'],
  ['checkpoints.json', {task_id: 'TASK-A-001', checkpoints: [checkpoint], last_updated: 'x'}, 'checkpoints.v1'],
  ['checkpoints.json', {task_id: 'TASK-A-001', checkpoints: [{...checkpoint, from_prior_run: false}]}, 'checkpoints.v2'],
  ['checkpoints.json', {task_id: 'TASK-A-001', checkpoints: [{...checkpoint, from_prior_run: false, evidence_commits: {}}]}, 'checkpoints.v3'],
  ['work_state_turn_1.json', {turn_number: 1, files_modified: [], files_created: ['a'], tests_written: [], tests_passed: false, test_count: 0, detection_method: 'git_only',
    git_changes: {files_added: ['a']}, test_results: {tests_run: false}, player_report_available: false}, 'work_state_turn.v1'],
  ['turn_state_turn_1.json', {id: 'TURN-FEAT-AOF-1', feature_id: 'FEAT-AOF', task_id: 'TASK-A-001', turn_number: 1, coach_decision: 'feedback', coach_feedback: '- x', mode: 'fresh_start',
    files_modified: [], tests_passed: null, tests_failed: null, lessons_from_turn: [], what_to_try_next: null}, 'turn_state_turn.v1'],
  ['specialist_results.json', {phase_4: {status: 'failed', duration_seconds: 150.05, error: 'hang', tests_run: 0}, phase_5: {status: 'skipped', error: 'phase_4 status=failed'}}, 'specialist_results.v1'],
  ['state_transitions.json', [{task_id: 'TASK-A-001', pre_path: 'tasks/backlog/a.md', post_path: 'tasks/design_approved/a.md', timestamp: 't', kind: 'design_approved_transition'}], 'state_transitions.v1'],
  ['coach_evidence_turn_1.json', {gathering_status: 'complete', gathering_error: null, independent_tests: {tests_passed: false, test_command: 'pytest', signal_absent: true},
    requirements: {criteria_total: 7, criteria_met: 7, all_criteria_met: true, missing: [], criteria_results: [verification]}, task_type: 'declarative'}, 'coach_evidence_turn.v1'],
  ['phase_4_summary.json', {tests_run: 22, tests_failed: 0, coverage_pct: 90.7, output_summary: 'ok', quality_gates_passed: true}, 'phase_4_summary.v1'],
  ['phase_4_checkpoint.json', {anything: {goes: 1}}, 'phase_4_checkpoint.v1'],
]

describe('artifact schemas: one per kind and era', () => {
  it.each(EXAMPLES)('%s %# reads as its era without issues', (name, json, era) => {
    const {kind} = classifyArtifactName(name)
    const r = parseArtifact(`.guardkit/autobuild/TASK-A-001/${name}`, JSON.stringify(json), kind)
    expect(r.issues).toEqual([])
    expect(r.version?.schema).toBe(era)
    expect(r.version?.json).toEqual(json)
  })

  it('every era of every kind has an example above', () => {
    const covered = new Set(EXAMPLES.map((e) => e[2]))
    for (const kind of Object.keys(ERAS) as ArtifactKind[]) for (const era of ERAS[kind]) expect(covered).toContain(era.id)
  })

  it('keeps unknown fields and names them in an info issue (an era not known yet)', () => {
    const r = parseArtifact('p/coach_turn_1.json', JSON.stringify({...coachV1, verdict_confidence: 0.9, rubric: {}}), 'coach_turn')
    expect(r.version?.json).toMatchObject({verdict_confidence: 0.9, rubric: {}})
    expect(r.issues).toEqual([{file: 'p/coach_turn_1.json', code: 'unknown-era', severity: 'info', message: expect.stringContaining('verdict_confidence, rubric')}])
  })

  it('a wrong type is a warning with a JSON pointer, and the raw JSON is kept for the model', () => {
    const bad = {...twrV1, quality_gates: {...twrV1.quality_gates, tests_passed: '36'}, files_created: [1]}
    const r = parseArtifact('p/task_work_results.json', JSON.stringify(bad), 'task_work_results')
    expect(r.version?.json).toEqual(bad)
    expect(r.issues).toEqual([
      expect.objectContaining({pointer: '/quality_gates/tests_passed', code: 'json-shape', severity: 'warning', message: 'task_work_results.v1: expected number, found the string "36"'}),
      expect.objectContaining({pointer: '/files_created/0', code: 'json-shape', message: expect.stringMatching(/expected string, found number 1/)}),
    ])
  })

  it('a missing required field names the field', () => {
    const {decision: _, ...noDecision} = coachV1
    const r = parseArtifact('p/coach_turn_1.json', JSON.stringify(noDecision), 'coach_turn')
    expect(r.issues).toEqual([expect.objectContaining({pointer: '/decision', message: 'coach_turn.v1: required field "decision" is missing (expected string)'})])
  })

  it('a top level of the wrong kind is an error and nothing is kept', () => {
    expect(parseArtifact('p/checkpoints.json', '[1, 2]', 'checkpoints')).toEqual({version: null,
      issues: [expect.objectContaining({pointer: '', code: 'json-shape', severity: 'error', message: 'checkpoints: expected a JSON object at the top level, found an array of 2'})]})
    expect(parseArtifact('p/state_transitions.json', '{}', 'state_transitions').version).toBeNull()
  })

  it('a JSON file of a kind GuardKit is not known to write is kept raw with an info issue', () => {
    const r = parseArtifact('p/verdict_turn_1.json', '{"x": 1}', classifyArtifactName('verdict_turn_1.json').kind)
    expect(r.version).toEqual({file: 'p/verdict_turn_1.json', json: {x: 1}, schema: 'unknown', seenAt: null})
    expect(r.issues).toEqual([expect.objectContaining({code: 'unknown-kind', severity: 'info'})])
  })

  it('invalid JSON is an error with line and column; an early end reads as truncated', () => {
    expect(parseArtifact('p/coach_turn_1.json', '{\n "turn": 1,\n "x": }', 'coach_turn').issues).toEqual([
      {file: 'p/coach_turn_1.json', line: 3, code: 'json-invalid', severity: 'error', message: 'invalid JSON at line 3, column 7: Expecting value'},
    ])
    expect(parseArtifact('p/coach_turn_1.json', '{\n "turn": 1,\n "deci', 'coach_turn').issues).toEqual([
      expect.objectContaining({line: 3, code: 'truncated', severity: 'error'}),
    ])
  })
})

describe('classifyArtifactName', () => {
  it.each([
    ['player_turn_12.json', 'player_turn', 12],
    ['coach_feedback_for_turn_2.json', 'coach_feedback_for_turn', 2],
    ['coach_evidence_turn_5.json', 'coach_evidence_turn', 5],
    ['work_state_turn_1.json', 'work_state_turn', 1],
    ['turn_state_turn_3.json', 'turn_state_turn', 3],
    ['checkpoints.json', 'checkpoints', null],
    ['phase_4_checkpoint.json', 'phase_4_checkpoint', null],
    ['player_turn_x.json', null, null],
    // GuardKit numbers turns from 1 (fuzzer: test/fuzz/regressions/turn-zero-from-file-name.json)
    ['player_turn_0.json', null, null],
    ['coach_turn_9007199254740992.json', null, null],
    ['coach_turn_9007199254740991.json', 'coach_turn', 9007199254740991],
    ['notes.json', null, null],
  ])('%s → %s %s', (name, kind, turn) => {
    expect(classifyArtifactName(name)).toEqual({kind, turn})
  })
})
