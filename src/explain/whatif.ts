import {FLAG_IDS, type FlagId} from '../logic/changes.js'
import {adjustProfile, type Profile} from '../logic/profiles.js'
import {formatReplayOutcome, type ReplayedTurn, type TaskReplay} from '../replay/types.js'
import type {WhatIf} from './analysis.js'
import {replayFidelity} from './replay-view.js'

export interface WhatIfOptions {
  /** The profile the flips start from: the run's inferred as-run profile, else legacy. */
  readonly baseline: Profile
  readonly fixed: Profile
  /** Replays the task under a profile (injected: the services layer wires the real replay). */
  readonly replay: (profile: Profile) => TaskReplay
  /** Largest combination tried exhaustively (default 3). */
  readonly maxSetSize?: number
  /** Most replays the search may run (default 600); the greedy reduction from fixed comes on top. */
  readonly maxReplays?: number
  /** Why fixed still gets it wrong, when a finding says so. */
  readonly fixedStillFails?: string | null
}

/**
 * `whatif`: which logic changes flip a task's outcome, alone or in the smallest combination. The
 * candidates are the flags on in `fixed` and off in the baseline. Each is tried alone; the ones whose
 * replay differs from the baseline in any turn (decision, counts, feedback, signature, strategy) are
 * the flags the task's replay depends on; pairs and then larger sets of those are tried, skipping
 * supersets of a set that already flips, up to the stated bounds. When fixed flips the outcome and no
 * set within the bounds does, the fixed set is reduced greedily to an irreducible one.
 */
export function computeWhatIf(options: WhatIfOptions): WhatIf {
  const maxSize = options.maxSetSize ?? 3
  const budget = options.maxReplays ?? 600
  const cache = new Map<string, TaskReplay>()
  let runs = 0
  const run = (flags: readonly FlagId[]): TaskReplay => {
    const key = [...flags].sort().join(',')
    const hit = cache.get(key)
    if (hit) return hit
    runs++
    const r = options.replay(adjustProfile(options.baseline, flags, []))
    cache.set(key, r)
    return r
  }
  const base = options.replay(options.baseline)
  const baseOutcome = formatReplayOutcome(base.outcome)
  const baseEndings = new Set(endings(base).map((e) => e.outcome))
  const candidates = FLAG_IDS.filter((f) => options.fixed.flags[f] && !options.baseline.flags[f])
  const flips: {flags: FlagId[]; replay: TaskReplay}[] = []
  // An undetermined replay flips when any of its branches ends otherwise than every baseline branch.
  const flipsOutcome = (r: TaskReplay) => endings(r).some((e) => !baseEndings.has(e.outcome))
  const coveredBy = (set: readonly FlagId[]) => flips.some((f) => f.flags.every((x) => set.includes(x)))

  const relevant: FlagId[] = []
  for (const f of candidates) {
    const r = run([f])
    if (flipsOutcome(r)) flips.push({flags: [f], replay: r})
    else if (differs(base, r)) relevant.push(f)
  }
  let truncated = false
  for (let size = 2; size <= maxSize; size++) {
    for (const set of combinations(relevant, size)) {
      if (coveredBy(set)) continue
      if (runs >= budget) {
        truncated = true
        break
      }
      const r = run(set)
      if (flipsOutcome(r)) flips.push({flags: set, replay: r})
    }
  }
  let reduced = false
  const fixedReplay = options.replay(options.fixed)
  if (flips.length === 0 && flipsOutcome(fixedReplay) && candidates.length > maxSize) {
    const target = formatReplayOutcome(fixedReplay.outcome)
    let set = [...candidates]
    for (const f of candidates) {
      const without = set.filter((x) => x !== f)
      if (formatReplayOutcome(run(without).outcome) === target) set = without
    }
    flips.push({flags: set, replay: run(set)})
    reduced = true
  }
  const searched =
    `${candidates.length} changes between ${options.baseline.name} and ${options.fixed.name}, each alone; ` +
    `${flips.filter((f) => f.flags.length === 1).length} flipped the outcome alone and ${relevant.length} more changed this task's replay; ` +
    `every combination of those ${relevant.length} up to ${maxSize} was tried` +
    `${truncated ? ` until the bound of ${budget} replays was reached` : ''}${reduced ? '; no such set flipped the outcome, so fixed was reduced greedily to an irreducible set' : ''}` +
    ` (${runs + 2} replays)`
  return {
    baseline: options.baseline.name,
    baselineOutcome: baseOutcome,
    flips: flips
      .map((f) => ({flags: f.flags, outcome: formatReplayOutcome(f.replay.outcome), changesAtTurn: outcomeChangeTurn(base, f.replay), fidelity: replayFidelity(f.replay), ...conditions(f.replay, baseEndings)}))
      .sort((a, b) => a.flags.length - b.flags.length || (a.changesAtTurn ?? 1e9) - (b.changesAtTurn ?? 1e9) || (a.flags.join() < b.flags.join() ? -1 : 1)),
    fixedStillFails: options.fixedStillFails ?? null,
    searched,
  }
}

