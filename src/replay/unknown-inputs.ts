/**
 * Inputs a profile's replay needs, that the records lack, and whose value changes what the profile
 * decides (docs/counterfactuals.md). The replay does not pick a value for them: it
 * runs once per value the records allow (replay/branches.ts) and, when the outcomes differ, reports each
 * as a branch. The first value of each is the one a single replay assumes (the replay before this
 * existed: "nothing more reached the Coach"), so an input that never matters costs nothing.
 *
 * A value is applied to every turn that consults the input alike ("the agent wrote complete promises on
 * every turn"): turn-by-turn mixtures are not enumerated, which keeps the branches few; each input says so.
 */
export type UnknownId = 'agentPromises' | 'priorPromises' | 'directPromises' | 'feedbackRepeats'

export interface UnknownValue {
  readonly value: string
  /** The branch's condition in words: "the 6 promises recovered on turn 1 were complete for every criterion". */
  readonly assume: string
  /** The same condition once the input has been named ("they verified only some of them"). */
  readonly brief: string
}

export interface UnknownInput {
  readonly id: UnknownId
  /** The missing input, in words, as `missingInputs` lists it. */
  readonly input: string
  /** The values the records allow, the single replay's assumption first. */
  readonly values: readonly UnknownValue[]
  /** The turns whose replay consulted it. */
  readonly turns: readonly number[]
}

/** The value each enumerated input takes in one replay (absent: its first value). */
export type Assumptions = Readonly<Partial<Record<UnknownId, string>>>

export const NO_ASSUMPTIONS: Assumptions = {}

/** What the promises that would reach this profile's Coach verify (the three promise-shaped unknowns). */
export type PromiseCoverage = 'none' | 'some' | 'all'

/** The value an input takes in this replay. */
export function assumedValue(assume: Assumptions, input: UnknownInput): string {
  return assume[input.id] ?? input.values[0]!.value
}

/** Merge the inputs two turns consulted: one entry per input, turns accumulated (the first wording kept). */
export function mergeUnknowns(a: readonly UnknownInput[], b: readonly UnknownInput[]): UnknownInput[] {
  const out = [...a]
  for (const u of b) {
    const i = out.findIndex((x) => x.id === u.id)
    if (i < 0) out.push(u)
    else out[i] = {...out[i]!, turns: [...new Set([...out[i]!.turns, ...u.turns])].sort((x, y) => x - y)}
  }
  return out
}

/** The three values' wordings: `assume` names the input, `brief` follows a branch that already did. */
export type CoverageWording = Readonly<Record<PromiseCoverage, {readonly assume: string; readonly brief: string}>>

/** Promises, in words: "the promises the agent wrote verified none of the 6 criteria", … */
export function promiseWording(what: string, total: number): CoverageWording {
  return {
    none: {assume: `${what} verified none of the ${total} criteria (not complete, or for other ids)`, brief: 'they verified none of them'},
    some: {assume: `${what} verified some of the ${total} criteria but not all`, brief: 'they verified only some of them'},
    all: {assume: `${what} ${total === 1 ? 'was complete for the criterion' : `were complete for all ${total} criteria`}`, brief: `they were complete for all ${total}`},
  }
}

/**
 * "What the promises said", for promises the profile's Coach would read and the records do not hold:
 * they verify none of the criteria (the single replay's assumption: the recorded text match), some, or
 * all. `some` exists only with two or more criteria.
 */
export function promiseCoverageInput(id: Exclude<UnknownId, 'feedbackRepeats'>, input: string, wording: CoverageWording, total: number, turn: number): UnknownInput {
  const order: PromiseCoverage[] = total >= 2 ? ['none', 'some', 'all'] : ['none', 'all']
  return {id, input, values: order.map((value) => ({value, ...wording[value]})), turns: [turn]}
}

/**
 * Whether a profile's own feedback, whose wording the records cannot rebuild (they hold the run's), repeats
 * where the recorded feedback repeats (the single replay's assumption: the detector sees the recorded
 * texts' pattern) or never does (the detector never sees two alike).
 */
export function feedbackRepeatsInput(profile: string, turn: number): UnknownInput {
  return {
    id: 'feedbackRepeats',
    input: `${profile}'s own feedback texts (worded otherwise than the recorded ones, which are all the records hold)`,
    values: [
      {value: 'as-recorded', assume: `${profile}'s own feedback (not in the records) repeated where the recorded feedback did`, brief: 'it repeated where the recorded feedback did'},
      {value: 'never', assume: `${profile}'s own feedback (not in the records) never repeated`, brief: 'it never repeated'},
    ],
    turns: [turn],
  }
}
