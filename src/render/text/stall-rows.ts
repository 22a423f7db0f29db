import type {TaskAnalysis} from '../../explain/analysis.js'
import {formatReplayOutcome, type ReplayedTurn, type StallCheck, type TaskReplay} from '../../replay/types.js'
import {firstLine} from './layout.js'

/**
 * The stall detector, turn by turn, as data shared by the text and Markdown reports: the feedback,
 * each profile's signature (profiles with identical signatures share a column), and the window
 * of the profile that stops first.
 */
export interface StallTable {
  /** Signature columns: profiles whose signatures are the same on every turn are merged. */
  readonly columns: readonly StallColumn[]
  /** The profile whose window and count are shown. */
  readonly windowProfile: string
  readonly rows: readonly StallRow[]
  /** Turn at which the first profile (or the record) stops on a stall, if any. */
  readonly firstFire: number | null
  readonly hasApproximate: boolean
  /** Per column (by its first profile), the assumption behind its approximate values. */
  readonly assumptions: readonly {readonly profile: string; readonly assumption: string}[]
}

export interface StallColumn {
  readonly profiles: readonly string[]
  /** `normalised` when the profile signs the normalised feedback (stallNormalize), else `raw`. */
  readonly basis: 'raw' | 'normalised' | 'unknown'
}

export interface StallRow {
  readonly turn: number
  /** First line of the feedback: recorded, else replayed (then `feedbackSource` says how it is known). */
  readonly feedback: string | null
  readonly feedbackSource: 'recorded' | 'recorded-truncated' | 'replayed' | 'replayed-approximate' | 'none'
  readonly count: number | null
  readonly cells: readonly SignatureCell[]
  readonly window: {readonly signatures: readonly string[]; readonly fired: boolean; readonly reason: string} | null
  /** The log recorded the detector firing on this turn (with this signature, when logged). */
  readonly recordedStall: {readonly signature: string | null} | null
}

export type SignatureCell =
  | {readonly kind: 'signature'; readonly signature: string; readonly approximate: boolean; readonly fired: boolean}
  /** The turn had feedback, but its text is not in the records. */
  | {readonly kind: 'not-in-log'}
  /** The profile's own feedback text is not in the records (the recorded one is another profile's wording). */
  | {readonly kind: 'not-rebuildable'}
  /** The branches of an undetermined replay sign this turn differently. */
  | {readonly kind: 'depends'}
  /** No feedback this turn (approved, error, not replayed). */
  | {readonly kind: 'none'}
  /** The profile's loop had already ended (it stopped on a stall, or approved). */
  | {readonly kind: 'stopped'}

/** Null when no profile checked for a stall (a one-turn task, or nothing replayable). */
export function buildStallTable(task: TaskAnalysis, profileOrder: readonly string[]): StallTable | null {
  const replays = profileOrder.map((p) => task.replays[p]).filter((r): r is TaskReplay => r !== undefined)
  if (!replays.some((r) => r.turns.some((t) => t.stall !== null || t.signature !== null))) return null
  const turns = [...new Set([...task.task.turns.map((t) => t.turn), ...replays.flatMap((r) => r.turns.map((t) => t.turn))])].sort((a, b) => a - b)
  const columns = mergeColumns(replays)
  const windowReplay = pickWindowReplay(replays)
  const recordedStall = task.task.stall
  const assumptions = new Map<string, string>()
  let hasApproximate = false
  const rows = turns.map((turn): StallRow => {
    const recorded = task.task.turns.find((t) => t.turn === turn)
    const shown = windowReplay.turns.find((t) => t.turn === turn)
    const cells = columns.map((col): SignatureCell => {
      const all = col.profiles.map((name) => task.replays[name]?.turns.find((t) => t.turn === turn))
      const approximate = all.find((u) => u !== undefined && u.fidelity !== 'exact' && u.signature !== null)
      if (approximate !== undefined) {
        hasApproximate = true
        if (!assumptions.has(col.profiles[0]!) && approximate.assumptions[0] !== undefined) assumptions.set(col.profiles[0]!, approximate.assumptions[0])
      }
      const replayed = all[0]
      const replay = task.replays[col.profiles[0]!]
      if (replayed === undefined && replay !== undefined && endTurn(replay) !== null && turn > endTurn(replay)!) return {kind: 'stopped'}
      const cell = signatureCell(replayed, recorded?.coach.decision?.value ?? null)
      return cell.kind === 'signature' && approximate !== undefined ? {...cell, approximate: true} : cell
    })
    const text = recorded?.coach.feedback?.text ?? null
    const check = shown?.stall ?? null
    return {
      turn,
      ...feedbackOf(text, recorded?.coach.feedback?.completeness ?? null, shown),
      count: check?.count ?? null,
      cells,
      window: check === null ? null : {signatures: windowSignatures(check), fired: check.fired, reason: check.reason},
      recordedStall: recordedStall !== null && recordedStall.turn === turn ? {signature: recordedStall.signature} : null,
    }
  })
  const fires = [...replays.map((r) => r.stallTurn), recordedStall?.turn ?? null].filter((t): t is number => t !== null)
  return {
    columns,
    windowProfile: windowReplay.profile,
    rows,
    firstFire: fires.length === 0 ? null : Math.min(...fires),
    hasApproximate,
    assumptions: [...assumptions].map(([profile, assumption]) => ({profile, assumption})),
  }
}