/**
 * What of a turn the comparison looks at: the verdict, the feedback, the signature, the matching
 * strategy and what the Coach was given (promise counts, `_synthetic`), so that a change that only
 * prepares another one (direct mode's `_synthetic` flag without its promises, still 0/N: docs/guardkit-logic.md
 * §2 S001) counts as one the replay depends on.
 */
function turnKey(t: ReplayedTurn): string {
  const req = t.detail.coach.requirements
  const inputs = t.detail.player.coachInputs
  return JSON.stringify([
    t.decision, t.criteriaMet, t.criteriaTotal, t.feedback, req ? req['strategy'] : null, t.stall?.fired ?? null,
    inputs ? [inputs.promisesInResults, inputs.promisesInReport, inputs.synthetic] : null, t.detail.coach.testCommand, t.detail.coach.step,
  ])
}

/**
 * Two turns alike for the search: the same key, and the same signature unless one of them is withheld (a
 * profile whose own wording the records cannot rebuild shows none: that alone is not a change it depends on).
 */
function sameTurn(a: ReplayedTurn, b: ReplayedTurn): boolean {
  if (turnKey(a) !== turnKey(b)) return false
  const withheld = (t: ReplayedTurn) => t.detail.feedback.signatureBasis === 'withheld'
  return a.signature === b.signature || withheld(a) || withheld(b)
}

/** How a replay may end: its one outcome, or each branch's with its condition. */
function endings(r: TaskReplay): {outcome: string; assume: string | null; brief: string | null}[] {
  return r.outcome.kind === 'branches'
    ? r.outcome.branches.map((b) => ({outcome: b.outcome, assume: b.assume, brief: b.brief}))
    : [{outcome: formatReplayOutcome(r.outcome), assume: null, brief: null}]
}

/** For a flip that holds only in some branches: those branches' conditions and outcomes. */
function conditions(r: TaskReplay, baseEndings: ReadonlySet<string>): {onlyIf?: {assume: string; brief: string; outcome: string}[]} {
  const all = endings(r)
  const flipping = all.filter((e) => !baseEndings.has(e.outcome))
  if (flipping.length === all.length) return {}
  return {onlyIf: flipping.map((e) => ({assume: e.assume!, brief: e.brief!, outcome: e.outcome}))}
}

function differs(a: TaskReplay, b: TaskReplay): boolean {
  return firstDifference(a, b) !== null || formatReplayOutcome(a.outcome) !== formatReplayOutcome(b.outcome)
}

/** The first turn at which `b` differs from `a` (a turn present in one only counts), or null. */
export function firstDifference(a: TaskReplay, b: TaskReplay): number | null {
  const turns = [...new Set([...a.turns.map((t) => t.turn), ...b.turns.map((t) => t.turn)])].sort((x, y) => x - y)
  for (const n of turns) {
    const ta = a.turns.find((t) => t.turn === n)
    const tb = b.turns.find((t) => t.turn === n)
    if (!ta || !tb || !sameTurn(ta, tb)) return n
  }
  if (formatReplayOutcome(a.outcome) !== formatReplayOutcome(b.outcome)) {
    const o = b.outcome
    return o.kind === 'replayed' || o.kind === 'recorded-boundary' ? o.turn : o.kind === 'undetermined' ? o.afterTurn : null
  }
  return null
}

/**
 * The turn at which the outcome changes: the first turn whose decision, criteria count or stall
 * check differs from the baseline (a signature alone does not change an outcome), else the turn the
 * flipped replay ends on.
 */
export function outcomeChangeTurn(a: TaskReplay, b: TaskReplay): number | null {
  for (const tb of b.turns) {
    const ta = a.turns.find((t) => t.turn === tb.turn)
    if (!ta || ta.decision !== tb.decision || ta.criteriaMet !== tb.criteriaMet || (ta.stall?.fired ?? false) !== (tb.stall?.fired ?? false)) return tb.turn
  }
  const o = b.outcome
  return o.kind === 'replayed' || o.kind === 'recorded-boundary' ? o.turn : o.kind === 'undetermined' ? o.afterTurn : null
}

export function* combinations<T>(items: readonly T[], size: number, start = 0, prefix: T[] = []): Generator<T[]> {
  if (prefix.length === size) {
    yield prefix
    return
  }
  for (let i = start; i < items.length; i++) yield* combinations(items, size, i + 1, [...prefix, items[i]!])
}
