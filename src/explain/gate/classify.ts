import {fidelityRank, type SideView} from './side.js'
import {CHANGE_RULES, IMPROVEMENT_RULES, type GateClass, type GatePolicy, type GateReason, type GateRule, type GateSide, type GateTurnCell} from './types.js'

export interface Classification {
  readonly classification: GateClass
  readonly reasons: readonly GateReason[]
  readonly approximate: boolean
  readonly skipReason: string | null
}

/**
 * The policy (docs/ci.md, "The policy"): baseline → candidate for one task. Outcome rules first
 * (approvals, stalls, errors), then turn by turn over the turns both sides cover (criteria,
 * decisions, feedback, signatures), then what is left (outcome, fidelity). A task is regressed when
 * any regression rule fires, else improved when any improvement fires, else changed when anything
 * differs, else unchanged. "Undetermined after turn N" is read as "still running after turn N":
 * a fact about turns 1…N, so it can lose an approval or miss a stall at or before N; beyond N
 * nothing is claimed. Approximate values count as they are; the reason says it rests on them.
 */
export function classifyPair(b: SideView, c: SideView, policy: GatePolicy): Classification {
  if (b.branches || c.branches) return classifyBranches(b, c, policy)
  const B = b.side
  const C = c.side
  if (B.kind === 'not-modelled' || C.kind === 'not-modelled') {
    return skipped(`not modelled: ${B.kind === 'not-modelled' ? B.subject : C.subject} cannot be replayed on this run (its GuardKit era is outside the modelled window)`)
  }
  if (b.cells.size === 0 && c.cells.size === 0 && (B.endTurn ?? 0) === 0 && (C.endTurn ?? 0) === 0) {
    return skipped('nothing to compare: the records hold no turn of this task')
  }
  const reasons: GateReason[] = []
  const outcomeApprox = B.fidelity !== 'exact' || C.fidelity !== 'exact'
  const add = (rule: GateRule, turn: number | null, message: string, approximate = outcomeApprox): void => {
    reasons.push({rule, effect: effectOf(rule, policy), turn, message, approximate, ...noteOf(rule, policy)})
  }
  outcomeRules(b, c, add)
  turnRules(b, c, add)
  // two undetermined sides differ only in how far the records let them go: not a verdict
  const bothRunning = B.kind === 'undetermined' && C.kind === 'undetermined'
  if (!reasons.some((r) => OUTCOME_RULES.has(r.rule)) && B.outcome !== C.outcome && !bothRunning) {
    if (C.kind === 'undetermined' && B.kind !== 'undetermined') add('became-undetermined', C.endTurn, `${C.subject} is ${C.outcome}; ${B.subject} ends ${describe(B)}`)
    else add('outcome-changed', C.endTurn, `${B.subject} ends ${describe(B)}; ${C.subject} ends ${describe(C)}`)
  }
  if (fidelityRank(C.fidelity) > fidelityRank(B.fidelity)) {
    add('fidelity-dropped', null, `${C.subject}'s verdict rests on ${C.fidelity} inputs; ${B.subject}'s is ${B.fidelity}`, true)
  }
  return decide(reasons)
}

/**
 * A side whose outcome depends on an input the records lack (its branches): each branch is compared as a
 * side of its own. The same class in every branch is the class, its reasons said to hold in every branch;
 * otherwise the comparison itself is undetermined: `became-undetermined`, which lists the class under each
 * condition (a change, a regression under `--fail-on undetermined`).
 */
function classifyBranches(b: SideView, c: SideView, policy: GatePolicy): Classification {
  const expand = (s: SideView) => s.branches ?? [{assume: null as string | null, brief: null as string | null, view: s}]
  const pairs = expand(b).flatMap((x) => expand(c).map((y) => ({x, y, cls: classifyPair(x.view, y.view, policy)})))
  const classes = new Set(pairs.map((p) => p.cls.classification))
  if (classes.size === 1) {
    const first = pairs[0]!.cls
    if (first.classification === 'skipped') return first
    return {...first, reasons: first.reasons.map((r) => ({...r, message: `in every branch: ${r.message}`})), approximate: pairs.some((p) => p.cls.approximate)}
  }
  // The first condition names the missing input; the others say only what differs (one side undetermined).
  const condition = (p: (typeof pairs)[number], i: number) =>
    (i === 0 || (b.branches && c.branches) ? [p.x.assume, p.y.assume] : [p.x.brief, p.y.brief]).filter((a) => a !== null).join(' and ')
  const message = `${b.branches ? `${b.side.subject} is undetermined` : ''}${b.branches && c.branches ? ' and ' : ''}${c.branches ? `${c.side.subject} is undetermined` : ''}: ` +
    pairs.map((p, i) => `${p.cls.classification} if ${condition(p, i)}`).join('; ')
  return decide([{rule: 'became-undetermined', effect: effectOf('became-undetermined', policy), turn: null, message, approximate: false, ...noteOf('became-undetermined', policy)}])
}

