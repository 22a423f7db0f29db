import {describe, expect, it} from 'vitest'
import {parseGuardkitConfig} from '../../../../src/ingest/feature/parse-config-yaml.js'
import {parseFeatureYaml} from '../../../../src/ingest/feature/parse-feature-yaml.js'

const FEATURE = `id: FEAT-AOF
name: AutoBuild Observability Fixes
status: failed
tasks:
- id: TASK-FIX-IA03
  complexity: 3
  implementation_mode: task-work
  result:
    total_turns: 1
    final_decision: approved
    error: null
- id: TASK-FIX-GD02
  complexity: 6
orchestration:
  parallel_groups:
  - - TASK-FIX-IA03
`

describe('parseFeatureYaml', () => {
  it('keeps the raw YAML, names the era, and lists the task ids', () => {
    const r = parseFeatureYaml('.guardkit/features/FEAT-AOF.yaml', FEATURE)
    expect(r.issues).toEqual([])
    expect(r.taskIds).toEqual(['TASK-FIX-IA03', 'TASK-FIX-GD02'])
    expect(r.record).toMatchObject({featureId: 'FEAT-AOF', file: '.guardkit/features/FEAT-AOF.yaml', schema: 'feature_yaml.v1'})
    expect((r.record!.yaml as {tasks: unknown[]}).tasks[0]).toMatchObject({result: {final_decision: 'approved'}})
  })

  it('tells the June era by its markers', () => {
    expect(parseFeatureYaml('f.yaml', FEATURE + 'preflight_strict: true\nsmoke_gates:\n  command: make smoke\n').record?.schema).toBe('feature_yaml.v2')
  })

  it('a wrong type is a warning with a JSON pointer into the YAML', () => {
    const r = parseFeatureYaml('f.yaml', FEATURE.replace('total_turns: 1', 'total_turns: one'))
    expect(r.issues).toEqual([expect.objectContaining({pointer: '/tasks/0/result/total_turns', code: 'json-shape', severity: 'warning'})])
    expect(r.record).not.toBeNull()
  })

  it('invalid YAML is an error with its line, and no record', () => {
    const r = parseFeatureYaml('f.yaml', 'id: FEAT-X\ntasks: [\n')
    expect(r.record).toBeNull()
    expect(r.issues).toEqual([expect.objectContaining({file: 'f.yaml', code: 'yaml-invalid', severity: 'error', line: expect.any(Number)})])
  })

  it('a YAML that is not a mapping is an error', () => {
    expect(parseFeatureYaml('f.yaml', '- a\n').issues).toEqual([expect.objectContaining({code: 'yaml-shape', pointer: ''})])
  })
})

describe('parseGuardkitConfig', () => {
  it('keeps every key', () => {
    expect(parseGuardkitConfig('.guardkit/config.yaml', 'autobuild:\n  max_turns: 5\n')).toEqual({config: {autobuild: {max_turns: 5}}, issues: []})
    expect(parseGuardkitConfig('.guardkit/config.yaml', '')).toEqual({config: {}, issues: []})
  })

  it('reports invalid YAML and a non-mapping', () => {
    expect(parseGuardkitConfig('c.yaml', 'a: [\n').issues).toEqual([expect.objectContaining({code: 'yaml-invalid'})])
    expect(parseGuardkitConfig('c.yaml', '- 1\n').issues).toEqual([expect.objectContaining({code: 'yaml-shape'})])
  })
})
