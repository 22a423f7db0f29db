import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {detectInfrastructureFindings} from '../../../../src/explain/families/infrastructure.js'
import {CORPUS_LOGS, corpusLog, ev, familyInput, handInput, loadFixture, taskOf, taskRun, turn} from '../helpers.js'

const ERROR_MARK = /different (event )?loop|no running event loop|Event loop is closed|[Cc]onnection (error|refused|reset)|Task was destroyed|ConnectionError|timed out connecting|Graphiti disabled after/

/** Every evidence line of the finding must be a log line that itself shows a knowledge-graph error (independent of ingest). */
function expectEvidenceOnErrorLines(logName: string, evidence: readonly {file: string; line?: number}[]): void {
  const lines = readFileSync(join(CORPUS_LOGS, logName), 'utf8').split('\n')
  expect(evidence.length).toBeGreaterThan(0)
  for (const e of evidence) expect(lines[e.line! - 1], `${logName}:${e.line}`).toMatch(ERROR_MARK)
}

describe('GRAPHITI_CONNECTION_DEGRADED on the real FalkorDB error records', () => {
  it('run_1.log (FEAT-AC1A run 1, seed 003): lock-bound-to-another-loop, connection and no-running-loop errors', async () => {
    const run = await corpusLog('run_1.log')
    const found = run.tasks.flatMap((t) => detectInfrastructureFindings(familyInput(run, t)))
    expect(found.length).toBeGreaterThan(0)
    const kinds = new Set(found.flatMap((f) => Object.keys(f.detail!['byKind'] as object)))
    expect(kinds).toContain('event-loop')
    expect(kinds).toContain('no-running-loop')
    expect(found.every((f) => f.confidence === 'certain' && f.fixedIn === null)).toBe(true)
    for (const f of found) expectEvidenceOnErrorLines('run_1.log', f.evidence)
    // The log holds more "bound to a different event loop" lines than one task keeps: the detail counts the rest.
    const logged = readFileSync(join(CORPUS_LOGS, 'run_1.log'), 'utf8').split('\n').filter((l) => /^(WARNING|ERROR):.*different event loop/.test(l)).length
    const counted = found.reduce((n, f) => n + (f.detail!['total'] as number), 0)
    expect(counted).toBeGreaterThan(0)
    expect(logged).toBeGreaterThan(0)
  })

  it('autobuild-FEAT-AOF-run-14.log: FalkorDB query errors in turn 2', async () => {
    const run = await corpusLog('autobuild-FEAT-AOF-run-14.log')
    const [f] = run.tasks.flatMap((t) => detectInfrastructureFindings(familyInput(run, t)))
    expect(f!.turns).toContain(2)
    expectEvidenceOnErrorLines('autobuild-FEAT-AOF-run-14.log', f!.evidence)
  })

  it('is not raised by INFO-level FalkorDB records (autobuild-FOREGE-FEAT-005-fails-1.log: pre-flight passed, workarounds applied)', async () => {
    const run = await corpusLog('autobuild-FOREGE-FEAT-005-fails-1.log')
    expect(run.tasks.flatMap((t) => detectInfrastructureFindings(familyInput(run, t)))).toEqual([])
  })

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
    expect(f!.message).toContain('over 4.5 min')
  })

  it('ac1a-run1-pre-acr: present for the task that logged them (turns not pinned: attribution is loose)', async () => {
    const run = await loadFixture('ac1a-run1-pre-acr')
    expect(detectInfrastructureFindings(familyInput(run, taskOf(run, 'TASK-SFT-001'))).map((f) => f.code)).toEqual(['GRAPHITI_CONNECTION_DEGRADED'])
  })
})
