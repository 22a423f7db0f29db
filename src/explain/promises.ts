import {criterionId} from '../logic/coach/requirements/criterion-result.js'
import type {Evidence} from '../model/evidence.js'
import type {TaskRun, TurnRecord} from '../model/run-record.js'
import {artifactEvidence, asObject, playerReport, promisesOf, taskWorkResultsByTurn} from './record-facts.js'

/**
 * Where a turn's completion_promises are recorded: the player report the Coach read, an earlier
 * (agent-written) version of it that a recording kept, task_work_results.json, or only the log's
 * `Recovered N completion_promises` record (count known, statuses not).
 */
export interface TurnPromises {
  readonly turn: number
  /** Promises in what the Coach could read (final player report or task_work_results.json). */
  readonly seen: readonly unknown[] | null
  readonly seenEvidence: readonly Evidence[]
  /** Promises in an earlier version of player_turn_N.json (the agent's own report). */
  readonly agent: readonly unknown[] | null
  readonly agentEvidence: readonly Evidence[]
  /** `Recovered N completion_promises …` (task-work, 723e5f4e+). */
  readonly recoveredCount: number | null
  readonly recoveredEvidence: readonly Evidence[]
}

export function turnPromises(task: TaskRun, turn: TurnRecord): TurnPromises {
  const {final, earlier} = playerReport(turn)
  const twr = taskWorkResultsByTurn(task).get(turn.turn) ?? null
  const fromReport = final ? promisesOf(asObject(final.json)) : null
  const fromTwr = twr ? promisesOf(asObject(twr.json)) : null
  const seen = nonEmpty(fromReport) ?? nonEmpty(fromTwr) ?? fromReport ?? fromTwr
  const seenEvidence = [
    ...(final && fromReport !== null ? [artifactEvidence(final, '/completion_promises')] : []),
    ...(twr && fromTwr !== null ? [artifactEvidence(twr, '/completion_promises')] : []),
  ]
  let agent: readonly unknown[] | null = null
  let agentEvidence: Evidence[] = []
  for (const v of earlier) {
    const p = nonEmpty(promisesOf(asObject(v.json)))
    if (p) {
      agent = p
      agentEvidence = [artifactEvidence(v, '/completion_promises')]
    }
  }
  const rec = turn.player.promisesRecovered
  return {turn: turn.turn, seen, seenEvidence, agent, agentEvidence, recoveredCount: rec?.value ?? null, recoveredEvidence: rec?.evidence ?? []}
}

function nonEmpty(list: readonly unknown[] | null): readonly unknown[] | null {
  return list && list.length > 0 ? list : null
}

/** Promise statuses by criterion id (`criterion_id` → `status`), first one wins as in `_match_by_promises`. */
export function statusById(promises: readonly unknown[]): Map<string, string> {
  const out = new Map<string, string>()
  for (const p of promises) {
    const o = asObject(p)
    const id = o?.['criterion_id']
    const status = o?.['status']
    if (typeof id === 'string' && !out.has(id)) out.set(id, typeof status === 'string' ? status : String(status))
  }
  return out
}

/** Do these promises claim every one of `total` criteria (AC-001 … AC-N) done? */
export function coversAll(promises: readonly unknown[], total: number, acceptPartial: boolean): boolean {
  if (total <= 0) return false
  const byId = statusById(promises)
  for (let i = 0; i < total; i++) {
    const s = byId.get(criterionId(i))
    if (s !== 'complete' && !(acceptPartial && s === 'partial')) return false
  }
  return true
}
