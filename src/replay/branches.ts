import {formatReplayOutcome, type EnumeratedInput, type ReplayBranch, type ReplayedTurn, type ReplayOutcome, type TaskReplay} from './types.js'
import {mergeUnknowns, NO_ASSUMPTIONS, type Assumptions, type UnknownId, type UnknownInput} from './unknown-inputs.js'

/** One fold of the replay under given values of the missing inputs, and the inputs it consulted. */
export interface FoldedReplay {
  readonly replay: TaskReplay
  readonly unknowns: readonly UnknownInput[]
}

/** At most this many folds per task and profile: three inputs of three values each. */
const MAX_FOLDS = 27

type Summary = {readonly outcome: string; readonly stallTurn: number | null; readonly endTurn: number | null}
type Fold = {readonly assume: Assumptions; readonly folded: FoldedReplay; readonly summary: Summary}

/**
 * "Undetermined is an answer" (docs/counterfactuals.md): replay once with the first value of every input the
 * records lack; if a turn consulted one, replay every combination of the values they allow (inputs found
 * only under another value are added, within MAX_FOLDS). An input is part of the answer only when changing
 * it alone changes how the loop ends (outcome, stall turn, end turn); inputs that never do are listed as
 * enumerated without effect. One outcome for every combination: a definite replay (the turns whose values
 * depend on an input say so). Several: `outcome.kind === 'branches'`, one branch per outcome, the one that
 * holds under the first values last ("otherwise …"); turns on which the branches disagree are
 * `insufficient`, with the inputs that decide them.
 */
export function replayWithBranches(run: (assume: Assumptions) => FoldedReplay): TaskReplay {
  const base = run(NO_ASSUMPTIONS)
  if (base.unknowns.length === 0) return base.replay
  // Texts that never repeat can only take firings of the stall detector away: when the replay under the first
  // values never fires it, whether a profile's own feedback repeats cannot change how the loop ends.
  const moot = (u: UnknownInput) => u.id === 'feedbackRepeats' && base.replay.stallTurn === null
  const consulted = mergeUnknowns([], base.unknowns)
  const mootInputs = consulted.filter(moot)
  if (mootInputs.length === consulted.length) return {...base.replay, enumerated: mootInputs.map((u) => enumeratedOf(u, false))}
  let inputs: UnknownInput[] = consulted.filter((u) => !moot(u))
  const folds = new Map<string, Fold>()
  const heldAtFirst = new Set<UnknownId>()
  for (;;) {
    const enumerable = fitting(inputs)
    for (const u of inputs) if (!enumerable.includes(u)) heldAtFirst.add(u.id)
    let found: UnknownInput[] = []
    for (const assume of combinations(enumerable)) {
      const key = keyOf(assume)
      if (folds.has(key)) continue
      const folded = isFirst(assume) ? base : run(assume)
      folds.set(key, {assume, folded, summary: summarise(folded.replay)})
      found = mergeUnknowns(found, folded.unknowns)
    }
    const fresh = found.filter((u) => !inputs.some((x) => x.id === u.id))
    inputs = mergeUnknowns(inputs, found)
    if (fresh.length === 0 || fitting(inputs).length === enumerable.length) break
  }
  const enumerable = fitting(inputs)
  const all = combinations(enumerable).map((a) => folds.get(keyOf(a))!)
  const deciding = enumerable.filter((u) => decides(u, all))
  const enumerated: EnumeratedInput[] = [...inputs.map((u) => enumeratedOf(u, deciding.some((d) => d.id === u.id))), ...mootInputs.map((u) => enumeratedOf(u, false))]
  const held = inputs.filter((u) => heldAtFirst.has(u.id)).map((u) => `${u.input} (held at "${u.values[0]!.assume}": too many combinations to replay them all)`)
  const groups = groupBySummary(all)
  if (groups.length === 1) {
    return {...base.replay, turns: markDependentTurns(base.replay.turns, all, enumerable), enumerated, missingInputs: [...new Set([...base.replay.missingInputs, ...held])]}
  }
  const branches = groups.map((g) => branchOf(g, deciding))
  const stallTurns = new Set(groups.map((g) => g[0]!.summary.stallTurn))
  return {
    profile: base.replay.profile,
    outcome: {kind: 'branches', branches},
    stallTurn: stallTurns.size === 1 ? [...stallTurns][0]! : null,
    turns: mergeTurns(all, deciding),
    missingInputs: [...new Set([...base.replay.missingInputs, ...deciding.map((u) => u.input), ...held])],
    enumerated,
  }
}

