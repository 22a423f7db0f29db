import {describe, expect, it} from 'vitest'
import {runIndependentTests, type IndependentTestsInput, type SubprocessOutcome, type TestOutcome} from '../../../../src/logic/coach/run-independent-tests.js'
import {extractContentText, interpretSdkRun, sdkIsErrorNoneHeuristic} from '../../../../src/logic/coach/sdk-test-run.js'
import {describeDispatch, dispatchIndependentTests, isCustomApiBase, sdkTestOptions, sdkTestPrompt, subprocessInvocation} from '../../../../src/logic/coach/test-dispatch.js'
import type {LogicFlags} from '../../../../src/logic/changes.js'
import {FIXED, LEGACY, logLines, flagsOfProfile, ROOT, sink, worktree} from './helpers.js'

describe('test dispatch (docs/guardkit-logic.md §6.4)', () => {
  it('legacy always runs a shell subprocess', () => {
    expect(describeDispatch(dispatchIndependentTests(['postgresql'], {coachTestExecution: 'sdk'}, LEGACY))).toBe('subprocess (shell=True, no env override)')
  })

  it('fixed defaults to the SDK only when the config key is missing; a present null selects the subprocess', () => {
    expect(dispatchIndependentTests([], {}, FIXED).mode).toBe('sdk')
    expect(dispatchIndependentTests([], {coachTestExecution: null}, FIXED).mode).toBe('subprocess')
    expect(dispatchIndependentTests([], {coachTestExecution: 'subprocess'}, FIXED).mode).toBe('subprocess')
  })

  it('pins the subprocess for a declared infrastructure list only (a string does not count)', () => {
    expect(dispatchIndependentTests(['postgresql'], {}, FIXED)).toMatchObject({mode: 'subprocess', infraPinned: true})
    expect(dispatchIndependentTests('postgresql', {}, FIXED).mode).toBe('sdk')
  })

  it('forces the subprocess for a custom ANTHROPIC_BASE_URL from c3feae49 on', () => {
    const env = {anthropicBaseUrl: 'http://localhost:8000/v1'}
    expect(dispatchIndependentTests([], env, FIXED).mode).toBe('subprocess')
    expect(dispatchIndependentTests([], env, flagsOfProfile('as-run:5c2b5d82')).mode).toBe('sdk')
  })

  it('recognises a custom API base: set, non-empty, not containing api.anthropic.com', () => {
    expect([null, undefined, '', 'https://api.anthropic.com', 'https://proxy.example/api.anthropic.com'].map(isCustomApiBase)).toEqual([false, false, false, false, false])
    expect(isCustomApiBase('http://localhost:8000')).toBe(true)
  })

  it('sends the exact SDK prompt, with no system prompt', () => {
    expect(sdkTestPrompt('pytest tests/test_a.py -v --tb=short')).toBe(
      'Run the following test command and report the output:\n\n```bash\npytest tests/test_a.py -v --tb=short\n```\n\nProvide the full test output.',
    )
    expect(sdkTestOptions(ROOT, {coachTestModel: 'claude-x'}, FIXED)).toEqual({
      allowed_tools: ['Bash'],
      permission_mode: 'bypassPermissions',
      max_turns: 1,
      cwd: ROOT,
      model: 'claude-x',
    })
  })

  it('runs pytest as sys.executable -m pytest without a shell, anything else through the shell', () => {
    expect(subprocessInvocation('pytest tests/a.py  -v --tb=short', '/usr/bin/python3', FIXED)).toEqual({
      shell: false,
      argv: ['/usr/bin/python3', '-m', 'pytest', 'tests/a.py', '-v', '--tb=short'],
    })
    expect(subprocessInvocation('npm test', '/usr/bin/python3', FIXED)).toEqual({shell: true, command: 'npm test'})
    expect(subprocessInvocation('pytest tests/a.py', '/usr/bin/python3', flagsOfProfile('as-run:5c2b5d82'))).toEqual({shell: true, command: 'pytest tests/a.py'})
  })
})

describe('the SDK run (docs/guardkit-logic.md §6.4)', () => {
  it('takes the last non-empty tool result and the last non-None is_error', () => {
    const run = interpretSdkRun(
      [
        {content: '1 failed', isError: true},
        {content: [{type: 'text', text: '3 passed'}], isError: null},
        {content: '', isError: null},
      ],
      ['I ran the tests.'],
    )
    expect(run).toEqual({testsPassed: false, outputText: '3 passed', decidedBy: 'is_error'})
  })

  it('falls back to the assistant text, then to "No output", and guesses pass/fail from the text', () => {
    expect(interpretSdkRun([], ['All 3 tests passed'])).toEqual({testsPassed: true, outputText: 'All 3 tests passed', decidedBy: 'heuristic'})
    expect(interpretSdkRun([{content: null, isError: null}], [])).toEqual({testsPassed: false, outputText: 'No output', decidedBy: 'heuristic'})
  })

  it('the heuristic is substring-based: "errors: 0" fails, "token" passes', () => {
    expect(sdkIsErrorNoneHeuristic('errors: 0, 10 passed')).toBe(false)
    expect(sdkIsErrorNoneHeuristic('collected 3 items ... token refreshed')).toBe(true)
  })

  it('converts content as _extract_content_text does (a dict without text prints as its repr)', () => {
    expect(extractContentText([{type: 'image', source: {data: 'x'}}, 7, null])).toBe("{'type': 'image', 'source': {'data': 'x'}}\n7\nNone")
    expect(extractContentText([])).toBe('')
  })
})

