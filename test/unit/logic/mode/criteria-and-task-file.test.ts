import {readFileSync} from 'node:fs'
import {describe, expect, it} from 'vitest'
import {extractAcceptanceCriteria, loadYaml, parseFrontmatter, parseTaskFile} from '../../../../src/logic/mode/index.js'
import {builtinProfile} from '../../../../src/logic/profiles.js'

const legacy = builtinProfile('legacy')!.flags
const fixed = builtinProfile('fixed')!.flags
/** FEAT-AC1A's TASK-SFT-001 as fixtures/runs/ac1a-run2-sft001 holds it (its criteria as the recorded run's task file words them). */
const SFT_001 = new URL('../../../../fixtures/runs/ac1a-run2-sft001/tasks/design_approved/TASK-SFT-001-scaffolding.md', import.meta.url)

// Expected values: docs/guardkit-logic.md §9.3 (prose examples verified at both pins), CPython 3.11 for str.lstrip and
// PyYAML 6 (SafeLoader) for YAML scalars, the corpus log for FEAT-AC1A.
describe('TaskLoader._extract_acceptance_criteria (docs/guardkit-logic.md §9.3)', () => {
  it('FEAT-AC1A TASK-SFT-001: legacy counts the 4 nested sub-bullets (10 criteria), fixed only the 6 top-level ones', () => {
    const text = readFileSync(SFT_001, 'utf8')
    const old = parseTaskFile(text, 'TASK-SFT-001-scaffolding.md', legacy).acceptance_criteria
    const now = parseTaskFile(text, 'TASK-SFT-001-scaffolding.md', fixed).acceptance_criteria
    expect(old).toHaveLength(10)
    expect(now).toHaveLength(6)
    expect(old[2]).toBe('`graphiti_mock_client` — AsyncMock that records upsert calls (protocol-level mock, not function mock)')
    expect(now[1]).toBe('`tests/seam/conftest.py` provides shared fixtures:')
    expect(now[2]).toBe('`pytest.ini` or `pyproject.toml` registers `@pytest.mark.seam` marker')
  })
  it('skips a repeated header, which does not end the section', () => {
    expect(extractAcceptanceCriteria('  ## Acceptance Criteria  \n- a\n## acceptance criteria\n- b', {}, fixed)).toEqual(['a', 'b'])
    expect(extractAcceptanceCriteria('  ## Acceptance Criteria  \n- a\n## acceptance criteria\n- b', {}, legacy)).toEqual(['a', 'b'])
  })
  it('ends at an unindented ## or ### line, not at an indented one', () => {
    expect(extractAcceptanceCriteria('## Acceptance Criterion\n- a\n  ## not a header\n- b\n### Sub\n- c', {}, fixed)).toEqual(['a', 'b'])
  })
  it('lets a frontmatter list or string win; null or a mapping falls through to the body', () => {
    expect(extractAcceptanceCriteria('## Acceptance Criteria\n- body', {acceptance_criteria: []}, fixed)).toEqual([])
    expect(extractAcceptanceCriteria('## Acceptance Criteria\n- body', {acceptance_criteria: 'one'}, fixed)).toEqual(['one'])
    expect(extractAcceptanceCriteria('## Acceptance Criteria\n- body', {acceptance_criteria: null}, fixed)).toEqual(['body'])
    expect(extractAcceptanceCriteria('## Acceptance Criteria\n- body', {acceptance_criteria: {a: 1}}, fixed)).toEqual(['body'])
  })
  it('strips character sets, not prefixes', () => {
    const body = '## Acceptance Criteria\n- [X] Upper\n* **Bold** item\n- [ ] [ ] twice'
    expect(extractAcceptanceCriteria(body, {}, legacy)).toEqual(['X] Upper', 'Bold** item', 'twice'])
    expect(extractAcceptanceCriteria(body, {}, fixed)).toEqual(['X] Upper', 'Bold** item', 'twice'])
  })
  it('falls back to the one-item placeholder', () => {
    expect(extractAcceptanceCriteria('## Acceptance Criteria\nplain text only', {}, fixed)).toEqual(['No acceptance criteria specified'])
  })
})

describe('python-frontmatter with PyYAML scalars', () => {
  it('resolves plain scalars as PyYAML SafeLoader does', () => {
    const cases: [string, unknown][] = [
      ['1e3', '1e3'], ['y', 'y'], ['n', 'n'], ['03', 3], ['0x3', 3], ['3.9', 3.9], ['1_0', 10], ['on', true], ['Off', false],
      ['09', '09'], ['1:30', 90], ['1.5e+1', 15], ['.5', 0.5], ['~', null], ['"3"', '3'], ['+3', 3], ['0o3', '0o3'], ['1.0e3', '1.0e3'],
    ]
    for (const [src, value] of cases) expect((loadYaml(`c: ${src}`) as Record<string, unknown>)['c'], src).toEqual(value)
  })
  it('splits the front matter at the first two --- lines and strips the body', () => {
    expect(parseFrontmatter('\n---\nid: TASK-1\ncomplexity: 2\n---  \n\n# Title\n---\nmore\n')).toEqual({metadata: {id: 'TASK-1', complexity: 2}, content: '# Title\n---\nmore'})
    expect(parseFrontmatter('# No front matter\n')).toEqual({metadata: {}, content: '# No front matter'})
    expect(parseFrontmatter('---\nonly one boundary')).toEqual({metadata: {}, content: '---\nonly one boundary'})
    expect(parseFrontmatter('---\n- a list\n---\nbody')).toEqual({metadata: {}, content: 'body'})
  })
  it('reads task files in text mode: CRLF line ends do not leak into criteria', () => {
    const task = parseTaskFile('---\r\ncomplexity: 3\r\n---\r\n## Acceptance Criteria\r\n- [ ] one\r\n- [ ] two\r\n', 'TASK-1.md', fixed)
    expect(task.frontmatter).toEqual({complexity: 3})
    expect(task.acceptance_criteria).toEqual(['one', 'two'])
  })
})
