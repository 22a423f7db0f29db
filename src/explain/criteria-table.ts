import type {CriterionExplanation, PromiseSource, RequirementsExplanation} from '../logic/coach/requirements/types.js'
import {LOGGERS} from '../logic/log-sink.js'
import type {Evidence} from '../model/evidence.js'
import type {TaskRun} from '../model/run-record.js'
import type {ReplayedTurn, TaskReplay} from '../replay/types.js'
import {turnPromises} from './promises.js'
import {asObject, turnOf} from './record-facts.js'
import {requirementsOf} from './replay-view.js'

/**
 * A 0/N (or N−k/N) verdict explained (the 0/N picture of docs/cli.md, `analyze` and `explain`): per
 * criterion the strategy, what each strategy saw, the closest requirement with its score against the
 * rule; where the missing data was lost, traced through the player report, task_work_results.json and
 * the log; and GuardKit's own dump for the turn.
 */
export interface CriteriaTurn {
  readonly turn: number
  readonly profile: string
  readonly met: number | null
  readonly total: number | null
  readonly strategy: string
  readonly synthetic: unknown
  /** Where the promises came from, in words. */
  readonly promiseSource: string
  readonly promises: number
  /** The requirements list the text strategy (or the hybrid fallback) matched, with its key. */
  readonly requirements: {readonly source: string | null; readonly values: readonly unknown[]} | null
  readonly criteria: readonly CriterionRow[]
  /** GuardKit's `Criteria verification 0/N - diagnostic dump` for the turn: as logged, or as the model emits it. */
  readonly dump: {readonly lines: readonly string[]; readonly basis: 'recorded' | 'rebuilt'; readonly evidence: readonly Evidence[]} | null
  /** Where the Player's claims were lost on their way to the Coach, first stage first. */
  readonly trail: readonly {readonly stage: string; readonly what: string; readonly flag?: string; readonly evidence: readonly Evidence[]}[]
}

export interface CriterionRow {
  readonly id: string
  readonly text: unknown
  readonly verdict: string
  readonly decidedBy: string
  readonly promise: {readonly status: unknown; readonly evidenceType: unknown} | null
  readonly closest: {readonly requirement: unknown; readonly jaccard: number; readonly exact: boolean; readonly substring: boolean; readonly meetsRule: boolean; readonly rule: string} | null
}

/** Criteria explanations for every replayed turn (under each profile) that did not verify every criterion. */
export function buildCriteriaTable(task: TaskRun, replays: Readonly<Record<string, TaskReplay>>): CriteriaTurn[] {
  const out: CriteriaTurn[] = []
  for (const [profile, replay] of Object.entries(replays)) {
    for (const t of replay.turns) {
      const req = requirementsOf(t)
      if (!req || req.criteria.every((c) => c.verdict === 'verified')) continue
      out.push(criteriaTurn(task, profile, t, req))
    }
  }
  return out.sort((a, b) => a.turn - b.turn || (a.profile < b.profile ? -1 : a.profile > b.profile ? 1 : 0))
}

function criteriaTurn(task: TaskRun, profile: string, t: ReplayedTurn, req: RequirementsExplanation): CriteriaTurn {
  const recordedDump = turnOf(task, t.turn)?.coach.diagnosticDump ?? null
  const rebuilt = t.logs.filter((l) => l.logger === LOGGERS.coach && l.level === 'WARNING')
  const start = rebuilt.findIndex((l) => l.message.startsWith('Criteria verification '))
  const dump = recordedDump
    ? {lines: recordedDump.value.lines, basis: 'recorded' as const, evidence: recordedDump.evidence}
    : start >= 0
      ? {lines: rebuilt.slice(start).map((l) => l.message).filter((m, i) => i === 0 || m.startsWith('  ')), basis: 'rebuilt' as const, evidence: []}
      : null
  const reqs = req.requirements
  return {
    turn: t.turn,
    profile,
    met: t.criteriaMet,
    total: t.criteriaTotal,
    strategy: req.strategy,
    synthetic: req.synthetic,
    promiseSource: describeSource(req.promiseSource),
    promises: Array.isArray(req.promises) ? req.promises.length : 0,
    requirements: reqs ? {source: reqs.source, values: Array.isArray(reqs.value) ? reqs.value : []} : null,
    criteria: req.criteria.map(criterionRow),
    dump,
    trail: trail(task, t),
  }
}

function criterionRow(c: CriterionExplanation): CriterionRow {
  const p = asObject(c.promise?.promise)
  const cl = c.text_match?.closest ?? null
  return {
    id: c.criterion_id,
    text: c.text,
    verdict: c.verdict,
    decidedBy: c.decidedBy,
    promise: p ? {status: p['status'], evidenceType: p['evidence_type'] ?? null} : null,
    closest: cl
      ? {requirement: cl.requirement, jaccard: cl.jaccard, exact: cl.exact, substring: cl.substring, meetsRule: cl.meetsRule,
        rule: c.text_match?.rules === 'pre-acr' ? 'exact match only (pre-ACR)' : `exact, substring, or keyword overlap ≥ ${Math.round((c.text_match?.threshold ?? 0.7) * 100)}%`}
      : null,
  }
}

function describeSource(s: PromiseSource): string {
  switch (s.kind) {
    case 'task_work_results':
      return 'task_work_results.json'
    case 'current-report':
      return `player_turn_${s.turn}.json`
    case 'prior-report':
      return `player_turn_${s.turn}.json (an earlier turn's report)`
    case 'none':
      return `none (${s.reason})`
  }
}

const LOSS_KINDS = new Set(['dropped', 'filtered', 'replaced', 'overwritten', 'not-written-back', 'skipped'])

/** The pipeline's losses under this profile, then what the records show at each stage. */
function trail(task: TaskRun, t: ReplayedTurn): CriteriaTurn['trail'] {
  const out: {stage: string; what: string; flag?: string; evidence: readonly Evidence[]}[] = t.detail.player.events
    .filter((e) => LOSS_KINDS.has(e.kind))
    .map((e) => ({stage: e.step, what: e.message, ...(e.flag ? {flag: e.flag} : {}), evidence: []}))
  const rec = turnOf(task, t.turn)
  if (!rec) return out
  const p = turnPromises(task, rec)
  if (p.agent) out.push({stage: 'player report (agent-written version)', what: `${p.agent.length} completion promises`, evidence: p.agentEvidence})
  if (p.seen !== null) out.push({stage: 'player report / task_work_results.json (as the Coach read them)', what: p.seen.length ? `${p.seen.length} completion promises` : 'no completion promises', evidence: p.seenEvidence})
  if (p.recoveredCount !== null) out.push({stage: 'log', what: `Recovered ${p.recoveredCount} completion_promises`, evidence: p.recoveredEvidence})
  else if (rec.player.reportSource) out.push({stage: 'log', what: `no "Recovered … completion_promises" record; report source: ${rec.player.reportSource.value}`, evidence: rec.player.reportSource.evidence})
  return out
}
