import {describe, expect, it} from 'vitest'
import {parseFeatureYaml} from '../../../../src/ingest/feature/parse-feature-yaml.js'
import {parseTaskFile} from '../../../../src/ingest/tasks/parse-task-file.js'
import {MAX_YAML_DEPTH, parsePyYaml} from '../../../../src/logic/python/py-yaml.js'

// YAML nested past what any GuardKit file holds says so, with its line, instead of the JavaScript
// engine's "Maximum call stack size exceeded".

const flow = (n: number) => `tasks: ${'['.repeat(n)}${']'.repeat(n)}\n`
const block = (n: number) => `${Array.from({length: n}, (_, i) => `${' '.repeat(i)}a:`).join('\n')} 1\n`

describe('YAML nesting', () => {
  it('deeper than the limit, in flow or block style: "nesting deeper than N levels", with the line', () => {
    expect(MAX_YAML_DEPTH).toBe(200)
    for (const [text, line] of [[flow(10_000), 1], [block(1_000), 201]] as const) {
      const r = parsePyYaml(text)
      expect(r).toEqual({ok: false, message: 'nesting deeper than 200 levels', line, column: expect.any(Number)})
    }
  })

  it('a file as deep as GuardKit writes, and block scalars whose text is indented, parse', () => {
    expect(parsePyYaml(block(20)).ok).toBe(true)
    expect(parsePyYaml(flow(50)).ok).toBe(true)
    const scalar = `notes: |\n${Array.from({length: 400}, (_, i) => `  ${' '.repeat(i)}text`).join('\n')}\nid: x\n`
    expect(parsePyYaml(scalar).ok).toBe(true)
    expect(parsePyYaml(`a: "${'['.repeat(500)}"\nb: '${'{'.repeat(500)}'\n# ${'['.repeat(500)}\n`).ok).toBe(true)
  })

  it('the issue a feature file and a task file get says so, with the file\'s line', () => {
    const feature = parseFeatureYaml('.guardkit/features/FEAT-X.yaml', flow(5_000))
    expect(feature.issues).toEqual([expect.objectContaining({code: 'yaml-invalid', line: 1, message: expect.stringMatching(/nesting deeper than 200 levels$/)})])
    const task = parseTaskFile('tasks/backlog/TASK-X-001.md', `---\n${block(300)}---\n# body\n`)
    expect(task.issues).toEqual([expect.objectContaining({code: 'yaml-invalid', line: 202, message: 'invalid YAML in the frontmatter at line 202: nesting deeper than 200 levels; the frontmatter is ignored'})])
  })
})
