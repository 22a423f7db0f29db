import {describe, expect, it} from 'vitest'
import {decideTurn, extractFeedback, feedbackProgressLine} from '../../../../src/logic/orchestrator/index.js'

// Expected values: docs/guardkit-logic.md §8.3 pseudo-code; code-point slicing per docs/guardkit-logic.md §3.1 (checked with CPython).
describe('_extract_feedback (docs/guardkit-logic.md §8.3)', () => {
  it('falls back to the rationale, or a default text, when there are no issues', () => {
    expect(extractFeedback({issues: [], rationale: 'All good'})).toBe('All good')
    expect(extractFeedback({})).toBe('No specific feedback provided')
    expect(extractFeedback({rationale: null})).toBeNull()
  })
  it('cuts missing criteria at 100 code points, not UTF-16 units', () => {
    const text = '😀'.repeat(120)
    const out = extractFeedback({issues: [{description: 'D', missing_criteria: [text]}]})
    expect(out).toBe(`- D:\n  • ${'😀'.repeat(100)}`)
  })
  it('prints a missing description as Python would format None', () => {
    expect(extractFeedback({issues: [{description: null}]})).toBe('- None')
  })
})

describe('the decision part of _execute_turn (docs/guardkit-logic.md §8.2)', () => {
  const player = {success: true, report: {}, error: null}
  it('approves on decision approve, gives feedback otherwise, and errs without a successful Coach', () => {
    expect(decideTurn(player, {success: true, report: {decision: 'approve'}, error: null})).toMatchObject({decision: 'approve', feedback: null})
    expect(decideTurn(player, {success: true, report: {issues: [{description: 'Coverage threshold not met'}]}, error: null})).toMatchObject({
      decision: 'feedback',
      feedback: '- Coverage threshold not met',
    })
    expect(decideTurn(player, {success: false, report: null, error: 'Unexpected error: y'}).decision).toBe('error')
  })
  it('previews feedback at 80 code points', () => {
    expect(feedbackProgressLine('x'.repeat(81))).toBe(`Feedback: ${'x'.repeat(80)}...`)
    expect(feedbackProgressLine('x'.repeat(80))).toBe(`Feedback: ${'x'.repeat(80)}`)
  })
})
