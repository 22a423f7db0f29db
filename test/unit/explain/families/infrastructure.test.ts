import {describe, expect, it} from 'vitest'
import {detectInfrastructureFindings} from '../../../../src/explain/families/infrastructure.js'
import {ev, familyInput, handInput, loadFixture, taskOf, taskRun, turn} from '../helpers.js'

describe('GRAPHITI_CONNECTION_DEGRADED', () => {
  it('counts per kind and per turn, and the turn time they cost when the progress lines carry timestamps', () => {
    const err = (t: number, kind: 'connection' | 'event-loop', at: string) => ({kind: 'graphiti-error' as const, turn: t, errorKind: kind, timestamp: at, evidence: [ev(t * 100)]})
    const task = taskRun({
      turns: [
        turn(1, {startedAt: '2026-02-15T10:00:00', endedAt: '2026-02-15T10:04:00'}),
        turn(2, {startedAt: '2026-02-15T10:04:00', endedAt: '2026-02-15T10:14:00'}),
        turn(3, {startedAt: '2026-02-15T10:14:00', endedAt: '2026-02-15T10:18:00'}),
      ],
      events: [err(2, 'connection', '2026-02-15T10:05:00'), err(2, 'connection', '2026-02-15T10:06:00'), err(2, 'event-loop', '2026-02-15T10:09:30')],
    })
    const [f] = detectInfrastructureFindings(handInput(task))
    expect(f!.detail).toMatchObject({total: 3, byKind: {connection: 2, 'event-loop': 1}, perTurn: [{turn: 2, errors: 3}], turnMinutes: {withErrors: 10, without: 4}})
    // the timestamps are those ingest dates the lines by, not the lines' own: no duration is said from them
    expect(f!.message).not.toMatch(/ over /)
    expect(f!.message).toContain('3 knowledge-graph (Graphiti/FalkorDB) error lines')
  })

  it("counts lines as lines, says which repeat another line's failure, and does not count the circuit breaker as a failure", () => {
    const line = (n: number, errorKind: 'event-loop' | 'other', note: string) => ({kind: 'graphiti-error' as const, turn: 2, errorKind, timestamp: null, evidence: [{...ev(n), note}]})
    const task = taskRun({
      turns: [turn(1), turn(2)],
      events: [
        line(328, 'event-loop', 'Error executing FalkorDB query: <asyncio.locks.Lock object at 0x1 [locked]> is bound to a different event loop'),
        line(376, 'event-loop', 'Search request failed: <asyncio.locks.Lock object at 0x1 [locked]> is bound to a different event loop'),
        line(380, 'event-loop', 'Task exception was never retrieved'),
        line(522, 'other', 'Graphiti disabled after 3 consecutive failures -- continuing without knowledge graph context'),
      ],
    })
    const [f] = detectInfrastructureFindings(handInput(task))
    expect(f!.detail).toMatchObject({total: 3, repeatLines: 2, disabledAtTurn: 2})
    expect(f!.detail!['byKind']).toEqual({'event-loop': 3})
    expect(f!.message).toContain('3 knowledge-graph (Graphiti/FalkorDB) error lines during t2')
    expect(f!.message).toMatch(/2 of them repeat a failure logged on another line/)
    expect(f!.message).toMatch(/the client then stopped after repeated failures \(turn 2\)/)
    expect(f!.message).not.toMatch(/rest of the run/)
    expect(f!.message).not.toMatch(/ over |times/)
  })

  // a circuit breaker that is reset later (`Circuit breaker reset after 362s (half-open)`) did not disable the client for good
  it('does not say the client was disabled for the rest of the run when error lines follow the circuit breaker', () => {
    const line = (n: number, errorKind: 'connection' | 'other', note: string) => ({kind: 'graphiti-error' as const, turn: 2, errorKind, timestamp: null, evidence: [{...ev(n), note}]})
    const task = taskRun({
      turns: [turn(1), turn(2)],
      events: [
        line(700, 'connection', 'Error executing FalkorDB query: Connection refused'),
        line(750, 'other', 'Graphiti disabled after 3 consecutive failures -- continuing without knowledge graph context'),
        line(843, 'connection', 'Error executing FalkorDB query: Connection refused'),
      ],
    })
    const [f] = detectInfrastructureFindings(handInput(task))
    expect(f!.message).toMatch(/the client then stopped after repeated failures \(turn 2\), and error lines follow it \(run\.log:843\), so it was not off for the rest of the run/)
    expect(f!.message).not.toMatch(/disabled for the rest of the run/)
  })

  it('ac1a-run1-pre-acr: present for the task that logged them (turns not pinned: attribution is loose)', async () => {
    const run = await loadFixture('ac1a-run1-pre-acr')
    expect(detectInfrastructureFindings(familyInput(run, taskOf(run, 'TASK-SFT-001'))).map((f) => f.code)).toEqual(['GRAPHITI_CONNECTION_DEGRADED'])
  })
})
