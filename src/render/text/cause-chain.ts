import {SEVERITY_ORDER, type Finding} from '../../model/finding.js'
import {stableSortBy} from '../../shared/code-point-order.js'

/** One line of a task's cause chain: a finding placed under the finding it follows from. */
export interface ChainEntry {
  readonly finding: Finding
  /** 1-based position in the chain, the number a reader refers to. */
  readonly number: number
  /** 0 for a root cause, 1 for its direct effect, … */
  readonly depth: number
  /** Numbers of further causes this finding follows from (it is drawn under the first). */
  readonly alsoFollows: readonly number[]
}

/**
 * Orders a task's findings as cause trees (Finding.causes points from effect to cause): each root
 * cause, then its effects under it; roots and siblings most severe first, ties in report order.
 * A finding with several causes is drawn under the first and lists the others; cycles and causes
 * outside the task are cut, so every finding appears exactly once.
 */
export function orderCauseChain(findings: readonly Finding[]): ChainEntry[] {
  const byId = new Map(findings.map((f) => [f.id, f]))
  const knownCauses = (f: Finding) => f.causes.filter((c) => c !== f.id && byId.has(c))
  const children = new Map<string, Finding[]>()
  for (const f of findings) {
    const first = knownCauses(f)[0]
    if (first !== undefined) children.set(first, [...(children.get(first) ?? []), f])
  }
  const bySeverity = (list: readonly Finding[]) => stableSortBy(list, (a, b) => severityRank(a) - severityRank(b))
  const placed: {finding: Finding; depth: number}[] = []
  const seen = new Set<string>()
  const visit = (f: Finding, depth: number) => {
    if (seen.has(f.id)) return
    seen.add(f.id)
    placed.push({finding: f, depth})
    for (const child of bySeverity(children.get(f.id) ?? [])) visit(child, depth + 1)
  }
  const roots = findings.filter((f) => knownCauses(f).length === 0)
  for (const root of stableSortBy(roots, (a, b) => treeRank(a, children) - treeRank(b, children))) visit(root, 0)
  // a cycle has no root: start it at its most severe member
  for (const f of bySeverity(findings)) visit(f, 0)
  const numberOf = new Map(placed.map((p, i) => [p.finding.id, i + 1]))
  return placed.map((p, i) => ({
    finding: p.finding,
    number: i + 1,
    depth: p.depth,
    alsoFollows: knownCauses(p.finding).slice(p.depth === 0 ? 0 : 1).map((id) => numberOf.get(id)!).filter((n) => n !== undefined),
  }))
}

function severityRank(f: Finding): number {
  return SEVERITY_ORDER.indexOf(f.severity)
}

/** A tree ranks by its most severe member, so a low root with a critical effect comes first. */
function treeRank(root: Finding, children: ReadonlyMap<string, Finding[]>, seen = new Set<string>()): number {
  if (seen.has(root.id)) return severityRank(root)
  seen.add(root.id)
  return Math.min(severityRank(root), ...(children.get(root.id) ?? []).map((c) => treeRank(c, children, seen)))
}
