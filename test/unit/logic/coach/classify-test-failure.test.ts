import {describe, expect, it} from 'vitest'
import {classifyTestFailure} from '../../../../src/logic/coach/classify-test-failure.js'
import type {IndependentTestResult} from '../../../../src/logic/coach/independent-test-result.js'
import {judgeTestFailure} from '../../../../src/logic/coach/test-failure-feedback.js'
import {FIXED, LEGACY, logLines, flagsOfProfile, sink} from './helpers.js'

const classify = (raw: string | null, infra: unknown = null, flags = FIXED) => {
  const c = classifyTestFailure(raw, infra, flags)
  return [c.failureClass, c.confidence]
}

function failed(raw: string | null, summary = 'Error detail:\nE   boom'): IndependentTestResult {
  return {tests_passed: false, test_command: 'pytest tests/test_a.py -v --tb=short', test_output_summary: summary, duration_seconds: 1.2, raw_output: raw}
}

describe('_classify_test_failure (docs/guardkit-logic.md §6.7, fixed)', () => {
  it('classifies a missing known service library as high-confidence infrastructure, even with declared infrastructure', () => {
    expect(classify("E   ModuleNotFoundError: No module named 'asyncpg'", ['postgresql'])).toEqual(['infrastructure', 'high'])
  })

  it('checks the ModuleNotFoundError first: psycopg2 plus a connection error is still ambiguous', () => {
    expect(classify("ModuleNotFoundError: No module named 'psycopg2'\nConnectionRefusedError")).toEqual(['infrastructure', 'ambiguous'])
  })

  it('falls through the module rule when the module name is not quoted', () => {
    expect(classify('ModuleNotFoundError: No module named mypkg\nConnection refused')).toEqual(['infrastructure', 'high'])
  })

  it('puts SDK API errors before the infrastructure patterns', () => {
    expect(classify('SDK API error: invalid_request_error ... Connection refused')).toEqual(['sdk_api_error', 'high'])
  })

  it('treats an assertion failure, or no raw output at all (legacy-shaped recordings), as code', () => {
    expect(classify('E   AssertionError: assert 1 == 2')).toEqual(['code', 'n/a'])
    expect(classify(null)).toEqual(['code', 'n/a'])
  })

  it('before infraTiers (5c2b5d82) returns the class alone, from every pattern of seed 002 R4', () => {
    const atR4 = flagsOfProfile('as-run:5c2b5d82')
    expect(classify('ImportError: cannot import name x', null, atR4)).toEqual(['infrastructure', null])
    expect(classify('E   AssertionError', null, atR4)).toEqual(['code', null])
  })
})

describe('a failed independent run in validate() (docs/guardkit-logic.md §6.7)', () => {
  it('legacy: one generic issue, and the WARNING of corpus db_stalled.log line 492', () => {
    const s = sink()
    const verdict = judgeTestFailure('TASK-DB-003', failed('E   ConnectionRefusedError'), {}, true, LEGACY, s)
    expect(verdict).toMatchObject({
      kind: 'feedback',
      issue: {severity: 'must_fix', category: 'test_verification', description: 'Independent test verification failed', test_output: 'Error detail:\nE   boom'},
      rationale: 'Tests passed according to task-work but failed on independent verification',
    })
    expect(verdict.kind === 'feedback' && 'failure_classification' in verdict.issue).toBe(false)
    expect(logLines(s.records)).toEqual(['WARNING:guardkit.orchestrator.quality_gates.coach_validator:Independent test verification failed for TASK-DB-003'])
  })

  it('fixed: logs the classification and the conditional-approval check (corpus db_another_fail.log lines 337-338)', () => {
    const s = sink()
    const task = {requires_infrastructure: ['postgresql'], _docker_available: true}
    judgeTestFailure('TASK-DB-003', failed("E   ModuleNotFoundError: No module named 'psycopg2'"), task, true, FIXED, s)
    expect(logLines(s.records)).toEqual([
      'WARNING:guardkit.orchestrator.quality_gates.coach_validator:Independent test verification failed for TASK-DB-003 (classification=code, confidence=high)',
      "INFO:guardkit.orchestrator.quality_gates.coach_validator:conditional_approval check: failure_class=code, confidence=high, requires_infra=['postgresql'], docker_available=True, all_gates_passed=True",
    ])
  })

  it('gives psycopg2-in-an-asyncpg-project its own feedback, whatever the class', () => {
    const verdict = judgeTestFailure('T', failed("E   ModuleNotFoundError: No module named 'psycopg2'"), {requires_infrastructure: ['asyncpg']}, true, FIXED, sink())
    expect(verdict).toMatchObject({
      kind: 'feedback',
      issue: {
        description:
          "ModuleNotFoundError for 'psycopg2' \u2014 this project uses asyncpg. Remove `import psycopg2` from your code and use asyncpg-compatible database patterns instead.",
        failure_classification: 'code',
        failure_confidence: 'high',
      },
      rationale: 'Tests failed because psycopg2 was imported in an asyncpg project',
    })
  })

  it('approves conditionally only for high-confidence infrastructure, declared infrastructure and no Docker', () => {
    const raw = 'E   ConnectionRefusedError: [Errno 111] Connection refused'
    const judge = (task: unknown, r = raw) => judgeTestFailure('T', failed(r), task, true, FIXED, sink()).kind
    expect(judge({requires_infrastructure: ['postgresql'], _docker_available: false})).toBe('conditional-approval')
    expect(judge({requires_infrastructure: ['postgresql'], _docker_available: true})).toBe('feedback')
    expect(judge({requires_infrastructure: ['postgresql']})).toBe('feedback')
    expect(judge({requires_infrastructure: [], _docker_available: false})).toBe('feedback')
    expect(judge({requires_infrastructure: ['postgresql'], _docker_available: false}, 'ImportError: x')).toBe('feedback')
  })

  it('leaves sdk_api_error with the generic description; the class shows only in the issue', () => {
    const verdict = judgeTestFailure('T', failed('SDK API error: model not found', 'SDK API error: model not found'), {}, true, FIXED, sink())
    expect(verdict).toMatchObject({
      kind: 'feedback',
      issue: {description: 'Independent test verification failed', failure_classification: 'sdk_api_error', failure_confidence: 'high'},
    })
  })
})
