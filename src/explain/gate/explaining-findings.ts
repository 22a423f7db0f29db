import type {LogicFlags} from '../../logic/changes.js'
import type {Finding} from '../../model/finding.js'
import type {GateFinding, GateReason, GateRule} from './types.js'

const MAX_FINDINGS = 3
const MAX_EVIDENCE = 3

/**
 * The findings that explain a task's regressions, best first: those fixed by a logic change the
 * baseline has and the candidate lacks (the change the candidate lost), then those naming a turn
 * a regression happens at, else the task's most severe finding. At most three.
 */
export function explainingFindings(findings: readonly Finding[], reasons: readonly GateReason[], baseline: LogicFlags | null, candidate: LogicFlags | null, candidateName: string): GateFinding[] {
  const regressions = reasons.filter((r) => r.effect === 'regression' && !r.waived)
  if (regressions.length === 0 || findings.length === 0) return []
  const rules = [...new Set(regressions.map((r) => r.rule))]
  const turns = new Set(regressions.map((r) => r.turn).filter((t): t is number => t !== null))
  const lost = (flag: string): boolean => baseline !== null && candidate !== null && (baseline as Record<string, boolean>)[flag] === true && (candidate as Record<string, boolean>)[flag] !== true
  const scored = findings.map((f, order) => {
    const lostFlags = (f.fixedIn?.flags ?? []).filter(lost)
    if (lostFlags.length > 0) return {f, order, rank: 0, why: `fixed by ${lostFlags.join(' + ')} (${f.fixedIn!.commit}), which ${candidateName} lacks`, explains: rules}
    const named = f.turns.filter((t) => turns.has(t))
    if (named.length > 0) {
      const explains = regressions.filter((r) => r.turn !== null && f.turns.includes(r.turn)).map((r) => r.rule)
      return {f, order, rank: 1, why: `names turn ${named.join(', ')}, where the regression happens`, explains: [...new Set(explains)]}
    }
    return {f, order, rank: 2, why: 'the most severe finding of this task', explains: rules}
  })
  const chosen = scored.filter((s) => s.rank < 2)
  const picked = (chosen.length > 0 ? chosen : scored.slice(0, 1)).sort((a, b) => a.rank - b.rank || a.order - b.order).slice(0, MAX_FINDINGS)
  return picked.map(({f, why, explains}) => toGateFinding(f, why, explains))
}

function toGateFinding(f: Finding, why: string, explains: readonly GateRule[]): GateFinding {
  return {
    code: f.code,
    severity: f.severity,
    confidence: f.confidence,
    turns: [...f.turns],
    message: f.message,
    fixedIn: f.fixedIn === null ? null : {flags: [...f.fixedIn.flags], commit: f.fixedIn.commit},
    evidence: f.evidence.slice(0, MAX_EVIDENCE).map((e) => ({file: e.file, ...(e.line === undefined ? {} : {line: e.line}), ...(e.pointer === undefined ? {} : {pointer: e.pointer})})),
    reproduce: f.reproduce,
    explains: [...explains],
    why,
  }
}
