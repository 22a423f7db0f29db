import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {detectBoundaryFindings} from '../../../src/explain/families/boundaries.js'
import {detectInfrastructureFindings} from '../../../src/explain/families/infrastructure.js'
import {detectPipelineFindings} from '../../../src/explain/families/pipeline.js'
import {detectStallFindings} from '../../../src/explain/families/stall.js'
import {detectTestFindings} from '../../../src/explain/families/tests.js'
import {familyInput, loadFixture, taskOf} from '../../unit/explain/helpers.js'
import {CORPUS_LOGS} from '../helpers.js'

/** The finding families on real logs: each case's hand-built twin is in test/unit/explain/families/. */
const corpusLog = (name: string) => loadFixture(join(CORPUS_LOGS, name))

const ERROR_MARK = /different (event )?loop|no running event loop|Event loop is closed|[Cc]onnection (error|refused|reset)|Task was destroyed|ConnectionError|timed out connecting|Graphiti disabled after/

/** Every evidence line of the finding must be a log line that itself shows a knowledge-graph error (independent of ingest). */
function expectEvidenceOnErrorLines(logName: string, evidence: readonly {file: string; line?: number}[]): void {
  const lines = readFileSync(join(CORPUS_LOGS, logName), 'utf8').split('\n')
  expect(evidence.length).toBeGreaterThan(0)
  for (const e of evidence) expect(lines[e.line! - 1], `${logName}:${e.line}`).toMatch(ERROR_MARK)
}

describe('PLAYER_TIMEOUT', () => {
  it('finds the SDK timeouts and state recoveries of the real FEAT-GI log', async () => {
    const run = await corpusLog('FEAT-GI.log')
    const found = run.tasks.flatMap((t) => detectBoundaryFindings(familyInput(run, t)).filter((f) => f.code === 'PLAYER_TIMEOUT'))
    expect(found.length).toBeGreaterThan(0)
    expect(found.some((f) => /state recovery/.test(f.message))).toBe(true)
  })
})

describe('STALL_FIRED, CONTEXT_POLLUTION_STALL and STALL_ON_CORRECT_WORK', () => {
  it('tells a pollution stop from a feedback stall (the real unrecoverable_stall_output.log, TASK-DM-008)', async () => {
    const run = await corpusLog('unrecoverable_stall_output.log')
    const codes = detectStallFindings(familyInput(run, taskOf(run, 'TASK-DM-008'))).map((f) => f.code)
    expect(codes).toContain('CONTEXT_POLLUTION_STALL')
    expect(codes).not.toContain('STALL_FIRED')
  })
  it('is not inferred from a recovered-promises count when the stalled turns failed their tests (db_another_fail.log)', async () => {
    const run = await corpusLog('db_another_fail.log')
    expect(detectStallFindings(familyInput(run, taskOf(run, 'TASK-DB-003'))).map((f) => f.code)).not.toContain('STALL_ON_CORRECT_WORK')
  })
  it('is certain when an earlier turn had every criterion verified but was rejected for something else (db_failed_2.log: zero-test anomaly)', async () => {
    const run = await corpusLog('db_failed_2.log')
    const f = detectStallFindings(familyInput(run, taskOf(run, 'TASK-DB-003'))).find((x) => x.code === 'STALL_ON_CORRECT_WORK')
    expect(f!.confidence).toBe('certain')
    expect(f!.turns).toEqual([5])
    expect(f!.detail).toMatchObject({verifiedByCoach: true, criteria: 6})
    expect(f!.fixedIn).toBeNull()
  })
})

describe('ZERO_TEST_ANOMALY', () => {
  it('reports ZERO_TEST_ANOMALY from the Coach\'s zero-test rejections in the real db_failed_2.log', async () => {
    const run = await corpusLog('db_failed_2.log')
    const f = run.tasks.flatMap((t) => detectTestFindings(familyInput(run, t))).find((x) => x.code === 'ZERO_TEST_ANOMALY')
    expect(f).toBeDefined()
    expect(f!.turns.length).toBeGreaterThan(0)
    expect(f!.confidence).toBe('certain')
  })
})

describe('GRAPHITI_CONNECTION_DEGRADED on the real FalkorDB error records', () => {
  it('run_1.log (FEAT-AC1A run 1, seed 003): lock-bound-to-another-loop and connection errors; the no-running-loop errors of the shutdown stay with the run', async () => {
    const run = await corpusLog('run_1.log')
    const found = run.tasks.flatMap((t) => detectInfrastructureFindings(familyInput(run, t)))
    expect(found.length).toBeGreaterThan(0)
    const kinds = new Set(found.flatMap((f) => Object.keys(f.detail!['byKind'] as object)))
    expect(kinds).toContain('event-loop')
    // logged after every task's `Orchestration complete` (the client's teardown): no task's (docs/ingest.md "Signals")
    expect(kinds).not.toContain('no-running-loop')
    expect(run.attempts.flatMap((a) => a.signals ?? []).some((s) => s.text.includes('no running event loop'))).toBe(true)
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
})

describe('FILE_TRACKING_KEY_MISMATCH', () => {
  const logsWithKeys = readdirSync(CORPUS_LOGS).filter((f) => readFileSync(join(CORPUS_LOGS, f), 'utf8').includes('ToolUseBlock'))

  it('the corpus has logs with ToolUseBlock key records, and every one of those records names file_path', () => {
    expect(logsWithKeys.length).toBeGreaterThan(5)
    for (const f of logsWithKeys) {
      const lines = readFileSync(join(CORPUS_LOGS, f), 'utf8').split('\n').filter((l) => /ToolUseBlock \w+ input keys:/.test(l))
      for (const l of lines) expect(l).toContain("'file_path'")
    }
  })
  it.each(logsWithKeys)('is never reported on %s, whose input keys show file_path', async (name) => {
    const run = await corpusLog(name)
    for (const task of run.tasks) expect(detectPipelineFindings(familyInput(run, task)).map((f) => f.code)).not.toContain('FILE_TRACKING_KEY_MISMATCH')
  })
})