/** Class and approximate flag from the reasons that count (waived ones do not). */
export function decide(reasons: readonly GateReason[]): Classification {
  const counted = reasons.filter((r) => !r.waived && r.effect !== 'note')
  const sorted = [...reasons].sort((x, y) => EFFECT_ORDER[x.effect] - EFFECT_ORDER[y.effect])
  const top = counted.some((r) => r.effect === 'regression') ? 'regression' : counted.some((r) => r.effect === 'improvement') ? 'improvement' : counted.length ? 'change' : null
  const classification: GateClass = top === 'regression' ? 'regressed' : top === 'improvement' ? 'improved' : top === 'change' ? 'changed' : 'unchanged'
  const deciding = counted.filter((r) => r.effect === top)
  return {classification, reasons: sorted, approximate: deciding.length > 0 && deciding.every((r) => r.approximate), skipReason: null}
}

const EFFECT_ORDER = {regression: 0, improvement: 1, change: 2, note: 3} as const

const OUTCOME_RULES = new Set<GateRule>(['approval-lost', 'approval-later', 'approval-earlier', 'approval-gained', 'false-approval', 'stall-later', 'stall-missing', 'stall-earlier', 'stall-caught', 'new-error', 'error-fixed'])

type Add = (rule: GateRule, turn: number | null, message: string, approximate?: boolean) => void

function outcomeRules(b: SideView, c: SideView, add: Add): void {
  const B = b.side
  const C = c.side
  const approvedB = B.kind === 'approved' ? B.endTurn : null
  const approvedC = C.kind === 'approved' ? C.endTurn : null
  const horizonB = B.endTurn ?? 0
  const horizonC = C.endTurn ?? 0
  if (approvedB !== null) {
    if (approvedC !== null) {
      if (approvedC > approvedB) add('approval-later', approvedC, `${B.subject} approves at turn ${approvedB}; ${C.subject} only at turn ${approvedC}`)
      else if (approvedC < approvedB) add('approval-earlier', approvedC, `${C.subject} approves at turn ${approvedC}, ${B.subject} only at turn ${approvedB}`)
    } else if (C.kind !== 'undetermined' || horizonC >= approvedB) {
      add('approval-lost', approvedB, `${B.subject} approves at turn ${approvedB}; ${C.subject} does not (${describe(C)})`)
    }
  } else if (approvedC !== null && c.falseApproval === null) {
    add('approval-gained', approvedC, `${C.subject} approves at turn ${approvedC}; ${B.subject} does not (${describe(B)})`)
  }
  if (approvedC !== null && c.falseApproval !== null && (approvedB === null || b.falseApproval === null)) {
    add('false-approval', approvedC, `${C.subject} approves at turn ${approvedC}, but ${c.falseApproval}`)
  }
  const stalledB = B.kind === 'stalled' ? B.endTurn : null
  const stalledC = C.kind === 'stalled' ? C.endTurn : null
  if (stalledB !== null && approvedC === null) {
    if (stalledC !== null) {
      if (stalledC > stalledB) add('stall-later', stalledC, `${B.subject} stops the stalled loop at turn ${stalledB}; ${C.subject} only at turn ${stalledC}`)
      else if (stalledC < stalledB) add('stall-earlier', stalledC, `${C.subject} stops the stalled loop at turn ${stalledC}, ${B.subject} only at turn ${stalledB}`)
    } else if (horizonC >= stalledB) {
      add('stall-missing', stalledB, `${B.subject} stops the stalled loop at turn ${stalledB}; ${C.subject} does not (${describe(C)})`)
    }
  } else if (stalledC !== null && approvedB === null && stalledB === null && horizonB >= stalledC) {
    add('stall-caught', stalledC, `${C.subject} stops the stalled loop at turn ${stalledC}; ${B.subject} goes on (${describe(B)})`)
  }
  const errorB = B.kind === 'failed' && B.outcome === 'error'
  const errorC = C.kind === 'failed' && C.outcome === 'error'
  if (errorC && !errorB) add('new-error', C.endTurn, `${C.subject} ends in an error at turn ${C.endTurn ?? '?'}; ${B.subject} ${describe(B)}`)
  if (errorB && !errorC) add('error-fixed', B.endTurn, `${B.subject} ends in an error at turn ${B.endTurn ?? '?'}; ${C.subject} ${describe(C)}`)
}

