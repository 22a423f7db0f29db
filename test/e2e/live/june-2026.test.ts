import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {runCli} from '../../helpers/cli.js'
import {jsonEvents, root, runCliProcess, SIM, removeTempDirs, tempDir} from './helpers.js'

afterAll(removeTempDirs)

/**
 * `live` on today's GuardKit: the simulator (fixtures/sim) plays the authored June 2026 run of
 * fixtures/ingest/eras/jun-2026-langgraph (the LangGraph harness, the LLM Coach, timestamped progress,
 * the era's artifacts) as a real process; `live --json` follows it through real pipes and file
 * watching. The facts are the fixture's (its expected.yaml and README.md).
 */
describe('live over a June 2026 (LangGraph harness) run', () => {
  it('follows its turns and outcomes, warns while the failing task still runs, and ends with the analyze report of its recording', async () => {
    const dir = tempDir()
    const record = join(dir, 'rec')
    const sim = [process.execPath, SIM, join(root, 'fixtures/ingest/eras/jun-2026-langgraph'), '--worktree', join(dir, 'wt'), '--speed', '100']
    const live = await runCliProcess(['live', '--json', '--record', record, '--time-scale', '100', '--', ...sim], {cwd: dir})
    expect(live.code, live.stderr).toBe(0)
    const events = jsonEvents(live.stdout)

    const turns = events.filter((e) => e.type === 'turn').map((e) => `${e.taskId} ${e.turn} ${e.decision} ${e.criteriaMet}/${e.criteriaTotal}`)
    expect(turns).toEqual(['TASK-J6A-002 1 approve 3/3', 'TASK-J6A-001 1 feedback 0/4', 'TASK-J6A-001 2 error null/null'])
    const outcomes = events.filter((e) => e.type === 'outcome').map((e) => `${e.taskId} ${e.outcome} ${e.turns}`)
    expect(outcomes).toEqual(['TASK-J6A-002 approved 1', 'TASK-J6A-001 error 2'])

    // early warnings: raised for the failing task before its outcome, never before their evidence
    const ended = events.findIndex((e) => e.type === 'outcome' && e.taskId === 'TASK-J6A-001')
    const warnings = events.map((e, i) => ({e, i})).filter(({e}) => e.type === 'warning')
    expect(warnings.filter(({e, i}) => e.taskId === 'TASK-J6A-001' && i < ended).length).toBeGreaterThan(0)
    for (const {e} of warnings) expect(e.seenAtTurn).toBeGreaterThanOrEqual(e.turn)

    // the final report names the era once and replays nothing; it is analyze --json of the recording
    const last = events.at(-1)!
    expect(last.type).toBe('report')
    expect(last.report.run.era).toMatchObject({label: 'June 2026', name: 'LangGraph harness', replayed: false})
    expect(last.report.profiles).toEqual([])
    const analyze = await runCli(['analyze', record, '--json'])
    expect(analyze.error).toBeUndefined()
    expect(`${JSON.stringify(last.report, null, 2)}\n`).toBe(analyze.stdout)
  }, 180_000)
})
