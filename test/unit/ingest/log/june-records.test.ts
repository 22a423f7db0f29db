import {describe, expect, it} from 'vitest'
import {parseEventLog} from '../../../../src/ingest/artifacts/event-log.js'
import {classifyConsole} from '../../../../src/ingest/log/console-grammar.js'
import {parseRecord} from '../../../../src/ingest/log/grammar/index.js'

/** Record shapes of June 2026 and of the transcript era, one authored example line each (docs/ingest.md). */
describe('June 2026 records', () => {
  it('reads the LLM Coach\'s own failures as Coach phase errors, not the Player\'s', () => {
    expect(parseRecord('WARNING', 'guardkit.orchestrator.agent_invoker', "TASK-ARCH-COACHBFULL: Phase-A gather failed for TASK-X-001 turn 2 (SDKTimeoutError: Agent invocation exceeded 600s timeout); degrading to B-min synthesis."))
      .toMatchObject({kind: 'cv-phase-error', phase: 'gather', taskId: 'TASK-X-001', turn: 2})
    expect(parseRecord('ERROR', 'guardkit.orchestrator.quality_gates.coach_validator', 'SDK coach test execution failed (error_class=LangGraphHarnessError): LangGraphHarness: failed to construct DeepAgent'))
      .toMatchObject({kind: 'cv-phase-error', phase: 'tests'})
    expect(parseRecord('INFO', 'guardkit.orchestrator.agent_invoker', 'TASK-ARCH-COACHBFULL: Phase-A gather produced 1200 chars of findings for TASK-X-001 turn 1.')).toMatchObject({kind: 'note'})
  })

  it('reads the specialists a turn runs: capped, hung, failed', () => {
    expect(parseRecord('INFO', 'guardkit.orchestrator.specialist_invocations', '[TASK-X-001] test-orchestrator sdk_timeout capped from 2400s to 600s (TASK-FIX-SPECHANG)'))
      .toMatchObject({kind: 'ai-specialist', role: 'test-orchestrator', what: 'capped', taskId: 'TASK-X-001'})
    expect(parseRecord('WARNING', 'guardkit.orchestrator.specialist_invocations', '[TASK-X-001] run_specialist(test-orchestrator): hang detected (no model activity for 150s) — terminating before the 600s duration cap'))
      .toMatchObject({kind: 'ai-specialist', what: 'hang'})
    expect(parseRecord('WARNING', 'guardkit.orchestrator.specialist_invocations', 'run_specialist(code-reviewer) failed for TASK-X-001: AgentInvocationError: SDK invocation failed for coach'))
      .toMatchObject({kind: 'ai-specialist', role: 'code-reviewer', what: 'failed'})
    expect(parseRecord('INFO', 'guardkit.orchestrator.agent_invoker', "[TASK-X-001] specialist:test-orchestrator invocation ToolUseBlock Bash input keys: ['command']")).toMatchObject({kind: 'note', name: 'specialist'})
  })

  it('reads the pre-loop design phase of December – January as routine', () => {
    expect(parseRecord('INFO', 'guardkit.orchestrator.quality_gates.task_work_interface', 'Executing design phase for TASK-X-001 in /w')).toMatchObject({kind: 'note', name: 'design-phase'})
    expect(parseRecord('ERROR', 'guardkit.orchestrator.quality_gates.task_work_interface', 'SDK timeout after 600s')).toMatchObject({kind: 'note'})
    expect(parseRecord('INFO', 'guardkit.orchestrator.quality_gates.pre_loop', 'Pre-loop results extracted: complexity=5, max_turns=5')).toMatchObject({kind: 'note', name: 'pre-loop'})
  })
})

describe('the services GuardKit starts for the Coach\'s tests', () => {
  it('reads `Starting Docker container for service: …` as a record of the service, and the URL it sets as routine', () => {
    expect(parseRecord('INFO', 'guardkit.orchestrator.quality_gates.coach_validator', 'Starting Docker container for service: postgresql')).toEqual({kind: 'cv-service-start', service: 'postgresql'})
    expect(parseRecord('INFO', 'guardkit.orchestrator.quality_gates.coach_validator', 'Set DATABASE_URL=postgresql://u:p@localhost:5433/test')).toMatchObject({kind: 'note'})
  })
})

describe('the wave display of a task that ended without a turn count', () => {
  it('reads `FAILED  error` and the exception line', () => {
    expect(classifyConsole('  ✗ TASK-X-002: FAILED  error').event).toEqual({kind: 'c-task-result', taskId: 'TASK-X-002', ok: false, turns: null, decision: 'error'})
    expect(classifyConsole('    ✗ TASK-X-002: Error - Orchestration failed: Design phase design failed:').event)
      .toEqual({kind: 'c-task-error', taskId: 'TASK-X-002', message: 'Orchestration failed: Design phase design failed:'})
  })

  it('reads a transcript\'s tool calls and its prose as the end of the output before them', () => {
    expect(classifyConsole('⏺ Bash(guardkit-py autobuild feature FEAT-X --max-turns 5) timeout: 10m 0s')).toMatchObject({start: true, event: {kind: 'c-transcript', tool: 'Bash', input: 'guardkit-py autobuild feature FEAT-X --max-turns 5'}})
    expect(classifyConsole('⏺ Task Output(non-blocking) b937e25').event).toEqual({kind: 'c-transcript', tool: 'Task Output', input: 'b937e25'})
    expect(classifyConsole('⏺ The build is still running.').event).toEqual({kind: 'c-transcript', tool: null, input: 'The build is still running.'})
    expect(classifyConsole('    [stderr] ')).toMatchObject({start: true, event: null})
  })
})

describe('event logs (feature-events.jsonl)', () => {
  it('keeps each row with its line, and reports a line that is not a JSON object', () => {
    const text = [
      '{"run_id":"run-TASK-X-001-1","feature_id":null,"task_id":"TASK-X-001","agent_role":"player","attempt":2,"timestamp":"2026-06-13T09:03:13","schema_version":"1.0.0","failure_category":"other"}',
      '',
      '[1, 2]',
      '{"run_id":"run-FEAT-X","feature_id":"FEAT-X","task_id":"FEAT-X","agent_role":"router","attempt":1,"tasks_completed":0,"task_failures":1}',
      '{"truncated":',
    ].join('\n')
    const {record, issues} = parseEventLog('feature-events.jsonl', text)
    expect(record.entries.map((e) => [e.line, e.role, e.taskId, e.attempt, e.failureCategory])).toEqual([
      [1, 'player', 'TASK-X-001', 2, 'other'],
      [4, 'router', 'FEAT-X', 1, null],
    ])
    expect(record.entries[1]!.raw.task_failures).toBe(1)
    expect(issues.map((i) => [i.line, i.code])).toEqual([[3, 'json-shape'], [5, 'json-invalid']])
  })
})
