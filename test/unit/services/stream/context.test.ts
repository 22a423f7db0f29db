import {describe, expect, it} from 'vitest'
import {attemptOf} from '../../../../src/model/attempt-of.js'
import type {EraMarker, RunAttempt, TaskRun} from '../../../../src/model/run-record.js'
import type {EraInference} from '../../../../src/replay/types.js'
import {agrees, ContextMiss, createContextReader, USUAL_READS, withReads, type RunContext} from '../../../../src/services/stream/context.js'

/** The run context an attempt's analysis may read ahead of the read (docs/architecture.md "Streaming"). */
const era: EraInference = {profile: 'fixed', window: {from: 'b72e08bf', to: '5c1aea32'}, reason: 'GuardKit between …: stall-error-v2 (from 723e5f4e, 3× e.g. run.log:10)', confidence: 'high', evidence: [{file: 'run.log', line: 10}], modelled: true}
const marker = (id: string, count: number): EraMarker => ({id, count, evidence: [{file: 'run.log', line: count}]})
const context: RunContext = {era, path: 'run.log', feature: null, eraMarkers: [marker('stall-error-v2', 3), marker('tool-input-keys-log', 1)], placement: null}
const attempt = {attempt: 2, taskIds: ['TASK-A']} as unknown as RunAttempt
const tasks = [{taskId: 'TASK-A', attempt: 2}] as unknown as TaskRun[]

describe('the context an attempt\'s analysis reads', () => {
  it('records what was read of the era, the run and its markers', () => {
    const reader = createContextReader(context)
    const view = reader.view(attempt, tasks)
    expect(reader.era.modelled).toBe(true)
    expect(reader.era.window.from).toBe('b72e08bf')
    expect(view.tasks).toBe(tasks)
    expect(view.eraMarkers.some((m) => m.id === 'tool-input-keys-log')).toBe(true)
    expect(attemptOf(view, 2, (a) => a.taskIds.includes('TASK-A'))).toBe(attempt)
    expect(reader.reads()).toEqual({era: ['modelled', 'window'], run: ['eraMarkers'], marker: ['id']})
    expect(reader.missed()).toBeNull()
  })

  it('refuses anything else of the run, and remembers it when the refusal was caught', () => {
    const reader = createContextReader(context)
    const view = reader.view(attempt, tasks)
    expect(() => view.attempts).toThrow(ContextMiss)
    try {
      void view.ingestIssues
    } catch {
      // an analysis that catches errors must not hide the miss
    }
    expect(reader.missed()).toBe('attempts')
    expect(() => ({...view})).toThrow(ContextMiss)
    expect(() => 'tasks' in view).toThrow(ContextMiss)
  })

  it('counts a listing of the era\'s keys as reading all of them', () => {
    const reader = createContextReader(context)
    expect({...reader.era}).toEqual(era)
    expect(reader.reads().era).toContain('*')
  })

  it('agrees on what was read, and only on that', () => {
    const later: RunContext = {...context, era: {...era, reason: 'GuardKit between …: stall-error-v2 (from 723e5f4e, 9× e.g. run.log:10)'}, eraMarkers: [marker('stall-error-v2', 9), marker('tool-input-keys-log', 1)]}
    const ids = {era: ['modelled'], run: ['eraMarkers' as const], marker: ['id']}
    expect(agrees(ids, context, later)).toBe(true)
    expect(agrees(withReads(ids, {era: ['reason'], run: [], marker: []}), context, later)).toBe(false)
    expect(agrees(withReads(ids, {era: [], run: [], marker: ['count']}), context, later)).toBe(false)
    expect(agrees({era: ['*'], run: [], marker: []}, context, later)).toBe(false)
    const newMarker: RunContext = {...context, eraMarkers: [...context.eraMarkers, marker('diagnostic-dump', 1)]}
    expect(agrees(ids, context, newMarker)).toBe(false)
    expect(agrees(USUAL_READS, context, {...context, path: '-'})).toBe(false)
  })

  it('checks the run\'s place on the timeline only when an analysis asked for it (a rule with a guardkit condition)', () => {
    const placed = {from: '2026-04-01', to: null}
    const later: RunContext = {...context, placement: placed}
    const unread = createContextReader(context)
    unread.view(attempt, tasks).eraMarkers.forEach((m) => m.id)
    expect(agrees(withReads(USUAL_READS, unread.reads()), context, later)).toBe(true)
    const read = createContextReader(context)
    expect(read.placement()).toBeNull()
    expect(read.reads().run).toContain('placement')
    expect(agrees(withReads(USUAL_READS, read.reads()), context, later)).toBe(false)
  })
})
