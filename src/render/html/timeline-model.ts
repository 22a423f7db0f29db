import type {TaskAnalysis} from '../../explain/analysis.js'
import type {StallCell} from '../../explain/stall-table.js'
import type {Evidence} from '../../model/evidence.js'
import type {TaskEvent, TurnRecord} from '../../model/run-record.js'
import type {ReplayedTurn, StallCheck, TaskReplay} from '../../replay/types.js'
import {firstLine} from '../text/layout.js'

/**
 * A task's turns as the timeline draws them: per turn the Player's result, the Coach's decision
 * and criteria, one stall-signature lane for the record (the run's own detector over the recorded
 * feedback) and one per replayed profile, the window each lane's rule looked at when it fired,
 * and markers where a detector fired, where a profile would have ended the loop, and where a
 * timeout, cancellation or crash ended the task.
 */
export interface Timeline {
  readonly lanes: readonly Lane[]
  readonly rows: readonly TimelineRow[]
  /** Markers the records place at no turn. */
  readonly unplaced: readonly Marker[]
  /** The stall rule's threshold (turns in the window), when known. */
  readonly threshold: number | null
  /** Distinct signatures in order of first appearance, with where they appear. */
  readonly legend: readonly LegendEntry[]
}

export interface Lane {
  /** `recorded`, or the profile name. */
  readonly key: string
  readonly profile: string | null
  /** What the lane's signatures are md5 of. */
  readonly basis: 'raw' | 'normalised' | 'unknown'
  /** The turn at which this lane's detector fired, and the turns of its window then. */
  readonly fired: {readonly turn: number; readonly window: readonly number[]; readonly reason: string} | null
}

export interface TimelineRow {
  readonly turn: number
  readonly record: TurnRecord | null
  readonly cells: readonly SignatureCell[]
  readonly markers: readonly Marker[]
  /** After the turn where the loop should have stopped (the verdict's waste). */
  readonly wasted: boolean
}

export type SignatureCell =
  | {
      readonly kind: 'signature'
      readonly signature: string
      readonly approximate: boolean
      readonly fired: boolean
      /** Inside the window the lane's rule looked at when it fired. */
      readonly inWindow: boolean
      readonly count: number | null
      readonly window: readonly {readonly turn: number; readonly signature: string; readonly count: number}[]
      readonly reason: string | null
    }
  /** The turn had feedback, but its text (and so its signature) is not in the records. */
  | {readonly kind: 'not-in-log'}
  /** The profile's own feedback text is not in the records; `depends`: the branches of an undetermined replay differ. */
  | {readonly kind: 'not-rebuildable' | 'depends'}
  /** No feedback this turn (approved, error, no Coach, not replayed). */
  | {readonly kind: 'none'; readonly decision: string | null}
  /** The lane's loop had already ended. */
  | {readonly kind: 'stopped'}

export type MarkerKind =
  | 'recorded-stall'
  | 'fixed-stall'
  | 'profile-stall'
  | 'profile-end'
  | 'timeout'
  | 'player-timeout'
  | 'cancelled'
  | 'max-turns'
  | 'crash'
  | 'critical-error'
  | 'pollution'
  | 'rollback'
  | 'recorded-end'

export interface Marker {
  readonly kind: MarkerKind
  readonly profile: string | null
  readonly label: string
  readonly evidence: readonly Evidence[]
}

export interface LegendEntry {
  readonly signature: string
  /** Lane key → turns where it appears. */
  readonly where: readonly {readonly lane: string; readonly turns: readonly number[]}[]
  /** First line of a feedback that produced it, when recorded. */
  readonly example: string | null
}

/** Markers that end a task: when one is recorded, the record's outcome needs no marker of its own. */
const ENDINGS: ReadonlySet<MarkerKind> = new Set(['timeout', 'player-timeout', 'cancelled', 'max-turns', 'crash', 'critical-error', 'recorded-stall'])

