import type {ReplayBranch, ReplayOutcome} from '../replay/types.js'

/**
 * An undetermined replay in words (docs/counterfactuals.md): each branch's ending
 * with its condition, the branch that holds under the single replay's assumptions last, as "otherwise":
 * "approved at turn 2 if the 6 promises recovered on turn 1 (not in the log) were complete for all 6
 * criteria; otherwise a stall at turn 4".
 */
export function describeBranches(branches: readonly (Pick<ReplayBranch, 'assume' | 'outcome' | 'stallTurn' | 'endTurn'> & {readonly brief?: string})[]): string {
  const last = branches.length - 1
  return branches.map((b, i) => (i === last ? `otherwise ${branchEnding(b)}` : `${branchEnding(b)} if ${i === 0 ? b.assume : (b.brief ?? b.assume)}`)).join('; ')
}

/** How one branch ends: "approved at turn 2", "a stall at turn 4", "undetermined after turn 4", "cancelled (recorded) at turn 18". */
export function branchEnding(b: Pick<ReplayBranch, 'outcome' | 'stallTurn' | 'endTurn'>): string {
  if (b.outcome === 'unrecoverable_stall' && b.stallTurn !== null) return `a stall at turn ${b.stallTurn}`
  if (b.endTurn === null) return b.outcome
  return `${b.outcome} at turn ${b.endTurn}`
}

/** The branches of a replay outcome, or none when it is determined. */
export function branchesOf(outcome: ReplayOutcome): readonly ReplayBranch[] {
  return outcome.kind === 'branches' ? outcome.branches : []
}
