import {describe, expect, it} from 'vitest'
import {collectingSink, NULL_SINK} from '../../../../src/logic/log-sink.js'
import {autoDetectDirectMode, estimatedMinutes, getImplementationMode, parseTaskString, taskFlagMode, tasksJsonMode} from '../../../../src/logic/mode/index.js'
import {builtinProfile} from '../../../../src/logic/profiles.js'
import {createVirtualWorktree} from '../../../../src/logic/worktree.js'

const legacy = builtinProfile('legacy')!.flags
const fixed = builtinProfile('fixed')!.flags
const detect = (frontmatter: Record<string, unknown>, content = '', flags = fixed) => autoDetectDirectMode('TASK-1', {frontmatter, content}, flags, NULL_SINK).mode

// Expected values: docs/guardkit-logic.md §9 (rules and prose), CPython 3.11 for int(), re.findall and float pow.
describe('_auto_detect_direct_mode (docs/guardkit-logic.md §9.2, D17)', () => {
  it('takes complexity through Python int()', () => {
    expect(detect({complexity: 3.9, title: 'x'})).toBe('direct')
    expect(detect({complexity: true, title: 'x'})).toBe('direct')
    expect(detect({complexity: ' \uff13 ', title: 'x'})).toBe('direct')
    expect(detect({complexity: '3.0', title: 'x'})).toBe('task-work')
    expect(detect({complexity: null, title: 'x'})).toBe('task-work')
    expect(detect({complexity: 4, title: 'x'})).toBe('task-work')
  })
  it('matches high-risk keywords as substrings of title and body', () => {
    expect(detect({complexity: 1, title: 'Typo'}, 'Touches the session cache')).toBe('task-work')
    expect(detect({complexity: 1, title: 'Paginate'}, '')).toBe('direct')
    expect(detect({complexity: 1, title: 'Update'}, 'Capitalize headings')).toBe('task-work') // "capitalize" ⊃ "api"
  })
  it('counts checkboxes with re.MULTILINE: ^ follows only \\n, \\s* crosses lines, only lower-case x', () => {
    expect(detect({complexity: 3, title: 'x'}, '-\n[ ] a')).toBe('direct') // one match
    expect(detect({complexity: 3, title: 'x'}, '\n\n\n- [ ] a\n\n- [ ] b')).toBe('task-work') // two
    expect(detect({complexity: 3, title: 'x'}, '\u2028- [ ] a\r- [ ] b')).toBe('direct') // \r does not start a line
    expect(detect({complexity: 3, title: 'x'}, '  -  [x] a\n\t-\t[ ]b')).toBe('task-work')
    expect(detect({complexity: 3, title: 'x'}, '  -  [x] a\n\t-\t[ ]b', legacy)).toBe('direct')
  })
  it('ignores a one-item frontmatter list in favour of the body count', () => {
    expect(detect({complexity: 3, title: 'x', acceptance_criteria: ['a']}, 'no boxes')).toBe('direct')
    expect(detect({complexity: 3, title: 'x', acceptance_criteria: ['a', 'b']}, '')).toBe('task-work')
  })
  it('logs the auto-detection at INFO on the invoker logger', () => {
    const sink = collectingSink()
    autoDetectDirectMode('TASK-RK01-003', {frontmatter: {complexity: '3', title: 'Graphiti config'}, content: ''}, legacy, sink)
    expect(sink.records).toEqual([
      {level: 'INFO', logger: 'guardkit.orchestrator.agent_invoker', message: '[TASK-RK01-003] Auto-detected direct mode (complexity=3, no high-risk keywords)'},
    ])
  })
})