/** The turn a profile's loop ended on, when the model ended it. */
function endTurn(r: TaskReplay): number | null {
  return r.outcome.kind === 'replayed' ? r.outcome.turn : null
}

function feedbackOf(text: string | null, completeness: 'full' | 'truncated' | null, shown: ReplayedTurn | undefined): Pick<StallRow, 'feedback' | 'feedbackSource'> {
  if (text !== null) return {feedback: firstLine(text), feedbackSource: completeness === 'truncated' ? 'recorded-truncated' : 'recorded'}
  if (shown?.feedback != null) {
    const approximate = shown.feedbackBasis === 'category' || shown.fidelity !== 'exact'
    return {feedback: firstLine(shown.feedback), feedbackSource: approximate ? 'replayed-approximate' : 'replayed'}
  }
  return {feedback: null, feedbackSource: 'none'}
}

function signatureCell(turn: ReplayedTurn | undefined, recordedDecision: string | null): SignatureCell {
  if (turn === undefined) return {kind: 'none'}
  if (turn.signature !== null) return {kind: 'signature', signature: turn.signature, approximate: turn.fidelity !== 'exact', fired: turn.stall?.fired === true}
  const basis = turn.detail.feedback.signatureBasis
  if (basis === 'branches') return {kind: 'depends'}
  const hadFeedback = turn.decision === 'feedback' || (turn.decision === null && recordedDecision === 'feedback')
  if (hadFeedback && basis === 'withheld') return {kind: 'not-rebuildable'}
  return hadFeedback ? {kind: 'not-in-log'} : {kind: 'none'}
}

/**
 * Profiles that sign every turn alike share one column (e.g. legacy and an as-run without
 * stallNormalize); the column is approximate where any of them is.
 */
function mergeColumns(replays: readonly TaskReplay[]): StallColumn[] {
  const columns: {key: string; profiles: string[]; basis: StallColumn['basis']}[] = []
  for (const r of replays) {
    // Two profiles share a column only when they also end alike: an undetermined one never merges with a decided one.
    const key = `${formatReplayOutcome(r.outcome)}|${r.stallTurn ?? '-'}|${r.turns.map((t) => `${t.turn}:${t.signature ?? t.detail.feedback.signatureBasis ?? '-'}`).join(' ')}`
    const same = columns.find((c) => c.key === key)
    if (same) same.profiles.push(r.profile)
    else columns.push({key, profiles: [r.profile], basis: signatureBasis(r)})
  }
  return columns.map(({profiles, basis}) => ({profiles, basis}))
}

function signatureBasis(r: TaskReplay): StallColumn['basis'] {
  const checks = r.turns.map((t) => t.stall).filter((s): s is StallCheck => s !== null && s.rawSignature !== s.normalisedSignature)
  if (checks.length === 0) return 'unknown'
  return checks.every((s) => s.signature === s.normalisedSignature) ? 'normalised' : 'raw'
}

/** The profile that stops first on a stall (ties: display order); else `fixed`; else the first. */
function pickWindowReplay(replays: readonly TaskReplay[]): TaskReplay {
  const firing = replays.filter((r) => r.stallTurn !== null)
  if (firing.length > 0) return firing.reduce((best, r) => (r.stallTurn! < best.stallTurn! ? r : best))
  return replays.find((r) => r.profile === 'fixed') ?? replays[0]!
}

function windowSignatures(check: StallCheck): string[] {
  return check.window.map((w) => w.signature)
}
