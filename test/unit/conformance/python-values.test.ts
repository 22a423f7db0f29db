import {describe, expect, it} from 'vitest'
import {runVectors} from '../../../src/conformance/run-vectors.js'
import {parseVectorLines} from '../../../src/conformance/vector.js'

/**
 * Vectors of the oracle's format (one JSON line each) for Python's printing of values read from JSON,
 * written here by hand: the outputs follow docs/guardkit-logic.md §6.1 step 1, §7.2, §7.4 (an unreadable results
 * file, the 0/N dump, the promise evidence) and the Python parts were printed by CPython 3.11.7
 * (`str(e)` of `json.loads("{not json")`, `str(json.loads(...))` of a dict holding `1.0`, an f-string of
 * None). They go through the same reader as a vector file: the `1.0` in the line's text must stay a float.
 */
const EMPTY_VERDICT = '"validation_results": {"quality_gates": null, "independent_tests": null, "requirements": null}, "criteria_verification": [], "acceptance_criteria_verification": {"criteria_results": []}'
const STUB = '"independent_tests_stub": {"tests_passed": true, "test_command": "pytest tests/test_a.py -v --tb=short", "test_output_summary": "5 passed", "duration_seconds": 1.0, "raw_output": "5 passed"}'
const PARSE_ERROR = 'Failed to parse task-work results: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)'

const VECTORS = [
  // docs/guardkit-logic.md §6.1 step 1: bad JSON → {"error": "Failed to parse task-work results: {e}"} → missing_results feedback.
  `{"fn": "coach_validate", "version": "legacy", "input": {"task": {"acceptance_criteria": ["a"], "task_type": "feature"}, "task_work_results": "{not json", ${STUB}}, "output": {"task_id": "TASK-X", "turn": 1, "decision": "feedback", ${EMPTY_VERDICT}, "issues": [{"severity": "must_fix", "category": "missing_results", "description": "${PARSE_ERROR}"}], "rationale": "Task-work quality gate results not found", "context_used": null}}`,
  `{"fn": "coach_validate", "version": "fixed", "input": {"task": {"acceptance_criteria": ["a"], "task_type": "feature"}, "task_work_results": "{not json", ${STUB}}, "output": {"task_id": "TASK-X", "turn": 1, "decision": "feedback", ${EMPTY_VERDICT}, "issues": [{"severity": "must_fix", "category": "missing_results", "description": "${PARSE_ERROR}"}], "rationale": "Task-work quality gate results not found", "context_used": null, "approved_without_independent_tests": false}}`,
  // docs/guardkit-logic.md §7.2: the dump prints the promises with str(list): a JSON 1.0 is a Python float, `1.0`; `_synthetic: 0.0` likewise.
  `{"fn": "validate_requirements", "version": "fixed", "input": {"acceptance_criteria": ["a"], "task_work_results": {"_synthetic": 0.0, "completion_promises": [{"criterion_id": "AC-001", "status": "incomplete", "confidence": 1.0, "score": 2.5e+16, "n": 12345678901234567890}]}, "turn": 1, "validator_task_id": "TASK-X"}, "output": {"validation": {"criteria_total": 1, "criteria_met": 0, "all_criteria_met": false, "missing": ["a"], "criteria_results": [{"criterion_id": "AC-001", "criterion_text": "a", "result": "rejected", "status": "rejected", "evidence": "Promise status: incomplete", "notes": "Promise status: incomplete"}]}, "warnings": ["WARNING: Criteria verification 0/1 - diagnostic dump:", "WARNING:   AC text: a", "WARNING:   requirements_met: (not used)", "WARNING:   completion_promises: [{'criterion_id': 'AC-001', 'status': 'incomplete', 'confidence': 1.0, 'score': 2.5e+16, 'n': 12345678901234567890}]", "WARNING:   matching_strategy: promises", "WARNING:   _synthetic: 0.0"]}}`,
  // docs/guardkit-logic.md §7.4: a partial promise's evidence is an f-string: present nulls print as None, a float as Python prints it.
  `{"fn": "match_by_promises", "version": "fixed", "input": {"acceptance_criteria": ["a", "b", "c"], "completion_promises": [{"criterion_id": "AC-001", "status": "partial", "evidence_type": null, "evidence": null}, {"criterion_id": "AC-002", "status": "partial", "evidence_type": true, "evidence": 1.0}, {"criterion_id": "AC-003", "status": 2.0}]}, "output": {"criteria_total": 3, "criteria_met": 2, "all_criteria_met": false, "missing": ["c"], "criteria_results": [{"criterion_id": "AC-001", "criterion_text": "a", "result": "verified", "status": "verified", "evidence": "[Partial confidence - None] None", "notes": "[Partial confidence - None] None"}, {"criterion_id": "AC-002", "criterion_text": "b", "result": "verified", "status": "verified", "evidence": "[Partial confidence - True] 1.0", "notes": "[Partial confidence - True] 1.0"}, {"criterion_id": "AC-003", "criterion_text": "c", "result": "rejected", "status": "rejected", "evidence": "Promise status: 2.0", "notes": "Promise status: 2.0"}]}}`,
  // docs/guardkit-logic.md §8.3: `f"- {desc}: {suggestion}"` over the values as JSON gave them (1.0 stays `1.0`, None is `None`).
  `{"fn": "extract_feedback", "version": "legacy", "input": {"coach_report": {"issues": [{"description": 1.0, "suggestion": 2.5e+16}, {"description": null}]}}, "output": "- 1.0: 2.5e+16\\n- None"}`,
]

describe('Python printing of values read from JSON, through the vector runner', () => {
  const report = runVectors(parseVectorLines(VECTORS.join('\n')))

  it.each(report.results.map((r) => [`${r.fn} (${r.version}, line ${r.line})`, r] as const))('%s passes', (_, r) => {
    expect({status: r.status, actual: r.actual}).toEqual({status: 'pass', actual: r.expected})
  })

  it('reads a vector line with Python\'s JSON reader: a bad line is reported with CPython\'s message', () => {
    expect(parseVectorLines('{"fn": "x",}')).toEqual([{kind: 'invalid', line: 1, message: 'not JSON: Expecting property name enclosed in double quotes: line 1 column 12 (char 11)'}])
  })
})