describe('generate_feature_yaml (docs/guardkit-logic.md §9.1)', () => {
  it('estimates minutes as int(15 * 1.5 ** (complexity - 1))', () => {
    const cpython = [2, 4, 6, 10, 15, 22, 33, 50, 75, 113, 170, 256, 384, 576, 864, 1297, 1946, 2919, 4378]
    expect(cpython.map((_, i) => estimatedMinutes(i - 3))).toEqual(cpython)
    expect(() => estimatedMinutes(1752)).toThrow("OverflowError: (34, 'Numerical result out of range')")
    expect(() => estimatedMinutes(1750)).toThrow('OverflowError: cannot convert float infinity to integer')
  })
  it('parses ID:NAME:COMPLEXITY:DEPS, applying the AC guard only when the count is passed', () => {
    expect(parseTaskString('T:N:3:A, B,,', fixed, 2)).toEqual({id: 'T', name: 'N', complexity: 3, implementation_mode: 'task-work', dependencies: ['A', 'B'], estimated_minutes: 33})
    expect(parseTaskString('T:N: 2 :', legacy).complexity).toBe(2)
    expect(() => parseTaskString('T:N:x:', legacy)).toThrow("ValueError: invalid literal for int() with base 10: 'x'")
  })
  it('--task strings stay complexity-only even in fixed; --tasks-json counts the criteria', () => {
    expect(taskFlagMode('TASK-RK01-003:Graphiti config:3:', fixed)).toBe('direct')
    expect(tasksJsonMode({complexity: 3, acceptance_criteria: ['a', 'b']}, fixed)).toBe('task-work')
    expect(tasksJsonMode({complexity: 3, acceptance_criteria: ['a', 'b']}, legacy)).toBe('direct')
    expect(tasksJsonMode({acceptance_criteria: []}, fixed)).toBe('task-work')
    expect(() => tasksJsonMode({complexity: '3'}, fixed)).toThrow("TypeError: '<=' not supported between instances of 'str' and 'int'")
  })
})

describe('_get_implementation_mode (docs/guardkit-logic.md §9.2)', () => {
  const file = (fm: string, body = '') => `---\n${fm}\n---\n${body}`
  it('lets an explicit frontmatter mode win, any other truthy value meaning task-work', () => {
    const wt = createVirtualWorktree({root: '/wt', files: {
      'tasks/backlog/TASK-A-x.md': file('implementation_mode: direct\ncomplexity: 8'),
      'tasks/backlog/TASK-B-x.md': file('implementation_mode: yes\ncomplexity: 1'),
    }})
    expect(getImplementationMode('TASK-A', wt, fixed, NULL_SINK).mode).toBe('direct')
    expect(getImplementationMode('TASK-B', wt, fixed, NULL_SINK)).toMatchObject({mode: 'task-work', source: {kind: 'frontmatter', value: true}})
  })
  it('searches backlog before in_progress, so TASK-1 can pick TASK-10; completed is not searched', () => {
    const wt = createVirtualWorktree({root: '/wt', files: {
      'tasks/backlog/TASK-10-other.md': file('complexity: 8'),
      'tasks/in_progress/TASK-1-mine.md': file('complexity: 1\ntitle: Typo'),
      'tasks/completed/TASK-2-done.md': file('complexity: 1\ntitle: Typo'),
    }})
    const r = getImplementationMode('TASK-1', wt, fixed, NULL_SINK)
    expect(r.task?.file_path).toBe('tasks/backlog/TASK-10-other.md')
    expect(r.mode).toBe('task-work')
    expect(getImplementationMode('TASK-2', wt, fixed, NULL_SINK)).toMatchObject({mode: 'task-work', source: {kind: 'task-not-found'}})
  })
  it('auto-detects from the task file: seed 001 TASK-RK01-003, complexity 3 with 4 criteria', () => {
    const body = '## Acceptance Criteria\n- [ ] one\n- [ ] two\n- [ ] three\n- [ ] four\n'
    const wt = createVirtualWorktree({root: '/wt', files: {'tasks/backlog/TASK-RK01-003-graphiti-config.md': file('complexity: 3\ntitle: Create Graphiti configuration template', body)}})
    expect(getImplementationMode('TASK-RK01-003', wt, legacy, NULL_SINK).mode).toBe('direct')
    expect(getImplementationMode('TASK-RK01-003', wt, fixed, NULL_SINK)).toMatchObject({mode: 'task-work', source: {kind: 'auto-detect', reason: {kind: 'many-criteria', acCount: 4}}})
  })
  it('falls back to task-work on invalid front matter', () => {
    const wt = createVirtualWorktree({root: '/wt', files: {'tasks/backlog/TASK-1.md': '---\ncomplexity: [1\n---\nbody'}})
    expect(getImplementationMode('TASK-1', wt, fixed, NULL_SINK)).toMatchObject({mode: 'task-work', source: {kind: 'error'}})
  })
})
