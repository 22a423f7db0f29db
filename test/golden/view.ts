/**
 * What the golden checks look at, reduced from the analysis of one RUN (from-analysis.ts builds it).
 * Keeping the checks on this small shape lets the matcher be tested on its own (harness.test.ts).
 */
export type Fidelity = 'exact' | 'approximate' | 'insufficient'

export interface ViewReplayTurn {
  readonly turn: number
  readonly criteriaMet: number | null
  readonly criteriaTotal: number | null
  readonly signature: string | null
  readonly fidelity: Fidelity
  readonly missingInputs: readonly string[]
}

export interface ViewReplay {
  /** The contract's outcome string: `approved`, `cancelled (recorded)`, `undetermined after turn 18`, `not modelled`. */
  readonly outcome: string
  readonly stallTurn: number | null
  /** The last turn the replay executed (its deciding turn; for an undetermined replay, the last turn replayed). */
  readonly endTurn: number | null
  readonly turns: readonly ViewReplayTurn[]
  readonly missingInputs: readonly string[]
  /** An undetermined replay's branches (`outcome` is `undetermined`), else empty. */
  readonly branches: readonly {readonly outcome: string; readonly stallTurn: number | null; readonly endTurn: number | null; readonly values: Readonly<Record<string, readonly string[]>>}[]
}

export interface ViewRecorded {
  readonly outcome: string | null
  /** Turns the record holds (the orchestrator's own count when logged). */
  readonly turns: number
  readonly stall: {readonly turn: number | null; readonly signature: string | null} | null
  readonly criteria: Readonly<Record<number, readonly [number | null, number | null]>>
}

export interface ViewTask {
  readonly taskId: string
  readonly attempt: number
  readonly mode: string | null
  readonly recorded: ViewRecorded
  /** Keyed by profile name as the tool reports it (`legacy`, `fixed`, `as-run:351c53fa`, …). */
  readonly replays: Readonly<Record<string, ViewReplay>>
  readonly findings: readonly {readonly code: string; readonly turns: readonly number[]}[]
}

export interface GoldenView {
  /** The profile the tool inferred for the run's era, or null. */
  readonly inferredProfile: string | null
  readonly ingestIssues: readonly {readonly file: string; readonly code: string}[]
  readonly tasks: readonly ViewTask[]
}
