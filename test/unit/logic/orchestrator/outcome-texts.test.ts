import {describe, expect, it} from 'vitest'
import {collectingSink} from '../../../../src/logic/log-sink.js'
import {buildErrorMessage, buildSummaryDetails, featureTaskTimeout, type NumberedTurn} from '../../../../src/logic/orchestrator/index.js'
import {FIXED, LEGACY} from './helpers.js'

const fb = (turn: number, feedback: string | null): NumberedTurn => ({turn, decision: 'feedback', feedback, playerResult: null, coachResult: null})
const SDK_HINT =
  'Suggested action: Stall caused by SDK API errors — check ANTHROPIC_BASE_URL configuration and SDK model name compatibility (see vllm-serve.sh SERVED_MODEL_NAME).'

// Expected values: docs/guardkit-logic.md §8.7 (the outcome table and its examples).
describe('_build_error_message (docs/guardkit-logic.md §8.7)', () => {
  it('names max turns and the pre-loop block', () => {
    expect(buildErrorMessage('max_turns_exceeded', [fb(1, 'x')], 7)).toBe('Maximum turns (7) exceeded without approval')
    expect(buildErrorMessage('pre_loop_blocked', [], 5)).toBe('Pre-loop quality gates blocked execution')
  })
  it("prefers the Coach's error when a Coach result exists", () => {
    const turn: NumberedTurn = {turn: 2, decision: 'error', feedback: null, playerResult: {success: true, report: {}, error: 'player'}, coachResult: {success: false, report: null, error: 'coach'}}
    expect(buildErrorMessage('error', [fb(1, 'x'), turn], 5)).toBe('coach')
  })
})

describe('_build_summary_details (docs/guardkit-logic.md §8.7)', () => {
  it('fixed hints at SDK API errors when fewer than 3 feedbacks exist and all mention one', () => {
    const turns = [fb(1, '- SDK API error: x'), fb(2, '- SDK API error: y')]
    expect(buildSummaryDetails('unrecoverable_stall', turns, 5, '/wt', FIXED).split('\n').at(-1)).toBe(SDK_HINT)
    expect(buildSummaryDetails('unrecoverable_stall', turns, 5, '/wt', LEGACY)).not.toContain('SDK API errors')
  })
  it('looks only at the last 3 non-empty feedbacks, all of which must match', () => {
    const older = [fb(1, '- Coverage'), fb(2, '- SDK API error: a'), fb(3, ''), fb(4, '- SDK API error: b'), fb(5, '- SDK API error: c')]
    expect(buildSummaryDetails('unrecoverable_stall', older, 5, '/wt', FIXED).split('\n').at(-1)).toBe(SDK_HINT)
    const mixed = [fb(1, '- SDK API error: a'), fb(2, '- Coverage'), fb(3, '- SDK API error: b')]
    expect(buildSummaryDetails('unrecoverable_stall', mixed, 5, '/wt', FIXED).split('\n').at(-1)).toBe(
      'Suggested action: Review task_type classification and acceptance criteria.',
    )
  })
  it('prints the max-turns text and the Coach error of a critical error turn', () => {
    expect(buildSummaryDetails('max_turns_exceeded', [fb(1, 'x')], 9, '/wt', FIXED)).toBe(
      'Maximum turns (9) reached without approval.\nWorktree preserved for inspection.\nReview implementation and provide manual guidance.',
    )
    const err: NumberedTurn = {turn: 1, decision: 'error', feedback: null, playerResult: {success: true, report: {}, error: null}, coachResult: {success: false, report: null, error: 'Unexpected error: y'}}
    expect(buildSummaryDetails('error', [err], 5, '/wt', LEGACY)).toBe('Critical error on turn 1:\nUnexpected error: y\nWorktree preserved for debugging.')
  })
})

describe('FeatureOrchestrator task timeout (docs/guardkit-logic.md §8.7)', () => {
  it('records timeout with 0 turns and the minutes by floor division', () => {
    expect(featureTaskTimeout('TASK-DB-006', 4800, collectingSink())).toEqual({
      final_decision: 'timeout',
      success: false,
      total_turns: 0,
      error: 'Task TASK-DB-006 timed out after 4800s (80 min)',
    })
    expect(featureTaskTimeout('T', 119, collectingSink()).error).toBe('Task T timed out after 119s (1 min)')
  })
})

describe('FeatureOrchestrator task timeout with a float timeout', () => {
  it('prints the float and its floor division as Python does (CPython: f"{2400.5}s ({2400.5 // 60} min)")', () => {
    expect(featureTaskTimeout('T', 2400.5, collectingSink()).error).toBe('Task T timed out after 2400.5s (40.0 min)')
  })
})
