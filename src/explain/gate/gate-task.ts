import type {LogicFlags} from '../../logic/changes.js'
import type {Profile} from '../../logic/profiles.js'
import type {EraInference} from '../../replay/types.js'
import type {TaskAnalysis} from '../analysis.js'
import {reproduceCommand} from '../draft.js'
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
  /** The task run as the spine analysed it (explain/analyze-run.ts): its replays include both subjects'. */
  readonly analysis: TaskAnalysis
  readonly runPath: string
  readonly era: EraInference
  readonly baseline: GateSubject
  readonly candidate: GateSubject
  readonly policy: GatePolicy
  readonly expectation: ExpectationEntry | null
  /** The flags of the profile inferred for the run's era (null: none): the record's side reads them. */
  readonly asRunFlags: LogicFlags | null
}

/** Gate one analysed task run: both sides, the policy, the expectations, and for a task that regressed the findings that explain it. */
export function gateTask(input: GateTaskInput): GateTask {
  const {era} = input
  const {task} = input.analysis
  const view = (s: GateSubject): SideView => {
    if (s.kind === 'recorded') return sideOfRecord(task)
    if (s.kind === 'unavailable') return notModelledSide(s.name)
    const replay = input.analysis.replays[s.profile.name]
    return era.modelled && replay !== undefined ? sideOfReplay(replay) : notModelledSide(s.profile.name)
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
  const findings = classification === 'regressed' && era.modelled ? findingsFor(input, cls.reasons) : []
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
    reproduce: reproduceCommand(input.runPath, task.taskId, firstTurn, input.candidate.kind === 'profile' ? input.candidate.profile.name : null),
  }
}

function findingsFor(input: GateTaskInput, reasons: GateTask['reasons']): GateTask['findings'] {
  const flagsOf = (s: GateSubject) => (s.kind === 'profile' ? s.profile.flags : s.kind === 'recorded' ? input.asRunFlags : null)
  const name = input.candidate.kind === 'profile' ? input.candidate.profile.name : input.candidate.kind === 'recorded' ? 'the recorded run' : input.candidate.name
  return explainingFindings(input.analysis.findings, reasons, flagsOf(input.baseline), flagsOf(input.candidate), name)
}

/** Every turn any of the three knows, in order. */
function turnRows(recorded: SideView, b: SideView, c: SideView): GateTurnRow[] {
  const turns = [...new Set([...recorded.cells.keys(), ...b.cells.keys(), ...c.cells.keys()])].sort((x, y) => x - y)
  return turns.map((turn) => ({turn, recorded: recorded.cells.get(turn) ?? null, baseline: b.cells.get(turn) ?? null, candidate: c.cells.get(turn) ?? null}))
}
