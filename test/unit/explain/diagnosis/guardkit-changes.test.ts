import {readFileSync} from 'node:fs'
import {describe, expect, it} from 'vitest'
import {builtinCatalogue} from '../../../../src/explain/diagnosis/catalogue/builtin.js'
import {commitWindowOf, guardkitChanges, spanOf} from '../../../../src/explain/diagnosis/guardkit-changes.js'
import {ERAS, type EraPlacement} from '../../../../src/replay/era-timeline.js'
import {signalsOf} from './signal-harness.js'
import {createMemoryPort, memoryTree} from '../../../helpers/memory-port.js'
import {analyseToJson} from '../../../helpers/recording.js'

const placedIn = (id: string): EraPlacement => {
  const era = ERAS.find((e) => e.id === id)!
  return {first: era, last: era, label: era.start, name: era.name, basis: [], evidence: [], confidence: 'high'}
}

describe('what the run\'s GuardKit had, for the catalogue\'s guardkit conditions (docs/signals.md)', () => {
  // 723e5f4e is the fourth commit of the modelled window (docs/logic-changes.md): pre-acr 28534d78, 98ee6962, the legacy pin f86b1bf9, 723e5f4e
  it('reads a change from the commit window the run\'s markers allow inside the modelled window (seed 000\'s fixes landed at 723e5f4e)', () => {
    expect(guardkitChanges({from: '723e5f4e', to: '5c1aea32'}, null)('recoverAgentPromises')).toBe(true)
    expect(guardkitChanges({from: 'de1ce9b8', to: 'de1ce9b8'}, null)('recoverAgentPromises')).toBe(true)
    expect(guardkitChanges({from: null, to: '28534d78'}, null)('recoverAgentPromises')).toBe(false)
    expect(guardkitChanges({from: '98ee6962', to: 'f86b1bf9'}, null)('recoverAgentPromises')).toBe(false)
  })

  it('cannot tell when the window holds commits on both sides of the change, though the as-run profile (its newest commit) has it', () => {
    expect(guardkitChanges({from: null, to: '5c1aea32'}, null)('recoverAgentPromises')).toBeNull()
    expect(guardkitChanges({from: 'f86b1bf9', to: '723e5f4e'}, null)('recoverAgentPromises')).toBeNull()
  })

  it('takes the window from an era inside the modelled window that markers bound, and none from one outside it', () => {
    expect(commitWindowOf({modelled: true, profile: 'fixed', window: {from: null, to: '5c1aea32'}})).toEqual({from: null, to: '5c1aea32'})
    expect(commitWindowOf({modelled: true, profile: null, window: {from: null, to: null}})).toBeNull()
    expect(commitWindowOf({modelled: false, profile: null, window: {from: '5c1aea32', to: null}})).toBeNull()
  })

  it('reads it from the run\'s place on the timeline outside the window, and says it cannot tell otherwise', () => {
    expect(guardkitChanges(null, spanOf(placedIn('langgraph')))('recoverAgentPromises')).toBe(true)
    expect(guardkitChanges(null, spanOf(placedIn('feature-build')))('recoverAgentPromises')).toBe(false)
    // February 2026 holds commits before and after the change
    expect(guardkitChanges(null, spanOf(placedIn('stall-detection')))('recoverAgentPromises')).toBeNull()
    expect(guardkitChanges(null, null)('recoverAgentPromises')).toBeNull()
  })
})

describe('a report GuardKit rebuilt from task_work_results.json, with the Coach matching against nothing', () => {
  const line = 'INFO:guardkit.orchestrator.agent_invoker:Created Player report from task_work_results.json for TASK-ABC-001 turn 1'
  const ruleOf = (has: boolean | null) => signalsOf([line], builtinCatalogue(), (flag) => (flag === 'recoverAgentPromises' ? has : null)).classified.map((c) => c.rule.id)

  it('is the agent\'s report without promises where GuardKit takes over the agent\'s promises (seed 000 Fix 2), lost promises where it does not', () => {
    expect(ruleOf(true)).toContain('agent-report.rebuilt-report-without-agent-promises')
    expect(ruleOf(true)).not.toContain('pipeline-data-loss.report-rebuilt-without-promises')
    expect(ruleOf(false)).toContain('pipeline-data-loss.report-rebuilt-without-promises')
  })

  it('names both branches, with category unknown, when the era cannot tell: neither side\'s rule applies', () => {
    expect(ruleOf(null)).toEqual(['pipeline.rebuilt-report-promises-undecided'])
    expect(ruleOf(true)).not.toContain('pipeline.rebuilt-report-promises-undecided')
    expect(ruleOf(false)).not.toContain('pipeline.rebuilt-report-promises-undecided')
    const rule = builtinCatalogue().rules.find((r) => r.id === 'pipeline.rebuilt-report-promises-undecided')!
    expect(rule.category).toBe('unknown')
    expect(rule.means).toMatch(/Before 723e5f4e.*from 723e5f4e/s)
  })
})

describe('the whole analysis of a rebuilt report whose era may or may not have had the fix (fixtures/runs/ac1a-run2-sft001-no-agent-report)', () => {
  const log = readFileSync(new URL('../../../../fixtures/runs/ac1a-run2-sft001-no-agent-report/run.log', import.meta.url), 'utf8')
  const diagnosisOf = async (text: string) => {
    const report = await analyseToJson('/run', createMemoryPort(memoryTree('/run', {'run.log': text})))
    return report.tasks.find((t) => t.taskId === 'TASK-SFT-001')!.diagnosis!.primary
  }

  it('is promises lost on the way where the legacy stall error (before 723e5f4e) places GuardKit before the fix', async () => {
    expect((await diagnosisOf(log)).category).toBe('pipeline-data-loss')
  })

  it('names both branches, not the as-run profile\'s, where nothing bounds the window below the fix', async () => {
    // the stall error's legacy wording is the one marker that ends the window before 723e5f4e
    const legacyStall = /^ERROR:guardkit\.orchestrator\.autobuild:Feedback stall detected for .*0% criteria progress.*$/m
    expect(log).toMatch(legacyStall)
    const primary = await diagnosisOf(log.replace(legacyStall, 'INFO:guardkit.orchestrator.autobuild:Exiting loop early.'))
    expect(primary.category).toBe('unknown')
    expect(primary.summary).toContain('lost by GuardKit or never written by the agent')
  })
})