export function buildTimeline(t: TaskAnalysis, profileOrder: readonly string[]): Timeline {
  const names = [...profileOrder.filter((p) => t.replays[p] !== undefined), ...Object.keys(t.replays).filter((p) => !profileOrder.includes(p))]
  const replays = names.map((n) => t.replays[n]!)
  const stallRows = t.explain?.stall.rows ?? []
  const turns = [...new Set([...t.task.turns.map((u) => u.turn), ...replays.flatMap((r) => r.turns.map((u) => u.turn)), ...stallRows.map((r) => r.turn)])].sort((a, b) => a - b)
  const recordedChecks = new Map(stallRows.filter((r) => r.recorded.check !== null).map((r) => [r.turn, r.recorded.check!]))
  const lanes: Lane[] = [recordedLane(t, recordedChecks), ...replays.map(profileLane)]
  const windowTurns = lanes.map((l) => new Set(l.fired?.window ?? []))
  const markers = markersByTurn(t, replays, turns)
  const stopAt = t.verdict.waste !== null && t.verdict.waste.turnsWasted > 0 ? t.verdict.waste.shouldHaveStoppedAt : null
  const rows = turns.map((turn): TimelineRow => {
    const record = t.task.turns.find((u) => u.turn === turn) ?? null
    const decision = record?.coach.decision?.value ?? null
    const recordedCell = recordedSignatureCell(t, recordedChecks.get(turn) ?? null, turn, decision, windowTurns[0]!)
    const cells = [recordedCell, ...replays.map((r, i) => profileCell(r, turn, decision, windowTurns[i + 1]!))]
    return {turn, record, cells, markers: markers.get(turn) ?? [], wasted: stopAt !== null && turn > stopAt}
  })
  return {lanes, rows, unplaced: markers.get(null) ?? [], threshold: t.explain?.stall.threshold ?? null, legend: buildLegend(lanes, rows)}
}

function recordedLane(t: TaskAnalysis, checks: ReadonlyMap<number, StallCell>): Lane {
  const firing = [...checks.entries()].find(([, c]) => c.fired)
  const stall = t.task.stall
  const fired = firing !== undefined
    ? {turn: firing[0], window: firing[1].window.map((w) => w.turn), reason: firing[1].reason ?? ''}
    : stall !== null && stall.kind === 'feedback' && stall.turn !== null ? {turn: stall.turn, window: [], reason: 'the log records the detector firing'} : null
  const all = [...checks.values()]
  const basis = all.some((c) => c.rawSignature !== c.normalisedSignature && c.signature !== null)
    ? all.every((c) => c.rawSignature === c.normalisedSignature || c.signature === c.normalisedSignature) ? 'normalised' : 'raw'
    : 'unknown'
  return {key: 'recorded', profile: null, basis, fired}
}

function profileLane(r: TaskReplay): Lane {
  const firing = r.turns.find((u) => u.stall?.fired === true)
  const checks = r.turns.map((u) => u.stall).filter((s): s is StallCheck => s !== null && s.rawSignature !== s.normalisedSignature)
  const basis = checks.length === 0 ? 'unknown' : checks.every((s) => s.signature === s.normalisedSignature) ? 'normalised' : 'raw'
  const fired = firing?.stall == null ? null : {turn: firing.turn, window: firing.stall.window.map((w) => w.turn), reason: firing.stall.reason}
  return {key: r.profile, profile: r.profile, basis, fired}
}

function recordedSignatureCell(t: TaskAnalysis, check: StallCell | null, turn: number, decision: string | null, windowTurns: ReadonlySet<number>): SignatureCell {
  if (check !== null && check.signature !== null) {
    return {kind: 'signature', signature: check.signature, approximate: check.fidelity !== 'exact', fired: check.fired, inWindow: windowTurns.has(turn), count: check.count, window: check.window, reason: check.reason}
  }
  const stall = t.task.stall
  if (stall !== null && stall.turn === turn && stall.signature !== null) {
    return {kind: 'signature', signature: stall.signature, approximate: false, fired: true, inWindow: windowTurns.has(turn), count: stall.criteriaPassing, window: [], reason: 'the log records the detector firing'}
  }
  return decision === 'feedback' ? {kind: 'not-in-log'} : {kind: 'none', decision}
}

function profileCell(r: TaskReplay, turn: number, recordedDecision: string | null, windowTurns: ReadonlySet<number>): SignatureCell {
  const u = r.turns.find((x) => x.turn === turn)
  if (u === undefined) {
    const end = r.outcome.kind === 'replayed' ? r.outcome.turn : null
    return end !== null && turn > end ? {kind: 'stopped'} : {kind: 'none', decision: null}
  }
  if (u.signature !== null) {
    const st = u.stall
    return {kind: 'signature', signature: u.signature, approximate: u.fidelity !== 'exact', fired: st?.fired === true, inWindow: windowTurns.has(turn), count: st?.count ?? null, window: st?.window ?? [], reason: st?.reason ?? skippedReason(u)}
  }
  if (u.detail.feedback.signatureBasis === 'branches') return {kind: 'depends'}
  const hadFeedback = u.decision === 'feedback' || (u.decision === null && recordedDecision === 'feedback')
  if (hadFeedback && u.detail.feedback.signatureBasis === 'withheld') return {kind: 'not-rebuildable'}
  return hadFeedback ? {kind: 'not-in-log'} : {kind: 'none', decision: u.decision}
}

function skippedReason(u: ReplayedTurn): string | null {
  const s = u.detail.loop.stallSkipped
  return s === null ? null : `detector not called (${s})`
}

