import type {TaskAnalysis} from '../../explain/analysis.js'
import type {Signal} from '../../model/signal.js'
import {formatTurns, labelled, plural, truncate, wrap} from './layout.js'
import type {TextOptions} from './text-options.js'

/**
 * `explain`'s diagnosis: the primary cause and why it was chosen over each other candidate, the
 * contributing causes, then the task's signals — per catalogue rule, and every line no rule
 * classifies (listed, never dropped: a message GuardKit starts printing tomorrow shows up here).
 */
export function renderDiagnosisExplain(t: TaskAnalysis, turn: number | null, o: TextOptions): string[] {
  const p = o.palette
  const out: string[] = []
  const d = t.diagnosis
  const why = t.explain?.diagnosis ?? null
  if (d !== null) {
    out.push(`  ${p.bold('diagnosis')}`)
    out.push(...labelled('    ', 'primary', 12, `${d.primary.summary} (${d.primary.findingId}, ${d.confidence})`, o.width))
    if (why !== null && why.failingTurns.length > 0) out.push(...labelled('    ', 'failing', 12, formatTurns(why.failingTurns), o.width, p.dim))
    for (const reason of why?.reasons ?? []) out.push(...labelled('    ', 'chosen', 12, reason, o.width, p.dim))
    for (const c of d.contributing) out.push(...labelled('    ', 'contributing', 12, `${c.category}: ${c.findingIds.join(', ')}`, o.width, p.dim))
  }
  const signals = t.explain?.signals
  if (signals === undefined) return out
  const keep = (s: Signal) => turn === null || s.turn === null || s.turn === turn
  const classified = signals.classified.filter((c) => keep(c.signal))
  const unclassified = signals.unclassified.filter(keep)
  if (classified.length + unclassified.length + signals.dropped === 0) return out
  if (out.length > 0) out.push('')
  const dropped = signals.dropped > 0 ? `, ${signals.dropped} more not kept` : ''
  out.push(`  ${p.bold('signals')}${p.dim(`  ${classified.length} classified, ${unclassified.length} unclassified${dropped} (docs/signals.md)`)}`)
  const byRule = new Map<string, {role: string; category: string; lines: number; turns: number[]}>()
  for (const c of classified) {
    const e = byRule.get(c.rule.id) ?? {role: c.rule.role, category: c.rule.category, lines: 0, turns: []}
    e.lines += 1 + c.signal.repeats
    if (c.signal.turn !== null) e.turns.push(c.signal.turn)
    byRule.set(c.rule.id, e)
  }
  for (const [id, e] of byRule) {
    out.push(`    ${id.padEnd(44)} ${e.category.padEnd(20)} ${e.role.padEnd(12)} ${plural(e.lines, 'line').padStart(9)}  ${e.turns.length ? formatTurns(e.turns) : ''}`.trimEnd())
  }
  if (unclassified.length > 0) {
    out.push(`    ${p.bold('unclassified')}${p.dim('  (no rule matches: add one with --signals FILE)')}`)
    for (const s of unclassified) {
      const where = `${s.evidence.file}:${s.evidence.line ?? '?'}${s.turn === null ? '' : ` t${s.turn}`}`
      const who = s.level === null ? s.logger : `${s.level} ${s.logger}`
      out.push(...wrap(`${where}  ${who}: ${truncate(s.text, 200)}`, o.width - 8).map((l, i) => `${i === 0 ? '      ' : '        '}${l}`))
    }
  }
  return out
}
