import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {expect} from 'vitest'
import {runCli} from '../../helpers/cli.js'
import {runIncident} from './helpers.js'

/**
 * Each seed incident replayed by the simulator as a real GuardKit-like process, driven through
 * `live --json` with real pipes and real file watching. The table is what the seeds say the
 * build showed, turn by turn (fixtures/runs/<incident>/README.md and expected.yaml); `turn` is the
 * turn whose records hold the evidence. Each warning must also be raised while its task still runs
 * (before the task's `outcome` event) and not before its evidence turn (`seenAtTurn` ≥ turn). Both are
 * orders of events, not durations: how soon within the run a warning comes depends on how loaded the
 * machine is (at 100× a turn is a second or two of clock), which turn it names does not.
 *
 * - ZERO_OF_N_TEXT_MATCH_EMPTY, SYNTHETIC_*, INFRA_TEST_FAILURE, ABSOLUTE_RELATIVE_DUPLICATES,
 *   PROMISES_LOST_ACROSS_TURNS: the first of the finding's turns in the incident's expected.yaml — turn
 *   1, except ae7e (seed 004), whose turn 1 stopped at the quality gates and whose promises were
 *   lost in turn 2, where 0/6 begins.
 * - STALL_DEFEATED_BY_VARIABLE_OUTPUT is seen on db-003's turn 4 (turns 3 and 4: raw deaab5ff and
 *   7e14c185, normalised 82511af6, fixtures/runs/db-003-timeout/README.md), a turn before the finding's
 *   three-turn window; from log excerpts only (the log-only capture) the finding gives it at turn 5 (turns 3-5).
 * - ENDED_BY_TIMEOUT_NOT_STALL (half of the 2400 s task timeout gone with 0 criteria verified) is read
 *   on the build's own clock, the task file's autobuild_state: ac1a-run1 started 09:55:45, so the mark
 *   is 10:15:45, and turn 2 ended 10:02:11, turn 3 10:20:33 → turn 3; db-003 started 14:00:41, mark
 *   14:20:41, turn 8 ended 14:20:16, turn 9 14:22:33 → turn 9. The log-only capture has no times:
 *   the session clock decides, on the simulator's timeline (96 s turns, fixtures/sim/timeline.ts):
 *   DB-003 starts at 91.8 s, the mark is 1291.8 s, inside turn 12 (1250.7-1346.7 s), 41 s after its
 *   start and 55 s before the next one; at 50× that is 0.8 s and 1.1 s of clock either side.
 */
export const SPEED = 100

export const TABLE: {incident: string; speed?: number; warnings: Record<string, Record<string, number>>}[] = [
  {incident: 'ac1a-run1-pre-acr', warnings: {'TASK-SFT-001': {ZERO_OF_N_TEXT_MATCH_EMPTY: 1, ENDED_BY_TIMEOUT_NOT_STALL: 3}, 'TASK-SFT-002': {}}},
  {incident: 'ac1a-run2-sft001', warnings: {'TASK-SFT-001': {ZERO_OF_N_TEXT_MATCH_EMPTY: 1}}},
  {incident: 'ae7e-promise-loss', warnings: {'TASK-USR-003': {PROMISES_LOST_ACROSS_TURNS: 2, ZERO_OF_N_TEXT_MATCH_EMPTY: 2}}},
  {
    incident: 'db-003-timeout',
    warnings: {
      'TASK-DB-003': {INFRA_TEST_FAILURE: 1, ABSOLUTE_RELATIVE_DUPLICATES: 1, STALL_DEFEATED_BY_VARIABLE_OUTPUT: 4, ENDED_BY_TIMEOUT_NOT_STALL: 9},
      'TASK-DB-001': {},
      'TASK-DB-002': {},
    },
  },
  {
    incident: 'db-003-timeout-log-only',
    speed: 50,
    warnings: {'TASK-DB-003': {INFRA_TEST_FAILURE: 1, ABSOLUTE_RELATIVE_DUPLICATES: 1, STALL_DEFEATED_BY_VARIABLE_OUTPUT: 5, ENDED_BY_TIMEOUT_NOT_STALL: 12}},
  },
  {incident: 'rk01-003-direct-mode', warnings: {'TASK-RK01-003': {SYNTHETIC_REPORT_WITHOUT_PROMISES: 1, SYNTHETIC_FLAG_MISSING: 1, ZERO_OF_N_TEXT_MATCH_EMPTY: 1}}},
  {incident: 'ok-approved-after-feedback', warnings: {'TASK-HC-002': {}}},
]

/** runCli captures process.stdout while it runs: concurrent tests take turns. */
let cliTurn: Promise<unknown> = Promise.resolve()
function analyzeJson(record: string): ReturnType<typeof runCli> {
  const next = cliTurn.then(() => runCli(['analyze', record, '--json']))
  cliTurn = next.catch(() => undefined)
  return next
}

/** Runs one row of the table and checks it, and that the final report is `analyze --json` of the recording. */
export async function checkIncident(incident: string): Promise<void> {
  const row = TABLE.find((r) => r.incident === incident)!
  const run = await runIncident(incident, row.speed ?? SPEED)
  expect(run.code, run.stderr).toBe(0)
  const expected = Object.fromEntries(Object.entries(row.warnings).filter(([, codes]) => Object.keys(codes).length > 0))
  expect(run.table).toEqual(expected)
  for (const [i, w] of run.events.entries()) {
    if (w.type !== 'warning') continue
    expect(w.seenAtTurn, `${w.code} raised before its evidence`).toBeGreaterThanOrEqual(w.turn)
    const ended = run.events.findIndex((e) => e.type === 'outcome' && e.taskId === w.taskId && e.attempt === w.attempt)
    expect(ended === -1 || i < ended, `${w.taskId} ${w.code} raised only after the task ended`).toBe(true)
  }

  // the last object is the final report: byte for byte the document analyze prints for the recording
  const last = run.events.at(-1)!
  expect(last.type).toBe('report')
  const analyze = await analyzeJson(run.record)
  expect(analyze.error).toBeUndefined()
  expect(`${JSON.stringify(last.report, null, 2)}\n`).toBe(analyze.stdout)
  expect(readFileSync(join(run.record, 'guardkit-replay.json'), 'utf8')).toContain('"createdBy": "live"')
}
