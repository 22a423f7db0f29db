import {describe, expect, it} from 'vitest'
import {collectingSink} from '../../../../src/logic/log-sink.js'
import {runTaskWorkStream, writeTaskWorkResults, type SdkMessage} from '../../../../src/logic/pipeline/index.js'
import {FIXED, LEGACY} from './helpers.js'

const INVOKER = 'guardkit.orchestrator.agent_invoker'

describe('the SDK stream loop (docs/guardkit-logic.md §4.2, D2)', () => {
  const messages: SdkMessage[] = [
    {type: 'assistant', blocks: [
      {type: 'text', text: 'Phase 3: Implementation'},
      {type: 'tool_use', name: 'Write', input: {file_path: '/wt/src/a.py', content: 'x'}},
      {type: 'tool_use', name: 'Edit', input: 'not a dict'},
      {type: 'tool_use', name: 'Bash', input: {command: 'pytest'}},
    ]},
    {type: 'user'},
    {type: 'assistant', blocks: [{type: 'tool_result', content: [{text: '3 tests passed'}]}, {type: 'text', text: 'Coverage: 91%'}]},
  ]

  it('fixed logs the input keys of every Write/Edit, and warns about a non-dict input (seed 000 Fix 1 texts)', () => {
    const sink = collectingSink()
    const result = runTaskWorkStream('TASK-DB-003', messages, FIXED, sink)
    expect(sink.records).toEqual([
      // The format seen in the captured logs: "[TASK-DB-003] ToolUseBlock Write input keys: ['file_path', 'content']".
      {level: 'INFO', logger: INVOKER, message: "[TASK-DB-003] ToolUseBlock Write input keys: ['file_path', 'content']"},
      {level: 'WARNING', logger: INVOKER, message: '[TASK-DB-003] ToolUseBlock Edit input is str, not dict: not a dict'},
    ])
    expect(result.toolCount).toBe(3)
    // Text and assistant-side tool results are parsed once, joined by newlines.
    expect(result.output).toEqual({
      phases: {phase_3: {detected: true, text: 'Implementation', completed: false}},
      tests_passed: 3, coverage: 91, files_created: ['/wt/src/a.py'],
    })
  })

  it('legacy is silent', () => {
    const sink = collectingSink()
    runTaskWorkStream('TASK-DB-003', messages, LEGACY, sink)
    expect(sink.records).toEqual([])
  })
})

describe('_write_task_work_results (docs/guardkit-logic.md §4.3)', () => {
  it('prints a float coverage as Python does and checks it against the hard-coded 80', () => {
    // CPython: f"{80.0}% coverage" == "80.0% coverage"
    const {results} = writeTaskWorkResults('T', {coverage: 80, tests_passed: 2, tests_failed: 0}, FIXED, {timestamp: 'now'})
    expect(results.summary).toBe('2 tests passed, 80.0% coverage')
    expect(results.completed).toBe(true)
    expect(results.quality_gates).toEqual({tests_passing: true, tests_passed: 2, tests_failed: 0, coverage: 80, coverage_met: true, all_passed: null})
  })

  it('never writes requirements_* or _synthetic, and leaves tests_written empty though the parser saw test files', () => {
    const {results, events} = writeTaskWorkResults('T', {files_created: ['/wt/tests/test_a.py'], test_files_created: ['/wt/tests/test_a.py']}, FIXED, {timestamp: 'now'})
    expect(Object.keys(results)).toEqual(['task_id', 'timestamp', 'completed', 'phases', 'quality_gates', 'files_modified', 'files_created', 'tests_written', 'summary'])
    expect(results.tests_written).toEqual([])
    expect(events).toEqual([expect.objectContaining({kind: 'dropped', field: 'tests_written'})])
  })

  it('copies completion_promises only from ACR on (pre-acr drops them)', () => {
    const data = {completion_promises: [{criterion_id: 'AC-001', status: 'complete'}]}
    expect(writeTaskWorkResults('T', data, LEGACY, {timestamp: 'x'}).results.completion_promises).toEqual(data.completion_promises)
    const preAcr = Object.fromEntries(Object.keys(LEGACY).map((k) => [k, false])) as typeof LEGACY
    expect('completion_promises' in writeTaskWorkResults('T', data, preAcr, {timestamp: 'x'}).results).toBe(false)
  })

  it('warns when more files were created than the documentation level allows, listing five at most', () => {
    const sink = collectingSink()
    const files = ['a/1.py', 'a/2.py', 'a/3.py', 'a/4.py', 'a/5.py', 'a/6.py']
    writeTaskWorkResults('TASK-1', {files_created: files}, FIXED, {timestamp: 'x', documentationLevel: 'minimal', sink})
    // Format of the captured logs (corpus): "... max allowed 2 for minimal level. Files: [...]..."
    expect(sink.records).toEqual([{level: 'WARNING', logger: INVOKER,
      message: "[TASK-1] Documentation level constraint violated: created 6 files, max allowed 2 for minimal level. Files: ['a/1.py', 'a/2.py', 'a/3.py', 'a/4.py', 'a/5.py']..."}])
    const none = collectingSink()
    writeTaskWorkResults('TASK-1', {files_created: files}, FIXED, {timestamp: 'x', documentationLevel: 'comprehensive', sink: none})
    expect(none.records).toEqual([])
  })

  it('legacy keeps "**" in the written lists and says so', () => {
    const {results, events} = writeTaskWorkResults('T', {files_modified: ['**', 'src/a.py']}, LEGACY, {timestamp: 'x'})
    expect(results.files_modified).toEqual(['**', 'src/a.py'])
    expect(events).toEqual([expect.objectContaining({kind: 'spurious', field: 'files_modified', values: ['**'], flag: 'writerPathFilter'})])
  })
})
