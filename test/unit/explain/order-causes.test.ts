import {describe, expect, it} from 'vitest'
import {CAUSE_RULES, linkCauses} from '../../../src/explain/causes.js'
import {detectTaskFindings} from '../../../src/explain/detect-findings.js'
import {draft, type FindingDraft} from '../../../src/explain/draft.js'
import {numberFindings} from '../../../src/explain/order.js'
import {FINDING_CODES, SEVERITY_ORDER, type FindingCode, type Severity} from '../../../src/model/finding.js'
import {familyInput, handInput, loadFixture, taskOf, taskRun} from './helpers.js'

function stub(code: FindingCode, severity: Severity, turns: number[], suffix?: string): FindingDraft {
  return draft(handInput(taskRun()), {
    code, severity, turns, message: code, evidence: [], remediation: '', fixedIn: null, source: {function: 'f', spec: '§0'},
    ...(suffix ? {keySuffix: suffix} : {}),
  })
}

describe('cause → effect rules', () => {
  it('name only contract codes and form no cycle', () => {
    const edges = new Map<FindingCode, Set<FindingCode>>()
    for (const r of CAUSE_RULES) {
      expect(FINDING_CODES).toContain(r.effect)
      for (const c of r.causes) {
        expect(FINDING_CODES).toContain(c)
        if (!edges.has(r.effect)) edges.set(r.effect, new Set())
        edges.get(r.effect)!.add(c)
      }
    }
    const visiting = new Set<FindingCode>()
    const done = new Set<FindingCode>()
    const visit = (code: FindingCode): void => {
      expect(visiting.has(code), `cycle through ${code}`).toBe(false)
      if (done.has(code)) return
      visiting.add(code)
      for (const c of edges.get(code) ?? []) visit(c)
      visiting.delete(code)
      done.add(code)
    }
    for (const code of FINDING_CODES) visit(code)
  })

  it('draws seed 002\'s chain on db-003-timeout: INFRA → FEEDBACK_NOT_ACTIONABLE → STALL_DEFEATED → ENDED_BY_TIMEOUT', async () => {
    const run = await loadFixture('db-003-timeout')
    const drafts = detectTaskFindings(familyInput(run, taskOf(run, 'TASK-DB-003')))
    const byCode = (c: FindingCode) => drafts.find((d) => d.code === c)!
    expect(byCode('FEEDBACK_NOT_ACTIONABLE').causeKeys).toContain(byCode('INFRA_TEST_FAILURE').key)
    expect(byCode('STALL_DEFEATED_BY_VARIABLE_OUTPUT').causeKeys).toContain(byCode('FEEDBACK_NOT_ACTIONABLE').key)
    expect(byCode('ENDED_BY_TIMEOUT_NOT_STALL').causeKeys).toContain(byCode('STALL_DEFEATED_BY_VARIABLE_OUTPUT').key)
    expect(byCode('STALL_WINDOW_BROKEN').causeKeys).toContain(byCode('GATES_SHORT_CIRCUIT').key)
  })

  it('draws the lost-promises chain on ac1a-run2-sft001: AGENT_PROMISES_OVERWRITTEN → ZERO_OF_N_TEXT_MATCH_EMPTY → STALL_FIRED', async () => {
    const run = await loadFixture('ac1a-run2-sft001')
    const drafts = detectTaskFindings(familyInput(run, taskOf(run, 'TASK-SFT-001')))
    const byCode = (c: FindingCode) => drafts.find((d) => d.code === c)!
    expect(byCode('ZERO_OF_N_TEXT_MATCH_EMPTY').causeKeys).toContain(byCode('AGENT_PROMISES_OVERWRITTEN').key)
    expect(byCode('STALL_FIRED').causeKeys).toContain(byCode('ZERO_OF_N_TEXT_MATCH_EMPTY').key)
  })

  it('links only when the turns line up for per-turn rules', () => {
    const linked = linkCauses([stub('INFRA_TEST_FAILURE', 'critical', [1]), stub('FEEDBACK_NOT_ACTIONABLE', 'high', [2])])
    expect(linked[1]!.causeKeys).toEqual([])
  })
})

describe('ids and order', () => {
  // The id scheme: task runs in the run's order, most severe first within each (a streamed report numbers as it goes).
  it('number per task in the run\'s order, most severe first within a task, then turn, and resolve causes to ids', () => {
    const a = linkCauses([stub('STALL_WINDOW_BROKEN', 'low', [2]), stub('GATES_SHORT_CIRCUIT', 'low', [2]), stub('INFRA_TEST_FAILURE', 'critical', [3])])
    const b = [stub('PLAYER_TIMEOUT', 'high', [1]), stub('ORCHESTRATION_CRASH', 'critical', [4])]
    const [fa, fb] = numberFindings([a, b])
    expect(fa!.map((f) => [f.id, f.code])).toEqual([['f1', 'INFRA_TEST_FAILURE'], ['f2', 'GATES_SHORT_CIRCUIT'], ['f3', 'STALL_WINDOW_BROKEN']])
    expect(fb!.map((f) => [f.id, f.code])).toEqual([['f4', 'ORCHESTRATION_CRASH'], ['f5', 'PLAYER_TIMEOUT']])
    expect(fa!.find((f) => f.code === 'STALL_WINDOW_BROKEN')!.causes).toEqual(['f2'])
  })

  it('continue from the id they are given (the next attempt of a streamed run)', () => {
    const [fb] = numberFindings([[stub('PLAYER_TIMEOUT', 'high', [1]), stub('ORCHESTRATION_CRASH', 'critical', [4])]], 7)
    expect(fb!.map((f) => [f.id, f.code])).toEqual([['f7', 'ORCHESTRATION_CRASH'], ['f8', 'PLAYER_TIMEOUT']])
  })

  it('are the same on every run of the same record, and every cause names a finding of the same task', async () => {
    const run = await loadFixture('db-003-timeout')
    const once = () => numberFindings(run.tasks.map((t) => detectTaskFindings(familyInput(run, t))))
    const first = once()
    expect(JSON.stringify(once())).toBe(JSON.stringify(first))
    for (const findings of first) {
      const ids = new Set(findings.map((f) => f.id))
      for (const f of findings) for (const c of f.causes) expect(ids.has(c)).toBe(true)
      const ranks = findings.map((f) => SEVERITY_ORDER.indexOf(f.severity))
      expect([...ranks].sort((x, y) => x - y)).toEqual(ranks)
    }
    const all = first.flat().map((f) => f.id)
    expect(new Set(all).size).toBe(all.length)
    expect(all.map((id) => Number(id.slice(1))).sort((x, y) => x - y)).toEqual(all.map((_, i) => i + 1))
  })
})
