import {describe, expect, it} from 'vitest'
import {builtinCatalogue} from '../../../../src/explain/diagnosis/catalogue/builtin.js'
import {guardkitChanges, spanOf} from '../../../../src/explain/diagnosis/guardkit-changes.js'
import {ERAS, type EraPlacement} from '../../../../src/replay/era-timeline.js'
import {signalsOf} from './signal-harness.js'

const placedIn = (id: string): EraPlacement => {
  const era = ERAS.find((e) => e.id === id)!
  return {first: era, last: era, label: era.start, name: era.name, basis: [], evidence: [], confidence: 'high'}
}

describe('what the run\'s GuardKit had, for the catalogue\'s guardkit conditions (docs/signals.md)', () => {
  it('reads a change from the as-run profile inside the modelled window (seed 000\'s fixes landed at 723e5f4e)', () => {
    expect(guardkitChanges('as-run:b2fee34d', null)('recoverAgentPromises')).toBe(true)
    expect(guardkitChanges('pre-acr', null)('recoverAgentPromises')).toBe(false)
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

  it('stays what it was before the condition when the era cannot tell', () => {
    expect(ruleOf(null)).toContain('pipeline-data-loss.report-rebuilt-without-promises')
  })
})