describe('run_independent_tests on recorded outcomes (docs/guardkit-logic.md §6.4)', () => {
  const twr = {files_created: ['tests/test_a.py']}
  const view = () => worktree({'tests/test_a.py': null})
  const run = (tests: IndependentTestsInput, flags: LogicFlags, task: unknown = {}) => {
    const s = sink()
    const unknowns: string[] = []
    const out = runIndependentTests({taskId: 'TASK-X', validatorTaskId: 'TASK-X', twr, task, turn: 1, view: view(), tests, environment: {}, flags, sink: s, unknowns})
    return {out, logs: logLines(s.records), unknowns}
  }
  const completed = (returncode: number, stdout: string | null, stderr: string | null): SubprocessOutcome => ({kind: 'completed', returncode, stdout, stderr, durationSeconds: 0.46})

  it('legacy summarises stdout when it is non-empty, else stderr, and keeps no raw output', () => {
    const {out, logs} = run({kind: 'outcome', outcome: completed(1, '', 'E   ImportError: x\n1 error')}, LEGACY)
    expect(out).toMatchObject({kind: 'result', result: {tests_passed: false, test_command: 'pytest tests/test_a.py -v --tb=short', test_output_summary: 'E   ImportError: x\n1 error', raw_output: null}})
    expect(logs).toEqual([
      'INFO:guardkit.orchestrator.quality_gates.coach_validator:Task-specific tests detected via task_work_results: 1 file(s)',
      'INFO:guardkit.orchestrator.quality_gates.coach_validator:Running independent tests: pytest tests/test_a.py -v --tb=short',
      'INFO:guardkit.orchestrator.quality_gates.coach_validator:Independent tests failed in 0.5s',
    ])
  })

  it('fixed keeps stdout+stderr as raw output with no separator', () => {
    const {out} = run({kind: 'outcome', outcome: completed(0, '3 passed', 'warn')}, FIXED)
    expect(out).toMatchObject({result: {tests_passed: true, raw_output: '3 passedwarn', test_output_summary: 'Result:\n3 passed'}})
  })

  it('writes the exact timeout and API-error texts', () => {
    expect(run({kind: 'outcome', outcome: {kind: 'timeout', durationSeconds: 300.2}}, LEGACY).out).toMatchObject({result: {tests_passed: false, test_output_summary: 'Test execution timed out after 300s'}})
    expect(run({kind: 'outcome', outcome: {kind: 'sdk-api-error', error: 'model not found', durationSeconds: 1}}, FIXED).out).toMatchObject({
      result: {tests_passed: false, test_output_summary: 'SDK API error: model not found', raw_output: 'SDK API error: model not found'},
    })
    expect(run({kind: 'outcome', outcome: {kind: 'sdk-timeout', timeoutSeconds: 300, durationSeconds: 300}}, FIXED).out).toMatchObject({
      result: {test_output_summary: 'SDK test execution timed out after 300s', raw_output: 'Timeout after 300s'},
    })
  })

  it('interprets an SDK exception as the subprocess fallback it caused', () => {
    const outcome: TestOutcome = {kind: 'sdk-fallback', exception: 'CLINotFoundError', then: completed(0, '2 passed', '')}
    const {out, unknowns} = run({kind: 'outcome', outcome}, FIXED)
    expect(out).toMatchObject({result: {tests_passed: true, raw_output: '2 passed'}})
    expect(unknowns).toEqual([])
  })

  it('notes when the recorded run used another execution path than this logic would', () => {
    expect(run({kind: 'outcome', outcome: completed(1, '1 failed', null)}, FIXED).unknowns).toEqual([
      'independent tests ran via a subprocess but this logic would use the SDK',
    ])
  })

  it('skips with the exact summary when no test command is found, without needing a recording', () => {
    const s = sink()
    const out = runIndependentTests({taskId: 'TASK-X', validatorTaskId: 'TASK-X', twr: {}, task: {}, turn: 1, view: worktree(), tests: {kind: 'unrecorded'}, environment: {}, flags: LEGACY, sink: s, unknowns: []})
    expect(out).toEqual({
      kind: 'result',
      result: {tests_passed: true, test_command: 'skipped', test_output_summary: 'No task-specific tests found for TASK-X, skipping independent verification', duration_seconds: 0, raw_output: null},
      command: null,
      dispatch: null,
    })
  })

  it('notes when an outcome recorded for another command stands in (seed 002: legacy ran the abs+rel duplicate)', () => {
    const s = sink()
    const unknowns: string[] = []
    const dupTwr = {files_created: ['/worktree/root/tests/test_a.py', 'tests/test_a.py']}
    const recorded = 'pytest /worktree/root/tests/test_a.py tests/test_a.py -v --tb=short'
    const tests: IndependentTestsInput = {kind: 'outcome', outcome: {kind: 'summary', testsPassed: false, summary: '1 failed', rawOutput: null, durationSeconds: 0.5}, command: recorded}
    const out = runIndependentTests({taskId: 'TASK-X', validatorTaskId: 'TASK-X', twr: dupTwr, task: {}, turn: 1, view: view(), tests, environment: {}, flags: FIXED, sink: s, unknowns})
    expect(out).toMatchObject({kind: 'result', command: 'pytest tests/test_a.py -v --tb=short'})
    expect(unknowns).toEqual([`the test outcome recorded for \`${recorded}\` stands in for \`pytest tests/test_a.py -v --tb=short\``])
  })

  it('reports an unrecorded run that would have happened', () => {
    expect(run({kind: 'unrecorded'}, FIXED).out).toMatchObject({kind: 'unrecorded', command: 'pytest tests/test_a.py -v --tb=short', dispatch: {mode: 'sdk'}})
  })
})