/** Turn by turn, over the turns both sides cover: each rule once, at the first turn it applies. */
function turnRules(b: SideView, c: SideView, add: Add): void {
  const last = Math.min(b.side.endTurn ?? 0, c.side.endTurn ?? 0)
  const seen = new Set<GateRule>()
  const once = (rule: GateRule, turn: number, message: string, x: GateTurnCell, y: GateTurnCell): void => {
    if (seen.has(rule)) return
    seen.add(rule)
    add(rule, turn, message, x.fidelity !== 'exact' || y.fidelity !== 'exact' || x.inferred || y.inferred)
  }
  const B = b.side.subject
  const C = c.side.subject
  for (const turn of [...b.cells.keys()].filter((t) => t <= last && c.cells.has(t)).sort((x, y) => x - y)) {
    const x = b.cells.get(turn)!
    const y = c.cells.get(turn)!
    if (x.fidelity === 'insufficient' || y.fidelity === 'insufficient') continue
    if (x.criteriaMet !== null && y.criteriaMet !== null) {
      if (y.criteriaMet < x.criteriaMet) once('criterion-lost', turn, `turn ${turn}: ${C} verifies ${counts(y)} criteria, ${B} ${counts(x)}`, x, y)
      else if (y.criteriaMet > x.criteriaMet) once('criteria-gained', turn, `turn ${turn}: ${C} verifies ${counts(y)} criteria, ${B} ${counts(x)}`, x, y)
    }
    if (x.criteriaTotal !== null && y.criteriaTotal !== null && x.criteriaTotal !== y.criteriaTotal) {
      once('criteria-total-changed', turn, `turn ${turn}: ${C} counts ${y.criteriaTotal} criteria, ${B} ${x.criteriaTotal}`, x, y)
    }
    if (x.decision !== null && y.decision !== null && x.decision !== y.decision) once('decision-changed', turn, `turn ${turn}: ${B} decides ${x.decision}, ${C} ${y.decision}`, x, y)
    if (x.feedback !== null && y.feedback !== null && !sameFeedback(x, y)) once('feedback-changed', turn, `turn ${turn}: the feedback to the Player differs`, x, y)
    if (x.signature !== null && y.signature !== null && x.signature !== y.signature) {
      once('signature-changed', turn, `turn ${turn}: stall signature ${x.signature} under ${B}, ${y.signature} under ${C}`, x, y)
    }
  }
}

/** Equal texts; when one side holds only an excerpt, the other must start with it. */
function sameFeedback(x: GateTurnCell, y: GateTurnCell): boolean {
  const a = x.feedback!
  const b = y.feedback!
  if (x.feedbackComplete && y.feedbackComplete) return a === b
  if (!x.feedbackComplete && y.feedbackComplete) return b.startsWith(a)
  if (x.feedbackComplete && !y.feedbackComplete) return a.startsWith(b)
  return a.startsWith(b) || b.startsWith(a)
}

function effectOf(rule: GateRule, policy: GatePolicy): GateReason['effect'] {
  if (rule === 'became-undetermined' && policy.failOn.includes('undetermined')) return 'regression'
  if (rule === 'fidelity-dropped') return policy.failOn.includes('approximate') ? 'regression' : 'note'
  if ((IMPROVEMENT_RULES as readonly string[]).includes(rule)) return 'improvement'
  if ((CHANGE_RULES as readonly string[]).includes(rule)) return 'change'
  return 'regression'
}

function noteOf(rule: GateRule, policy: GatePolicy): {note?: string} {
  if (rule === 'became-undetermined' && policy.failOn.includes('undetermined')) return {note: 'a regression under --fail-on undetermined'}
  if (rule === 'fidelity-dropped' && policy.failOn.includes('approximate')) return {note: 'a regression under --fail-on approximate'}
  return {}
}

function skipped(reason: string): Classification {
  return {classification: 'skipped', reasons: [], approximate: false, skipReason: reason}
}

function counts(x: GateTurnCell): string {
  return `${x.criteriaMet ?? '?'}/${x.criteriaTotal ?? '?'}`
}

/** `approved at turn 1`, `unrecoverable_stall at turn 5`, `cancelled (recorded) at turn 18`, `undetermined after turn 1`. */
export function describe(s: GateSide): string {
  if (s.kind === 'undetermined' || s.kind === 'not-modelled' || s.endTurn === null) return s.outcome
  return `${s.outcome} at turn ${s.endTurn}`
}
