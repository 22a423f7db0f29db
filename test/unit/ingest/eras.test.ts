import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {describe, expect, it} from 'vitest'
import {parse} from 'yaml'
import type {TaskRun} from '../../../src/model/run-record.js'
import {inferEra} from '../../../src/replay/era.js'
import {placeRun} from '../../../src/replay/era-timeline.js'
import {loadRunContent} from '../../../src/services/load-run.js'

/**
 * The era fixtures (fixtures/ingest/eras, docs/fixtures.md "Era fixtures"): authored runs in each GuardKit era's
 * record formats, with the facts read off them by hand (expected.yaml). The recorded facts must be read in every
 * era: outcome, turn count, per-turn decision and criteria, the Player's and the Coach's errors, events; and the run
 * placed in its era.
 */
const root = fileURLToPath(new URL('../../../fixtures/ingest/eras/', import.meta.url))
const fixtures = readdirSync(root).filter((d) => !d.startsWith('_') && existsSync(`${root}${d}/expected.yaml`)).sort()

interface ExpectedTurn {
  decision?: string | null
  criteria?: string
  playerError?: string
  coachError?: string
}

interface Expected {
  era: {label: string; modelled: boolean}
  attempts?: number
  issues?: {code: string; line?: number}[]
  tasks: {
    taskId: string
    attempt: number
    outcome: string | null
    turnCount: number | null
    error?: string
    turns?: Record<string, ExpectedTurn>
    events?: {kind: string; turn?: number | null; detail?: string}[]
  }[]
}

function runRoot(dir: string): string {
  return existsSync(`${root}${dir}/run.log`) && !existsSync(`${root}${dir}/.guardkit`) ? `${root}${dir}/run.log` : `${root}${dir}`
}

const eventKind = (e: TaskRun['events'][number]) => (e.kind === 'other' ? e.name : e.kind)

describe.each(fixtures)('era fixture %s', (dir) => {
  const expected = parse(readFileSync(`${root}${dir}/expected.yaml`, 'utf8')) as Expected

  it('reads the recorded facts of every task run', async () => {
    const run = await loadRunContent(runRoot(dir))
    if (expected.attempts !== undefined) expect(run.attempts.length).toBe(expected.attempts)
    for (const issue of expected.issues ?? []) expect(run.ingestIssues).toContainEqual(expect.objectContaining(issue))
    for (const e of expected.tasks) {
      const t = run.tasks.find((x) => x.taskId === e.taskId && x.attempt === e.attempt)
      expect(t, `${e.taskId} attempt ${e.attempt}`).toBeDefined()
      expect([t!.outcome?.value ?? null, t!.turnCount?.value ?? null]).toEqual([e.outcome, e.turnCount])
      if (e.error !== undefined) expect(t!.error?.value).toBe(e.error)
      for (const [n, want] of Object.entries(e.turns ?? {})) {
        const u = t!.turns.find((x) => x.turn === Number(n))
        expect(u, `${e.taskId} turn ${n}`).toBeDefined()
        if (want.decision !== undefined) expect(u!.coach.decision?.value ?? null).toBe(want.decision)
        if (want.criteria !== undefined) expect(`${u!.coach.criteriaMet?.value}/${u!.coach.criteriaTotal?.value}`).toBe(want.criteria)
        if (want.playerError !== undefined) expect(u!.player.error?.value).toContain(want.playerError)
        if (want.coachError !== undefined) expect(u!.coach.error?.value).toContain(want.coachError)
      }
      for (const want of e.events ?? []) {
        expect(t!.events.map((x) => ({kind: eventKind(x), turn: 'turn' in x ? x.turn : null, detail: 'detail' in x ? x.detail : ''})),
          `${e.taskId} events`).toContainEqual(expect.objectContaining({kind: want.kind, ...(want.turn === undefined ? {} : {turn: want.turn}),
          ...(want.detail === undefined ? {} : {detail: expect.stringContaining(want.detail)})}))
      }
    }
  })

  it('places the run in its era, and replays it only inside the modelled window', async () => {
    const run = await loadRunContent(runRoot(dir))
    expect(placeRun(run)?.label).toBe(expected.era.label)
    expect(inferEra(run).modelled).toBe(expected.era.modelled)
  })
})
