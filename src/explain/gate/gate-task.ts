import type {Profile} from '../../logic/profiles.js'
import type {RunRecord, TaskRun} from '../../model/run-record.js'
import type {EraInference, TaskReplay} from '../../replay/types.js'
import {reproduceCommand} from '../draft.js'
import {detectTaskFindings} from '../detect-findings.js'
import {numberFindings} from '../order.js'
import {classifyPair} from './classify.js'
import {applyExpectation, type ExpectationEntry} from './expectations.js'
import {explainingFindings} from './explaining-findings.js'
import {notModelledSide, sideOfRecord, sideOfReplay, type SideView} from './side.js'
import type {GateExpectationResult, GatePolicy, GateTask, GateTurnRow} from './types.js'

/** A baseline or candidate for one run: a resolved profile, the record, or nothing to replay (why). */
export type GateSubject =
  | {readonly kind: 'recorded'}
  | {readonly kind: 'profile'; readonly profile: Profile}
  | {readonly kind: 'unavailable'; readonly name: string; readonly reason: string}

export interface GateTaskInput {
  readonly run: RunRecord
  readonly task: TaskRun
  readonly era: EraInference
  readonly baseline: GateSubject
  readonly candidate: GateSubject
  readonly policy: GatePolicy
  readonly expectation: ExpectationEntry | null
  /** Replays this task under a profile (the services layer passes the fold, with the task's inputs collected once). */
  readonly replay: (profile: Profile) => TaskReplay
  /** The profile inferred for the run's era, resolved (null: none), and `fixed`: the findings read both. */
  readonly asRun: Profile | null
  readonly fixed: Profile
}

/**
 * Gate one task run: both sides, the policy, the expectations, and for a task that regressed the
 * findings that explain it. Only the two subjects are replayed; the era's profile and `fixed`
 * (which the findings read) only when the task regressed.
 */
export function gateTask(input: GateTaskInput): GateTask {
  const {task, era} = input
  const replays = new Map<string, TaskReplay>()
  const replayOf = (p: Profile): TaskReplay => {
    let r = replays.get(p.name)
    if (r === undefined) replays.set(p.name, (r = input.replay(p)))
    return r
  }
  const view = (s: GateSubject): SideView => {
    if (s.kind === 'recorded') return sideOfRecord(task)
    if (s.kind === 'unavailable') return notModelledSide(s.name)
    return era.modelled ? sideOfReplay(replayOf(s.profile)) : notModelledSide(s.profile.name)
  }
  const b = view(input.baseline)
  const c = view(input.candidate)
  let cls = classifyPair(b, c, input.policy)
  const unavailable = [input.baseline, input.candidate].find((s) => s.kind === 'unavailable')
  if (cls.skipReason !== null && unavailable?.kind === 'unavailable') cls = {...cls, skipReason: `${unavailable.name}: ${unavailable.reason}`}
  // the era's reason goes on to list every marker (the run's `era` in the report keeps it whole)
  else if (cls.skipReason !== null && !era.modelled) cls = {...cls, skipReason: `not modelled: ${era.reason.split(': ')[0]}`}
  let expectation: GateExpectationResult | null = null
  if (input.expectation !== null) {
    const applied = applyExpectation(cls, b.side, c.side, input.expectation)
    cls = cls.classification === 'skipped' ? cls : applied.classification
    expectation = applied.expectation
  }
  const classification = cls.classification
  const failing = classification === 'regressed'
    || (classification === 'changed' && input.policy.failOn.includes('changed'))
    || (classification === 'skipped' && input.policy.failOn.includes('skipped'))
  const findings = classification === 'regressed' && era.modelled ? findingsFor(input, replayOf, cls.reasons) : []
  const firstTurn = cls.reasons.find((r) => !r.waived && r.turn !== null)?.turn ?? null
  return {
    taskId: task.taskId,
    attempt: task.attempt,
    classification,
    failing,
    approximate: cls.approximate,
    reasons: cls.reasons,
    skipReason: cls.skipReason,
    baseline: b.side,
    candidate: c.side,
    recorded: {outcome: task.outcome?.value ?? null, turns: task.turns.length, stallTurn: task.stall?.turn ?? null},
    expectation,
    turns: classification === 'unchanged' ? null : turnRows(sideOfRecord(task), b, c),
    findings,
    reproduce: reproduceCommand(input.run.path, task.taskId, firstTurn, input.candidate.kind === 'profile' ? input.candidate.profile.name : null),
  }
}

function findingsFor(input: GateTaskInput, replayOf: (p: Profile) => TaskReplay, reasons: GateTask['reasons']): GateTask['findings'] {
  const profiles = [input.baseline, input.candidate].flatMap((s) => (s.kind === 'profile' ? [s.profile] : []))
  if (input.asRun) profiles.push(input.asRun)
  profiles.push(input.fixed)
  const replays = Object.fromEntries(profiles.map((p) => [p.name, replayOf(p)]))
  const drafts = detectTaskFindings({run: input.run, task: input.task, replays, era: input.era, asRun: input.asRun?.name ?? null})
  const findings = numberFindings([drafts])[0] ?? []
  const flagsOf = (s: GateSubject) => (s.kind === 'profile' ? s.profile.flags : s.kind === 'recorded' ? (input.asRun?.flags ?? null) : null)
  const name = input.candidate.kind === 'profile' ? input.candidate.profile.name : input.candidate.kind === 'recorded' ? 'the recorded run' : input.candidate.name
  return explainingFindings(findings, reasons, flagsOf(input.baseline), flagsOf(input.candidate), name)
}

/** Every turn any of the three knows, in order. */
function turnRows(recorded: SideView, b: SideView, c: SideView): GateTurnRow[] {
  const turns = [...new Set([...recorded.cells.keys(), ...b.cells.keys(), ...c.cells.keys()])].sort((x, y) => x - y)
  return turns.map((turn) => ({turn, recorded: recorded.cells.get(turn) ?? null, baseline: b.cells.get(turn) ?? null, candidate: c.cells.get(turn) ?? null}))
}
