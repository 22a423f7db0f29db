import {describeBranches} from './branch-phrases.js'
import type {Evidence} from '../model/evidence.js'
import type {TaskRun} from '../model/run-record.js'
import type {Fidelity, ReplayedTurn, TaskReplay} from '../replay/types.js'
import {fixedStop, flagsOfProfile, runRecordedStall} from './recorded-stall.js'
import {feedbackByTurn, feedbackCategory} from './record-facts.js'
import {modelledReplay} from './replay-view.js'

/**
 * The stall detector turn by turn (docs/cli.md, `analyze` and `explain`): per turn, the feedback the
 * Player got (recorded, and as each profile would have produced it), the raw and normalised signatures,
 * the count fed to the detector, the window the rule looked at, and the exact reason it fired or did not.
 */
export interface StallTable {
  readonly threshold: number
  readonly rows: readonly StallRow[]
  /** Turn at which the detector fired: `recorded` (the log), and each replayed profile; null = did not fire. */
  readonly firedAt: Readonly<Record<string, number | null>>
  /** When the recorded detector did not fire: the first turn at which fixed would have, or why not. */
  readonly fixedVerdict: string | null
}

export interface StallRow {
  readonly turn: number
  readonly recorded: {
    readonly feedback: string | null
    readonly completeness: 'full' | 'truncated' | null
    readonly category: string | null
    readonly evidence: readonly Evidence[]
    /** The detector of the run's own profile over the recorded feedback (signature, count, window, reason). */
    readonly check: StallCell | null
  }
  readonly profiles: Readonly<Record<string, StallCell>>
}

export interface StallCell {
  readonly feedback: string | null
  /** How the feedback was obtained (`recorded`, `full`, `rebuilt`, `category`, `excerpt`, …). */
  readonly basis: string
  readonly rawSignature: string | null
  readonly normalisedSignature: string | null
  /** The signature the profile's detector appended. */
  readonly signature: string | null
  readonly count: number | null
  readonly window: readonly {readonly turn: number; readonly signature: string; readonly count: number}[]
  readonly fired: boolean
  /** Why it fired or not; or why the detector was not called this turn. */
  readonly reason: string | null
  readonly fidelity: Fidelity
}

export function buildStallTable(task: TaskRun, replays: Readonly<Record<string, TaskReplay>>, asRun: string | null): StallTable {
  const feedback = feedbackByTurn(task)
  const sim = runRecordedStall(task, flagsOfProfile(asRun))
  const simByTurn = new Map(sim.rows.map((r) => [r.turn, r]))
  const turns = new Set<number>([...task.turns.map((t) => t.turn), ...Object.values(replays).flatMap((r) => r.turns.map((t) => t.turn))])
  const rows: StallRow[] = [...turns].sort((a, b) => a - b).map((turn) => {
    const fb = feedback.get(turn) ?? null
    const s = simByTurn.get(turn)
    const check: StallCell | null = s
      ? {
          feedback: s.feedback.text, basis: s.approximate ? 'excerpt' : 'recorded', rawSignature: s.check.signatures.raw, normalisedSignature: s.check.signatures.normalized,
          signature: s.check.signatures.used, count: s.count, window: s.check.window.map((e, i) => ({turn: windowTurn(sim.rows, s.turn, s.check.window.length, i), ...e})),
          fired: s.check.stalled, reason: s.reason, fidelity: s.approximate ? 'approximate' : 'exact',
        }
      : null
    const profiles: Record<string, StallCell> = {}
    for (const [name, replay] of Object.entries(replays)) {
      const rt = replay.turns.find((t) => t.turn === turn)
      if (rt) profiles[name] = cellOf(rt)
    }
    return {turn, recorded: {feedback: fb?.text ?? null, completeness: fb?.completeness ?? null, category: fb ? feedbackCategory(fb.text) : null, evidence: fb?.evidence ?? [], check}, profiles}
  })
  const firedAt: Record<string, number | null> = {recorded: task.stall?.kind === 'feedback' ? task.stall.turn : null}
  for (const [name, replay] of Object.entries(replays)) firedAt[name] = replay.stallTurn
  return {threshold: sim.threshold, rows, firedAt, fixedVerdict: fixedVerdict(task, replays, asRun)}
}

/** The turn of the i-th entry of a window ending at `turn` (feedback turns only, in order). */
function windowTurn(rows: readonly {turn: number}[], turn: number, size: number, i: number): number {
  const idx = rows.findIndex((r) => r.turn === turn)
  return rows[idx - size + 1 + i]?.turn ?? turn
}

function cellOf(t: ReplayedTurn): StallCell {
  const st = t.stall
  const skipped = t.detail.loop.stallSkipped
  return {
    feedback: t.feedback,
    basis: t.feedbackBasis,
    rawSignature: st?.rawSignature ?? t.detail.feedback.rawSignature,
    normalisedSignature: st?.normalisedSignature ?? t.detail.feedback.normalisedSignature,
    signature: st?.signature ?? t.signature,
    count: st?.count ?? t.detail.loop.peakCriteriaPassed ?? t.detail.loop.criteriaPassed,
    window: st?.window ?? [],
    fired: st?.fired ?? false,
    reason: st?.reason ?? (skipped ? `detector not called: ${SKIPPED[skipped]}` : null),
    fidelity: t.fidelity,
  }
}

const SKIPPED: Record<NonNullable<ReplayedTurn['detail']['loop']['stallSkipped']>, string> = {
  'not-feedback': 'the turn was not a feedback turn',
  'empty-feedback': 'the feedback was empty',
  'loop-ended-before': 'the loop had already ended',
  'context-pollution': 'the pollution rule acted first',
}

/** "fixed would have stopped at turn 5" / "fixed would not stop either: …", when the record shows no stall. */
function fixedVerdict(task: TaskRun, replays: Readonly<Record<string, TaskReplay>>, asRun: string | null): string | null {
  if (task.stall?.kind === 'feedback') return null
  const stop = fixedStop(task, replays, runRecordedStall(task, flagsOfProfile(asRun)), runRecordedStall(task, flagsOfProfile('fixed')))
  const fixed = modelledReplay(replays, 'fixed')
  if (fixed?.outcome.kind === 'branches') return `fixed is undetermined: ${describeBranches(fixed.outcome.branches)}`
  if (stop.turn !== null) return `fixed would have stopped at turn ${stop.turn}${stop.basis === 'excerpt' ? ' (approximate: signed on the log\'s excerpts)' : ''}`
  if (stop.basis === 'unknown') return 'the log\'s excerpts of the feedback are too short to tell when fixed would have stopped'
  if (fixed) {
    const o = fixed.outcome
    if (o.kind === 'replayed' && o.outcome === 'approved') return `fixed would not stall: it approves at turn ${o.turn}`
    const last = [...fixed.turns].reverse().find((t) => t.stall !== null)
    return `fixed would not stall within the recorded turns${last?.stall ? `: ${last.stall.reason}` : ''}`
  }
  return 'fixed would not stall on the recorded feedback either'
}