function markersByTurn(t: TaskAnalysis, replays: readonly TaskReplay[], turns: readonly number[]): Map<number | null, Marker[]> {
  const out = new Map<number | null, Marker[]>()
  const add = (turn: number | null, m: Marker) => {
    const list = out.get(turn) ?? []
    const same = list.find((x) => x.kind === m.kind && x.profile === m.profile)
    if (same === undefined) out.set(turn, [...list, m])
    else out.set(turn, list.map((x) => (x === same ? {...x, evidence: [...x.evidence, ...m.evidence]} : x)))
  }
  const last = turns.length === 0 ? null : turns[turns.length - 1]!
  const stall = t.task.stall
  if (stall !== null) add(stall.turn, {kind: 'recorded-stall', profile: null, label: `stall detector fired (recorded${stall.kind === 'feedback' ? '' : `, ${stall.kind}`})`, evidence: stall.evidence})
  for (const e of t.task.events) {
    const m = eventMarker(e)
    if (m !== null) add(e.kind === 'max-turns-exceeded' ? last : e.turn, m)
  }
  const recorded = t.task.outcome
  for (const r of replays) {
    if (r.stallTurn !== null) {
      add(r.stallTurn, {kind: r.profile === 'fixed' ? 'fixed-stall' : 'profile-stall', profile: r.profile, label: `${r.profile} stops here: stall`, evidence: []})
    } else if (r.outcome.kind === 'branches') {
      // An undetermined profile ends in each branch where that branch ends, said with its condition.
      for (const b of r.outcome.branches) {
        if (b.stallTurn !== null) add(b.stallTurn, {kind: r.profile === 'fixed' ? 'fixed-stall' : 'profile-stall', profile: r.profile, label: `${r.profile} stops here if ${b.assume}: stall`, evidence: []})
        else if (b.endTurn !== null && !(recorded !== null && b.outcome.startsWith(recorded.value) && b.endTurn === (t.task.turnCount?.value ?? last))) {
          add(b.endTurn, {kind: 'profile-end', profile: r.profile, label: `${r.profile} ends here if ${b.assume}: ${b.outcome}`, evidence: []})
        }
      }
    } else if (r.outcome.kind === 'replayed' && (recorded === null || r.outcome.outcome !== recorded.value || r.outcome.turn !== (t.task.turnCount?.value ?? last))) {
      add(r.outcome.turn, {kind: 'profile-end', profile: r.profile, label: `${r.profile} ends here: ${r.outcome.outcome}`, evidence: []})
    }
  }
  const ended = [...out.values()].flat().some((m) => ENDINGS.has(m.kind))
  if (recorded !== null && !ended) {
    const turn = t.task.turnCount?.value ?? last
    add(turns.includes(turn ?? -1) ? turn : last, {kind: 'recorded-end', profile: null, label: `recorded: ${recorded.value}`, evidence: recorded.evidence})
  }
  return out
}

function eventMarker(e: TaskEvent): Marker | null {
  const m = (kind: MarkerKind, label: string): Marker => ({kind, profile: null, label, evidence: e.evidence})
  switch (e.kind) {
    case 'feature-timeout':
      return m('timeout', `feature task timeout${e.seconds === null ? '' : ` (${e.seconds} s)`}`)
    case 'timeout-budget-exhausted':
      return m('timeout', 'timeout budget exhausted')
    case 'player-timeout':
      return m('player-timeout', `Player timed out${e.seconds === null ? '' : ` (${e.seconds} s)`}`)
    case 'cancelled':
      return m('cancelled', 'cancelled')
    case 'max-turns-exceeded':
      return m('max-turns', `max turns (${e.maxTurns}) exceeded`)
    case 'orchestration-crash':
      return m('crash', 'orchestration crashed')
    case 'critical-error':
      return m('critical-error', 'critical error')
    case 'context-pollution':
      return m('pollution', 'context pollution detected')
    case 'rollback':
      return m('rollback', 'rolled back')
    default:
      return null
  }
}

function buildLegend(lanes: readonly Lane[], rows: readonly TimelineRow[]): LegendEntry[] {
  const order: string[] = []
  const where = new Map<string, Map<string, number[]>>()
  const example = new Map<string, string>()
  for (const row of rows) {
    row.cells.forEach((c, i) => {
      if (c.kind !== 'signature') return
      if (!where.has(c.signature)) {
        order.push(c.signature)
        where.set(c.signature, new Map())
      }
      const lanesOf = where.get(c.signature)!
      const key = lanes[i]!.key
      lanesOf.set(key, [...(lanesOf.get(key) ?? []), row.turn])
      const fb = row.record?.coach.feedback?.text
      if (i === 0 && fb !== undefined && !example.has(c.signature)) example.set(c.signature, firstLine(fb))
    })
  }
  return order.map((signature) => ({
    signature,
    where: [...where.get(signature)!].map(([lane, turns]) => ({lane, turns})),
    example: example.get(signature) ?? null,
  }))
}
