import {describe, expect, it} from 'vitest'
import {renderCriteria} from '../../../../src/render/text/criteria.js'
import {textOptions} from '../../../../src/render/text/text-options.js'
import {emptyTurnDetail, type CoachStep, type TurnDetail} from '../../../../src/replay/types.js'

/** A turn whose decision is the recorded one (only log records of it exist), stopped at `step`. */
function recordedTurn(step: CoachStep): TurnDetail {
  const d = emptyTurnDetail()
  return {...d, coach: {...d.coach, source: 'recorded-log', step, notValidatedBecause: 'only log records of this turn exist'}}
}

const text = (lines: readonly string[]) => lines.join(' ').replace(/\s+/g, ' ')

describe('explain: the criteria of a turn the model did not re-check (docs/guardkit-logic.md §6.1)', () => {
  const o = textOptions({width: 200})

  it('a zero-test rejection whose log records `Criteria Progress (Turn 1): 6/6 verified` quotes the counts and never says they were not evaluated', () => {
    // the requirements step runs before the zero-test check: GuardKit checked the criteria, and logged 6/6
    const out = text(renderCriteria(recordedTurn('zero-test-anomaly'), o, '', {met: 6, total: 6, where: 'run.log:127'}))
    expect(out).not.toContain('not evaluated')
    expect(out).toContain('GuardKit logged 6/6 criteria verified (run.log:127)')
  })

  it('with no counts recorded, says the records hold none, not that GuardKit did not check them', () => {
    const out = text(renderCriteria(recordedTurn('zero-test-anomaly'), o, '', null))
    expect(out).not.toContain('not evaluated')
    expect(out).toContain('the records hold no criteria counts for this turn')
  })

  it('a recorded stop before the requirements step (failed quality gates) says so, citing the step order', () => {
    const out = text(renderCriteria(recordedTurn('quality-gates'), o, '', null))
    expect(out).toContain("stops at quality-gates, before validate()'s requirements step (docs/guardkit-logic.md §6.1)")
  })
})
