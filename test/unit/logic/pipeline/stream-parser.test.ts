import {describe, expect, it} from 'vitest'
import {collectingSink} from '../../../../src/logic/log-sink.js'
import {isTestFile, isValidFilePath, isValidPathSeed, parseStreamSteps, TaskWorkStreamParser} from '../../../../src/logic/pipeline/index.js'
import {FIXED, LEGACY} from './helpers.js'

describe('TaskWorkStreamParser._track_tool_call (docs/guardkit-logic.md §4.1, D1)', () => {
  it('legacy reads file_path only and says which key it missed (seed 000 Bug 1)', () => {
    const parser = new TaskWorkStreamParser(LEGACY)
    parser.trackToolCall('Write', {path: '/Users/u/wt/src/app.py', content: 'x'})
    expect(parser.toResult()).toEqual({})
    expect(parser.trace.events).toEqual([
      expect.objectContaining({kind: 'dropped', field: 'files_created', values: ['/Users/u/wt/src/app.py'], flag: 'trackToolKeys'}),
    ])
  })

  it('fixed takes the first truthy key, and a truthy non-string stops the chain (Python `or`)', () => {
    const parser = new TaskWorkStreamParser(FIXED)
    parser.trackToolCall('Write', {file_path: '', path: 'src/a.py'})
    parser.trackToolCall('Edit', {file_path: ['x.py'], path: 'src/b.py'})
    expect(parser.toResult()).toEqual({files_created: ['src/a.py']})
  })

  it('logs the available keys at DEBUG when no key gives a path (seed 000 Fix 1 text)', () => {
    const sink = collectingSink()
    new TaskWorkStreamParser(FIXED, sink).trackToolCall('Write', {content: 'x', mode: 1})
    expect(sink.records).toEqual([
      {level: 'DEBUG', logger: 'guardkit.orchestrator.agent_invoker', message: "Tool Write call has no recognizable file path key. Available keys: ['content', 'mode']"},
    ])
  })

  it('decides created vs modified by tool name and tracks Write test files only', () => {
    const parser = new TaskWorkStreamParser(FIXED)
    parser.trackToolCall('Write', {file_path: '/wt/tests/test_a.py'})
    parser.trackToolCall('Edit', {file_path: '/wt/tests/test_b.py'})
    parser.trackToolCall('Read', {file_path: '/wt/src/c.py'})
    expect(parser.toResult()).toEqual({files_modified: ['/wt/tests/test_b.py'], files_created: ['/wt/tests/test_a.py'], test_files_created: ['/wt/tests/test_a.py']})
  })
})

describe('TaskWorkStreamParser.parse_message (docs/guardkit-logic.md §4.1, D3, D4)', () => {
  it('lets an early `==` make the pytest summary match with empty groups, then falls back to the simple pattern', () => {
    // CPython 3.11: the summary pattern's first match on this text is "==" with groups (None, None, None).
    const parser = parseStreamSteps([['msg', 'if a == b:\n===== 5 passed in 0.1s =====']], FIXED)
    expect(parser.toResult()).toEqual({tests_passed: 5})
  })

  it('reads Unicode decimal digits as Python int() and float() do', () => {
    // CPython: int('١٢') == 12, float('٩٥.٥') == 95.5
    expect(parseStreamSteps([['msg', '١٢ tests passed\nCoverage: ٩٥.٥%']], FIXED).toResult()).toEqual({tests_passed: 12, coverage: 95.5})
  })

  it('captures only the first of a comma-separated list, and needs whitespace after "File edited"', () => {
    const out = parseStreamSteps([['msg', 'Modified: a.md, b.md\nFile edited: src/x.py']], FIXED).toResult()
    expect(out).toEqual({files_modified: ['a.md']})
  })

  it('tracks an inline <invoke> Write call without validating its path, and tool results with validation', () => {
    const text = '<invoke name="Write">\n<parameter name="file_path"> ab </parameter>\nFile created successfully at: **'
    expect(parseStreamSteps([['msg', text]], FIXED).toResult()).toEqual({files_created: ['ab']})
    expect(parseStreamSteps([['msg', text]], LEGACY).toResult()).toEqual({files_created: ['**', 'ab']})
  })

  it('marks the legacy `**` capture as spurious and the fixed rejection as filtered', () => {
    const legacy = parseStreamSteps([['msg', 'Created: house']], LEGACY)
    expect(legacy.trace.events).toEqual([expect.objectContaining({kind: 'spurious', field: 'files_created', values: ['house']})])
    const fixed = parseStreamSteps([['msg', 'File written to: house']], FIXED)
    expect(fixed.toResult()).toEqual({})
    expect(fixed.trace.events).toEqual([expect.objectContaining({kind: 'filtered', flag: 'validFilePath', values: ['house']})])
  })

  it('keeps the last phase marker per number and marks completion', () => {
    const out = parseStreamSteps([['msg', '✔ phase 4 COMPLETE']], FIXED).toResult()
    expect(out).toEqual({phases: {phase_4: {detected: true, completed: true}}})
  })

  it('reads quality gates FAILED and an architectural score without sub-scores', () => {
    const out = parseStreamSteps([['msg', 'Quality gates: FAILED\nArchitectural review score: 71']], FIXED).toResult()
    expect(out).toEqual({quality_gates_passed: false, architectural_review: {score: 71}})
  })
})

describe('path checks', () => {
  it.each([
    ['', false], ['ab', false], ['abc', false], ['***', false], ['*x/y', false], ['   ', false], ['a/', false], ['ab/', true], ['a\\b', true], ['.ab', true], ['éé/', true],
  ])('_is_valid_file_path(%j) is %s', (path, valid) => {
    expect(isValidFilePath(path)).toBe(valid)
  })

  it("the seed's _is_valid_path keeps bare words and rejects blanks (seed 000 Fix 4)", () => {
    expect(['house', 'ab', 'a.py'].map(isValidPathSeed)).toEqual([true, true, true])
    expect(['', '  ', '*', '**', '***', '*.py'].map(isValidPathSeed)).toEqual([false, false, false, false, false, false])
  })

  it('_is_test_file looks at the name after the last / then the last \\', () => {
    expect(['a/test_x.py', 'a\\b\\test_x.py', 'x_test.py', 'a/tests/x.py', 'test_x.txt'].map(isTestFile)).toEqual([true, true, true, false, false])
  })
})