function enumeratedOf(u: UnknownInput, changesOutcome: boolean): EnumeratedInput {
  return {id: u.id, input: u.input, values: u.values.map((v) => ({...v})), turns: [...u.turns], changesOutcome}
}

/** The inputs whose combinations fit in MAX_FOLDS, in the order they were first consulted. */
function fitting(inputs: readonly UnknownInput[]): UnknownInput[] {
  const out: UnknownInput[] = []
  let product = 1
  for (const u of inputs) {
    if (product * u.values.length > MAX_FOLDS) break
    product *= u.values.length
    out.push(u)
  }
  return out
}

/** Every combination of values, the first values first (index 0 is the single replay's). */
function combinations(inputs: readonly UnknownInput[]): Assumptions[] {
  let out: Record<string, string>[] = [{}]
  for (const u of inputs) out = out.flatMap((a) => u.values.map((v) => ({...a, [u.id]: v.value})))
  return out.map((a) => Object.fromEntries(Object.entries(a).filter(([id, v]) => inputs.find((u) => u.id === id)!.values[0]!.value !== v)))
}

function isFirst(assume: Assumptions): boolean {
  return Object.keys(assume).length === 0
}

/** Assumptions list only values other than the first, so this key is the same whichever inputs were known. */
function keyOf(assume: Assumptions): string {
  return Object.entries(assume).sort(([a], [b]) => (a < b ? -1 : 1)).map(([id, v]) => `${id}=${v}`).join(';')
}

function valueOf(assume: Assumptions, u: UnknownInput): string {
  return assume[u.id] ?? u.values[0]!.value
}

function endTurnOf(o: ReplayOutcome): number | null {
  return o.kind === 'replayed' || o.kind === 'recorded-boundary' ? o.turn : null
}

function summarise(replay: TaskReplay): Summary {
  return {outcome: formatReplayOutcome(replay.outcome), stallTurn: replay.stallTurn, endTurn: endTurnOf(replay.outcome)}
}

const sameSummary = (a: Summary, b: Summary): boolean => a.outcome === b.outcome && a.stallTurn === b.stallTurn && a.endTurn === b.endTurn

/** Changing this input alone (all others as they are) changes how the loop ends, for some combination. */
function decides(u: UnknownInput, folds: readonly Fold[]): boolean {
  return folds.some((a) => folds.some((b) => valueOf(a.assume, u) !== valueOf(b.assume, u) && onlyDiffersIn(a.assume, b.assume, u.id) && !sameSummary(a.summary, b.summary)))
}

function onlyDiffersIn(a: Assumptions, b: Assumptions, id: UnknownId): boolean {
  const ids = new Set([...Object.keys(a), ...Object.keys(b)] as UnknownId[])
  return [...ids].every((k) => k === id || a[k] === b[k])
}

/** Folds with one outcome together, in enumeration order; the group holding the first values last. */
function groupBySummary(folds: readonly Fold[]): Fold[][] {
  const groups: Fold[][] = []
  for (const f of folds) {
    const g = groups.find((x) => sameSummary(x[0]!.summary, f.summary))
    if (g) g.push(f)
    else groups.push([f])
  }
  const first = groups.find((g) => g.some((f) => isFirst(f.assume)))!
  return [...groups.filter((g) => g !== first).reverse(), first]
}

function branchOf(group: readonly Fold[], deciding: readonly UnknownInput[]): ReplayBranch {
  const values: Partial<Record<UnknownId, string[]>> = {}
  for (const u of deciding) values[u.id] = u.values.map((v) => v.value).filter((v) => group.some((f) => valueOf(f.assume, u) === v))
  const rep = group[0]!
  const o = rep.folded.replay.outcome as Exclude<ReplayOutcome, {kind: 'branches'}>
  return {
    assume: describeGroup(group, deciding, 'assume'),
    brief: describeGroup(group, deciding, 'brief'),
    values,
    outcome: rep.summary.outcome,
    stallTurn: rep.summary.stallTurn,
    endTurn: rep.summary.endTurn,
    replay: {outcome: o, turns: rep.folded.replay.turns},
  }
}

