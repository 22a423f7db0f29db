import {describe, expect, it} from 'vitest'
import {buildAnalysisReport} from '../../../../src/render/json/build-analysis-report.js'
import {buildReport} from '../../../../src/render/json/build-report.js'
import {ReportSchema} from '../../../../src/render/json/report.js'
import {db003Report, zeroOfNReport} from '../analysis-builders.js'

describe('analyze --json document (docs/json-schema.md, schemaVersion 1)', () => {
  it('validates against the exported schema and keeps the contract key order', () => {
    const doc = buildAnalysisReport(db003Report())
    ReportSchema.parse(doc)
    expect(Object.keys(doc).slice(0, 5)).toEqual(['schemaVersion', 'tool', 'run', 'ingestIssues', 'tasks'])
    const task = doc.tasks[2]!
    expect(Object.keys(task).slice(0, 7)).toEqual(['taskId', 'attempt', 'mode', 'recorded', 'replay', 'diagnosis', 'findings'])
    expect(Object.keys(task.findings![0]!).slice(0, 13)).toEqual(['code', 'category', 'severity', 'confidence', 'turns', 'message', 'evidence', 'reproduce', 'remediation', 'fixedIn', 'causes', 'id', 'source'])
    expect(Object.keys(task.diagnosis!)).toEqual(['primary', 'contributing', 'confidence'])
    expect(Object.keys(task.diagnosis!.primary)).toEqual(['category', 'findingId', 'summary', 'evidence'])
    expect(Object.keys(task.replay!.fixed!).slice(0, 4)).toEqual(['outcome', 'stallTurn', 'turns', 'missingInputs'])
    expect(Object.keys(task.replay!.fixed!.turns[0]!).slice(0, 6)).toEqual(['turn', 'decision', 'criteriaMet', 'criteriaTotal', 'signature', 'fidelity'])
  })

  it('names the inferred profile and why', () => {
    const doc = buildAnalysisReport(db003Report())
    expect(doc.run.inferredProfile).toEqual({name: 'as-run:351c53fa', reason: 'stall-error-v1 wording and ToolUseBlock key records, no synthetic-direct log line'})
    expect(buildAnalysisReport(zeroOfNReport()).run.inferredProfile).toBeNull()
  })

  it('writes each replay outcome as the contract string, with the stall turn and per-turn fidelity', () => {
    const [db1, , db3] = buildAnalysisReport(db003Report()).tasks
    expect(db3!.replay!.fixed).toMatchObject({outcome: 'unrecoverable_stall', stallTurn: 5, outcomeKind: 'replayed', endTurn: 5})
    expect(db3!.replay!.legacy).toMatchObject({outcome: 'cancelled (recorded)', stallTurn: null, outcomeKind: 'recorded-boundary', endTurn: 18, outcomeEvidence: [{file: 'run.log', line: 1423}]})
    expect(db1!.replay!.legacy).toMatchObject({outcome: 'undetermined after turn 1', endTurn: null, missingInputs: ['what the Player would do after a rejected turn 1']})
    expect(db3!.replay!.fixed!.turns[4]).toMatchObject({turn: 5, decision: 'feedback', criteriaMet: 0, criteriaTotal: 6, signature: '82511af6', fidelity: 'approximate', assumptions: ['feedback rebuilt from log categories; test results held as recorded']})
    expect(db3!.replay!.fixed!.turns[4]!.stall).toMatchObject({fired: true, threshold: 3, window: [{turn: 3, signature: '82511af6', count: 0}, {turn: 4, signature: '82511af6', count: 0}, {turn: 5, signature: '82511af6', count: 0}]})
    expect(db3!.replay!.fixed!.turns[0]).not.toHaveProperty('detail')
  })

  it('carries every finding field, the verdict, the whatif and the feature picture', () => {
    const doc = buildAnalysisReport(db003Report())
    const db3 = doc.tasks[2]!
    expect(db3.findings!.find((f) => f.id === 'f2')).toEqual({
      code: 'STALL_DEFEATED_BY_VARIABLE_OUTPUT',
      category: 'loop-control',
      severity: 'high',
      confidence: 'certain',
      turns: [3, 4, 5],
      message: 'Same feedback category for 15 turns but the md5 signatures never repeated; normalised signatures would have stopped at turn 5.',
      evidence: [{file: 'run.log', line: 357}],
      reproduce: 'guardkit-replay explain fixtures/runs/db-003-timeout --task TASK-DB-003 --turn 1',
      remediation: 'do something',
      fixedIn: {flags: ['stallNormalize'], commit: '5c2b5d82'},
      causes: ['f3'],
      id: 'f2',
      source: {function: 'AutoBuildOrchestrator._is_feedback_stalled', spec: '§8.4'},
    })
    // docs/json-schema.md: the diagnosis names its finding; the deciding line keeps its text; approved tasks have none
    expect(db3.diagnosis).toEqual({
      primary: {category: 'test-environment', findingId: 'f1', summary: expect.stringMatching(/^test-environment: /), evidence: [{file: 'run.log', line: 357, text: 'Independent test verification failed for TASK-DB-003 (classification=infrastructure)'}]},
      contributing: [{category: 'loop-control', findingIds: ['f2', 'f3']}, {category: 'timeout', findingIds: ['f4']}],
      confidence: 'certain',
    })
    expect(doc.tasks[0]!.diagnosis).toBeNull()
    expect(db3.findings!.find((f) => f.id === 'f6')!.deduction).toBe('the absolute and relative paths name the same file under the worktree')
    expect(db3.verdict).toMatchObject({ok: false, happened: 'cancelled at turn 18 (feature task timeout, 2400 s)', waste: {shouldHaveStoppedAt: 5, turnsWasted: 13}})
    expect(db3.whatif?.flips).toEqual([{flags: ['stallNormalize'], outcome: 'unrecoverable_stall', changesAtTurn: 5, fidelity: 'approximate'}])
    expect(doc.feature?.timeouts).toEqual([{taskId: 'TASK-DB-003', seconds: 2400, turn: 18, evidence: [{file: 'run.log', line: 1404}]}])
    expect(doc.profiles?.map((p) => p.name)).toEqual(['as-run:351c53fa', 'legacy', 'fixed'])
  })

  it('keeps the recorded part identical to the inspect document', () => {
    const report = db003Report()
    const doc = buildAnalysisReport(report)
    const inspect = buildReport(report.run, report.tool)
    expect(doc.ingestIssues).toEqual(inspect.ingestIssues)
    doc.tasks.forEach((t, i) => {
      const {replay: _r, diagnosis: _d, findings: _f, verdict: _v, whatif: _w, ...rest} = t
      expect(rest).toEqual(inspect.tasks[i])
    })
  })

  it('narrows to one task and turn with the replay detail for explain', () => {
    const report = zeroOfNReport()
    const doc = buildAnalysisReport(report, {tasks: [report.tasks[0]!], turn: 1, turnDetail: true, focus: {command: 'explain', taskId: 'TASK-AUTH-002', attempt: 1, turn: 1, profiles: ['legacy', 'fixed']}})
    ReportSchema.parse(doc)
    const fixed = doc.tasks[0]!.replay!.fixed!.turns[0]!
    expect(fixed.detail?.coach).toMatchObject({source: 'validated', step: 'requirements', requirements: {strategy: 'hybrid'}})
    expect(fixed.detail?.differences).toEqual([{field: 'criteriaMet', recorded: 0, replayed: 1, evidence: [{file: 'run.log', line: 84}]}])
    expect(doc.focus).toEqual({command: 'explain', taskId: 'TASK-AUTH-002', attempt: 1, turn: 1, profiles: ['legacy', 'fixed']})
  })
})
