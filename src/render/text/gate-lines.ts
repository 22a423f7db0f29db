import {diffArrays} from 'diff'
import {describeBranches} from '../../explain/branch-phrases.js'
import type {GateReason, GateRule, GateSide, GateTask, GateTurnCell, GateTurnRow} from '../gate-report.js'

/**
 * The pieces every gate renderer (text, Markdown, JUnit, annotations) shares: how an outcome, a
 * task's result and a turn are written in one line, and the turn-by-turn diff of two sides.
 */

const RULE_LABEL: Record<GateRule, string> = {
  'approval-lost': 'approval lost',
  'approval-later': 'approval later',
  'false-approval': 'false approval',
  'stall-later': 'stall later',
  'stall-missing': 'stall missing',
  'criterion-lost': 'criterion lost',
  'new-error': 'new error',
  'expectation-unmet': 'expectation not met',
  'approval-gained': 'approval gained',
  'approval-earlier': 'approval earlier',
  'stall-earlier': 'stall earlier',
  'stall-caught': 'stall caught',
  'criteria-gained': 'criteria gained',
  'error-fixed': 'error fixed',
  'outcome-changed': 'outcome changed',
  'became-undetermined': 'now undetermined',
  'fidelity-dropped': 'less exact',
  'decision-changed': 'decision changed',
  'criteria-total-changed': 'criteria count changed',
  'feedback-changed': 'feedback changed',
  'signature-changed': 'signature changed',
  'expectation-met': 'as expected',
}

export function ruleLabel(rule: GateRule): string {
  return RULE_LABEL[rule]
}

/**
 * `approved @1`, `unrecoverable_stall @5`, `undetermined after turn 1`; `~` in front when not exact.
 * `compact` (table cells): `cancelled (rec.) @18`, `undetermined after t1`.
 */
export function outcomeCell(side: GateSide, compact = false): string {
  const mark = side.fidelity === 'exact' || side.kind === 'not-modelled' ? '' : '~'
  if (side.branches && compact) return `${mark}undetermined: ${side.branches.length} ways`
  if (side.branches) return `${mark}undetermined: ${describeBranches(side.branches)}`
  if (side.kind === 'undetermined' && compact) return `${mark}undetermined after t${side.endTurn ?? 0}`
  if (side.kind === 'undetermined' || side.kind === 'not-modelled' || side.endTurn === null) return `${mark}${side.outcome}`
  return `${mark}${compact ? side.outcome.replace(/ \(recorded\)$/, ' (rec.)') : side.outcome} @${side.endTurn}`
}

/** The reasons that decide the class (not waived), most important first. */
export function decidingReasons(task: GateTask): GateReason[] {
  const counted = task.reasons.filter((r) => !r.waived)
  const effect = task.classification === 'regressed' ? 'regression' : task.classification === 'improved' ? 'improvement' : 'change'
  return counted.filter((r) => r.effect === effect)
}

/** `regressed: approval lost t1, criterion lost t1`; `skipped: not modelled …`; at most `max` reasons, then `+N`. */
export function resultCell(task: GateTask, max = Infinity): string {
  if (task.classification === 'skipped') return `skipped: ${task.skipReason ?? ''}`
  if (task.classification === 'unchanged') return 'unchanged'
  const mark = task.approximate ? '~' : ''
  const reasons = decidingReasons(task).map((r) => `${ruleLabel(r.rule)}${r.turn === null ? '' : ` t${r.turn}`}`)
  const more = reasons.length > max ? ` +${reasons.length - max}` : ''
  return `${task.classification}${mark}: ${reasons.slice(0, max).join(', ')}${more}`
}

/** `TASK-DB-003` or `TASK-DB-003#2` when the run holds more than one attempt of it. */
export function taskLabel(task: GateTask, attempts: number): string {
  return attempts > 1 || task.attempt > 1 ? `${task.taskId}#${task.attempt}` : task.taskId
}

/**
 * One turn on one line, the same fields in the same place for every side, so that a diff shows
 * what differs. `full: false` (a side against the record) leaves out what the record does not
 * hold for every turn: the signature and the replay's fidelity.
 */
export function turnLine(turn: number, cell: GateTurnCell | null, full = true): string {
  if (cell === null) return `t${turn}  (no turn)`
  const counts = `${cell.criteriaMet ?? '?'}/${cell.criteriaTotal ?? '?'}`
  const marks = [
    cell.stallFired ? 'STALL' : '',
    full && cell.fidelity === 'approximate' ? '~approximate' : full && cell.fidelity === 'insufficient' ? '?insufficient' : '',
    full && cell.inferred ? 'inferred' : '',
  ].filter((m) => m !== '')
  const sig = full ? `  sig ${cell.signature ?? '—'}` : ''
  return `${`t${turn}`.padEnd(4)}  ${(cell.decision ?? '?').padEnd(8)}  ${counts.padEnd(5)}${sig}${marks.length ? `  ${marks.join(' ')}` : ''}`.trimEnd()
}

export type DiffLine = {readonly op: ' ' | '-' | '+'; readonly text: string} | {readonly op: '…'; readonly text: string}

/**
 * Turn lines of side `from` against side `to` (the `diff` package), unchanged stretches longer
 * than `context * 2 + 1` folded into one `…` line. Empty when the two sides' turns are identical.
 */
export function turnDiff(rows: readonly GateTurnRow[], from: 'recorded' | 'baseline' | 'candidate', to: 'recorded' | 'baseline' | 'candidate', context = 1): DiffLine[] {
  const full = from !== 'recorded' && to !== 'recorded'
  const a = rows.filter((r) => r[from] !== null).map((r) => turnLine(r.turn, r[from], full))
  const b = rows.filter((r) => r[to] !== null).map((r) => turnLine(r.turn, r[to], full))
  const parts = diffArrays(a, b)
  if (parts.every((p) => !p.added && !p.removed)) return []
  const out: DiffLine[] = []
  parts.forEach((p, i) => {
    if (p.added || p.removed) {
      for (const text of p.value) out.push({op: p.added ? '+' : '-', text})
      return
    }
    const lines = p.value
    const head = i === 0 ? 0 : context
    const tail = i === parts.length - 1 ? 0 : context
    if (lines.length <= head + tail + 1) {
      for (const text of lines) out.push({op: ' ', text})
      return
    }
    for (const text of lines.slice(0, head)) out.push({op: ' ', text})
    out.push({op: '…', text: `${lines.length - head - tail} identical turn${lines.length - head - tail === 1 ? '' : 's'}`})
    for (const text of lines.slice(lines.length - tail)) out.push({op: ' ', text})
  })
  return out
}

/** The first turn at which both sides sent feedback and it differs, with both texts. */
export function firstFeedbackDifference(rows: readonly GateTurnRow[], from: 'recorded' | 'baseline' | 'candidate', to: 'recorded' | 'baseline' | 'candidate'): {turn: number; before: string; after: string} | null {
  for (const r of rows) {
    const x = r[from]
    const y = r[to]
    if (!x?.feedback || !y?.feedback || x.feedback === y.feedback) continue
    if (!(x.feedbackComplete && y.feedbackComplete) && (x.feedback.startsWith(y.feedback) || y.feedback.startsWith(x.feedback))) continue
    return {turn: r.turn, before: x.feedback, after: y.feedback}
  }
  return null
}

/** `fixed → legacy` headings. */
export function arrow(a: string, b: string): string {
  return `${a} → ${b}`
}