/** The group's condition in words: one deciding input → its values joined by "or"; several → each combination. */
function describeGroup(group: readonly Fold[], deciding: readonly UnknownInput[], form: 'assume' | 'brief'): string {
  // A brief form only reads well when one input is in question; with several, each is named in full.
  const phrase = (u: UnknownInput, value: string) => u.values.find((v) => v.value === value)![deciding.length === 1 ? form : 'assume']
  if (deciding.length === 1) {
    const u = deciding[0]!
    const vals = u.values.map((v) => v.value).filter((v) => group.some((f) => valueOf(f.assume, u) === v))
    return vals.map((v) => phrase(u, v)).join(', or ')
  }
  const seen = new Set<string>()
  const parts: string[] = []
  for (const f of group) {
    const text = deciding.map((u) => phrase(u, valueOf(f.assume, u))).join(' and ')
    if (!seen.has(text)) parts.push(text)
    seen.add(text)
  }
  return parts.join('; or ')
}

/** What the comparisons of turns across branches look at: the verdict, the counts, the signature, the detector. */
function turnKey(t: ReplayedTurn): string {
  return JSON.stringify([t.decision, t.criteriaMet, t.criteriaTotal, t.signature, t.stall?.fired ?? null])
}

/** Turns of a definite replay whose values change with an enumerated input: approximate, with the input named. */
function markDependentTurns(turns: readonly ReplayedTurn[], folds: readonly Fold[], inputs: readonly UnknownInput[]): ReplayedTurn[] {
  return turns.map((t) => {
    const others = folds.map((f) => f.folded.replay.turns.find((x) => x.turn === t.turn))
    if (others.every((o) => o !== undefined && turnKey(o) === turnKey(t))) return t
    const which = inputs.filter((u) => u.turns.some((n) => n <= t.turn)).map((u) => u.input)
    return {
      ...t,
      fidelity: t.fidelity === 'exact' ? 'approximate' : t.fidelity,
      missingInputs: [...new Set([...t.missingInputs, ...which])],
      assumptions: [...t.assumptions, `this turn's verdict, counts or signature depend on ${which.join(' and ')} (every value ends the loop the same way)`],
    }
  })
}

/**
 * The turns of an undetermined replay: where every branch plays a turn alike it is kept; where they
 * disagree, or only some reach it, it is `insufficient`, its disagreeing values null, and the deciding
 * inputs are what it misses.
 */
function mergeTurns(folds: readonly Fold[], deciding: readonly UnknownInput[]): ReplayedTurn[] {
  const replays = folds.map((f) => f.folded.replay)
  const numbers = [...new Set(replays.flatMap((r) => r.turns.map((t) => t.turn)))].sort((a, b) => a - b)
  const inputs = deciding.map((u) => u.input)
  return numbers.map((n) => {
    const at = replays.map((r) => r.turns.find((t) => t.turn === n))
    const present = at.filter((t): t is ReplayedTurn => t !== undefined)
    const first = present[0]!
    if (present.length === replays.length && present.every((t) => turnKey(t) === turnKey(first))) return first
    const agree = <T>(f: (t: ReplayedTurn) => T): boolean => present.every((t) => JSON.stringify(f(t)) === JSON.stringify(f(first)))
    const reachedByAll = present.length === replays.length
    const signature = agree((t) => t.signature) ? first.signature : null
    return {
      ...first,
      detail: signature === null && first.signature !== null ? {...first.detail, feedback: {...first.detail.feedback, signatureBasis: 'branches' as const}} : first.detail,
      decision: agree((t) => t.decision) ? first.decision : null,
      criteriaMet: agree((t) => t.criteriaMet) ? first.criteriaMet : null,
      criteriaTotal: agree((t) => t.criteriaTotal) ? first.criteriaTotal : null,
      feedback: agree((t) => t.feedback) ? first.feedback : null,
      signature,
      stall: agree((t) => t.stall?.fired ?? null) ? first.stall : null,
      fidelity: 'insufficient',
      missingInputs: [...new Set([...first.missingInputs, ...inputs])],
      assumptions: [...first.assumptions, reachedByAll
        ? `the branches play turn ${n} differently: it depends on ${inputs.join(' and ')}`
        : `turn ${n} is reached only in some branches: it depends on ${inputs.join(' and ')}`],
    }
  })
}
