import {describe, expect, it} from 'vitest'
import type {EraMarker} from '../../../src/model/run-record.js'
import {ERAS, placeRun} from '../../../src/replay/era-timeline.js'
import {runRecord, taskRun} from '../explain/helpers.js'

const marker = (id: string, count = 1): EraMarker => ({id, count, evidence: [{file: 'run.log', line: 10}]})
const place = (...ids: string[]) => placeRun(runRecord([], {eraMarkers: ids.map((id) => marker(id))}))

/** The timeline of docs/era-markers.md: each era's records place a run in it. */
describe('placing a run on the GuardKit timeline', () => {
  it('covers December 2025 to August 2026, each era after the one before', () => {
    expect(ERAS[0]!.from).toBe('2025-12-01')
    expect(ERAS.at(-1)!.end).toBe('August 2026')
    for (let i = 1; i < ERAS.length; i++) expect(ERAS[i]!.from > ERAS[i - 1]!.to!).toBe(true)
  })

  it('places the first AutoBuild by its orchestrator settings', () => {
    expect(place('orchestrator-init-v1', 'waves-without-task-timeout')).toMatchObject({label: 'December 2025 – January 2026', confidence: 'high'})
  })

  it('places checkpoints without a stall detector in late January – early February', () => {
    expect(place('orchestrator-init-v2', 'pollution-window-2')?.label).toBe('late January 2026 – early February 2026')
  })

  it('places the stall detector with untimestamped progress in February', () => {
    expect(place('orchestrator-init-v4', 'stall-error-v2', 'progress-without-timestamps')?.label).toBe('February 2026')
  })

  it('places timestamped progress and turn budgets in March – May, the LangGraph harness in June, evidence bundles in July – August', () => {
    expect(place('progress-timestamps', 'timeout-budget')?.label).toBe('March 2026 – August 2026')
    expect(place('progress-timestamps', 'llm-coach', 'langgraph-harness')).toMatchObject({label: 'June 2026 – August 2026', name: expect.stringContaining('LangGraph harness')})
    expect(place('coach_evidence_turn.v1', 'llm-coach')?.label).toBe('July 2026 – August 2026')
  })

  it('caps the era with the date the records carry, and names what placed it', () => {
    const checkpoints = {file: 'cp.json', json: {checkpoints: [{timestamp: '2026-06-04T10:00:00'}]}, schema: 'checkpoints.v2', seenAt: null}
    const task = taskRun({taskArtifacts: {checkpoints, turnContext: null, specialistResults: null, stateTransitions: null, phase4Summary: null, others: []}})
    const p = placeRun(runRecord([task], {eraMarkers: [marker('progress-timestamps', 12), marker('llm-coach', 2)]}))
    expect(p).toMatchObject({label: 'June 2026', confidence: 'high'})
    expect(p?.basis).toEqual(['llm-coach (2× e.g. run.log:10)', 'dated 2026-06-04'])
    expect(p?.evidence).toContainEqual({file: 'cp.json', pointer: '/checkpoints/0/timestamp'})
  })

  it('sets aside a marker that contradicts the rest, and says so', () => {
    const p = placeRun(runRecord([], {eraMarkers: [marker('llm-coach', 5), marker('langgraph-harness', 3), marker('orchestrator-init-v1', 1)]}))
    expect(p?.confidence).toBe('low')
    expect(p?.basis.at(-1)).toBe('set aside as contradicting the rest: orchestrator-init-v1')
  })

  it('places nothing without a marker or a date', () => {
    expect(place()).toBeNull()
    expect(place('some-unknown-marker')).toBeNull()
  })
})
