import {describe, expect, it} from 'vitest'
import {parseTaskFile} from '../../../../src/ingest/tasks/parse-task-file.js'
import {parsePyYaml} from '../../../../src/logic/python/py-yaml.js'

const TASK = `---
id: TASK-SFT-001
title: Create tests/seam/
complexity: 2
implementation_mode: task-work
autobuild_state:
  current_turn: 1
  turns:
  - turn: 1
    decision: feedback
    feedback: "- Not all acceptance criteria met"
---

# Create tests/seam/

## Acceptance Criteria

- [ ] \`tests/seam/\` exists
- [ ] fixtures:
  - \`cli_runner\`
`

describe('parseTaskFile', () => {
  it('splits frontmatter and body, keeps the raw text, and finds the task id', () => {
    const r = parseTaskFile('tasks/backlog/TASK-SFT-001-scaffolding.md', TASK)
    expect(r.issues).toEqual([])
    expect(r.taskId).toBe('TASK-SFT-001')
    expect(r.record.frontmatter).toMatchObject({id: 'TASK-SFT-001', complexity: 2, implementation_mode: 'task-work', autobuild_state: {turns: [{turn: 1, decision: 'feedback'}]}})
    expect(r.record.body.startsWith('\n# Create tests/seam/')).toBe(true)
    expect(r.record.text).toBe(TASK)
    expect(r.keyLines).toMatchObject({id: 2, title: 3, complexity: 4, implementation_mode: 5, autobuild_state: 6})
  })

  it('takes the id from the file name when the frontmatter has none', () => {
    expect(parseTaskFile('tasks/completed/TASK-GI-001/TASK-GI-001.md', '# x').taskId).toBe('TASK-GI-001')
    expect(parseTaskFile('tasks/backlog/TASK-GR-PRE-000-A-add-metadata.md', '# x').taskId).toBe('TASK-GR-PRE-000-A')
    expect(parseTaskFile('tasks/backlog/notes.md', '# x').taskId).toBeNull()
  })

  it('a file without frontmatter is all body, with no issue', () => {
    const r = parseTaskFile('tasks/backlog/TASK-A-1.md', '# Title\n\n## Acceptance Criteria\n- [ ] a\n')
    expect(r).toMatchObject({issues: [], record: {frontmatter: {}, body: '# Title\n\n## Acceptance Criteria\n- [ ] a\n'}})
  })

  it('invalid YAML in the frontmatter is a warning with the file line; the body is still read', () => {
    const r = parseTaskFile('t/TASK-A-1.md', '---\nid: TASK-A-1\ntitle: [unclosed\n---\nbody\n')
    expect(r.issues).toEqual([expect.objectContaining({file: 't/TASK-A-1.md', line: 3, code: 'yaml-invalid', severity: 'warning'})])
    expect(r.record.frontmatter).toEqual({})
    expect(r.record.body).toBe('body\n')
  })

  it('an unclosed frontmatter is reported and the whole file read as body', () => {
    const r = parseTaskFile('t/TASK-A-1.md', '---\nid: TASK-A-1\n# no end\n')
    expect(r.issues).toEqual([expect.objectContaining({line: 1, code: 'frontmatter-unclosed'})])
    expect(r.record.body).toBe('---\nid: TASK-A-1\n# no end\n')
  })

  it('a frontmatter that is not a mapping is ignored with a warning', () => {
    expect(parseTaskFile('t/TASK-A-1.md', '---\n- a\n- b\n---\nx').issues).toEqual([expect.objectContaining({code: 'yaml-shape'})])
  })

  it('a wrong type in a known key is a warning at that key\'s line', () => {
    const r = parseTaskFile('t/TASK-A-1.md', '---\nid: TASK-A-1\nautobuild_state:\n  turns: 3\n---\nx')
    expect(r.issues).toEqual([expect.objectContaining({line: 3, pointer: '/autobuild_state/turns', code: 'json-shape'})])
  })
})

describe('parsePyYaml: PyYAML safe_load semantics (checked with PyYAML 6 on CPython 3.11)', () => {
  it('resolves scalars as YAML 1.1 does in PyYAML', () => {
    const r = parsePyYaml('a: yes\nb: on\nc: y\nd: n\ne: 010\nf: 0x1F\ng: 1_000\nh: ~\ni: 3.0\nj: 1e3\nl: 12:30\n')
    expect(r).toEqual({ok: true, value: {a: true, b: true, c: 'y', d: 'n', e: 8, f: 31, g: 1000, h: null, i: 3, j: '1e3', l: 750}})
  })

  it('keeps timestamps as written, duplicate keys as the last, aliases resolved', () => {
    expect(parsePyYaml('m: 2025-12-11T19:45:00Z\nn: 2026-01-01\na: 1\na: 2\nx: &r [1]\ny: *r\n')).toEqual({ok: true,
      value: {m: '2025-12-11T19:45:00Z', n: '2026-01-01', a: 2, x: [1], y: [1]}})
  })

  it('reports the line of an error', () => {
    expect(parsePyYaml('a: [1,\nb: 2')).toMatchObject({ok: false, line: 2})
    expect(parsePyYaml('x: 1\na: b: c')).toMatchObject({ok: false, line: 2})
  })

  it('reads a !!binary value as bytes (PyYAML: b\'hello\'), also from its cache (found by the CLI fuzzer)', () => {
    for (let i = 0; i < 2; i++) {
      const r = parsePyYaml('id: TASK-X-001\nstatus: !!binary aGVsbG8=')
      expect(r.ok).toBe(true)
      const status = (r as {value: {status: unknown}}).value.status
      expect(status).toBeInstanceOf(Uint8Array)
      expect(Buffer.from(status as Uint8Array).toString('latin1')).toBe('hello')
    }
  })
})
