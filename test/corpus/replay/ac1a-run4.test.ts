import {readdirSync, readFileSync} from 'node:fs'
import {describe, expect, it} from 'vitest'
import {inferEra} from '../../../src/replay/index.js'
import {load, replay} from '../../unit/replay/helpers.js'
import {CORPUS} from '../helpers.js'

/**
 * On artifacts/ac1a-run4-partial (five task folders of FEAT-AC1A's February
 * run), the replay under the inferred profile reproduces every recorded Coach verdict exactly. The
 * verdicts are read from the coach_turn_N.json files here: the decision and the criteria verified.
 */
const RUN = `${CORPUS}artifacts/ac1a-run4-partial`
const DIR = `${RUN}/.guardkit/autobuild`

interface Verdict {
  readonly taskId: string
  readonly turn: number
  readonly decision: string
  readonly verified: number
  readonly total: number
  /** task_work_results.json of this turn survives (the file keeps the last turn only, docs/record-formats.md §6.12). */
  readonly lastTurn: boolean
}

function recordedVerdicts(): Verdict[] {
  const out: Verdict[] = []
  for (const taskId of readdirSync(DIR).sort()) {
    const files = readdirSync(`${DIR}/${taskId}`).filter((f) => /^coach_turn_\d+\.json$/.test(f))
    const turns = files.map((f) => Number(/\d+/.exec(f)![0])).sort((a, b) => a - b)
    for (const turn of turns) {
      const report = JSON.parse(readFileSync(`${DIR}/${taskId}/coach_turn_${turn}.json`, 'utf8')) as {
        decision: string
        criteria_verification: {result: string}[]
        validation_results: {requirements: {criteria_total: number}}
      }
      out.push({
        taskId, turn, decision: report.decision,
        verified: report.criteria_verification.filter((c) => c.result === 'verified').length,
        total: report.validation_results.requirements.criteria_total,
        lastTurn: turn === turns.at(-1),
      })
    }
  }
  return out
}

describe('ac1a-run4-partial under the inferred profile', () => {
  const verdicts = recordedVerdicts()

  it('is placed at 723e5f4e: promises written back (D11), the legacy skipped-tests wording (D18), dated 2026-02-15', async () => {
    const era = inferEra(await load(RUN))
    expect(era.profile).toBe('as-run:723e5f4e')
    expect(era.modelled).toBe(true)
    expect(era.confidence).toBe('high')
  })

  it('holds eight recorded Coach verdicts in five task folders', () => {
    expect(verdicts).toHaveLength(8)
  })

  it.each(verdicts.map((v) => [`${v.taskId} turn ${v.turn}: ${v.decision} ${v.verified}/${v.total}`, v] as const))('reproduces %s', async (_, v) => {
    const run = await load(RUN)
    const task = run.tasks.find((t) => t.taskId === v.taskId)!
    const replayed = replay(run, task, 'as-run:723e5f4e')
    const turn = replayed.turns.find((t) => t.turn === v.turn)!
    expect(turn.decision).toBe(v.decision)
    expect(turn.criteriaMet).toBe(v.verified)
    expect(turn.criteriaTotal).toBe(v.total)
    expect(turn.detail.coach.source).toBe('validated')
    expect(turn.detail.differences).toEqual([])
    // validate() ran on the recorded files; an earlier turn's overwritten results file is rebuilt, but the code that
    // ran reproduces the recorded verdict from it, so nothing missing changed it: exact (docs/counterfactuals.md,
    // "the record reproduced"), the rebuilt file named as an assumption, not a missing input.
    expect(turn.fidelity).toBe('exact')
    expect(turn.missingInputs).toEqual([])
    if (!v.lastTurn) expect(turn.assumptions.some((a) => a.startsWith(`task_work_results.json of turn ${v.turn} rebuilt`))).toBe(true)
  })

  it('ends every task approved, as the last Coach report says', async () => {
    const run = await load(RUN)
    for (const task of run.tasks) {
      const replayed = replay(run, task, 'as-run:723e5f4e')
      expect(replayed.outcome).toMatchObject({kind: 'replayed', outcome: 'approved'})
    }
  })
})
