import type {TaskAnalysis} from '../../explain/analysis.js'
import type {Signal} from '../../model/signal.js'
import {formatTurns} from '../text/layout.js'
import {mdCell, mdCode, mdDetails, mdTable, mdText} from './md.js'

/** `explain --format md`: the diagnosis, why its primary cause was chosen, and the task's signals (unclassified ones listed). */
export function renderDiagnosisMarkdown(t: TaskAnalysis, turn: number | null): string[] {
  const out: string[] = []
  const d = t.diagnosis
  if (d !== null) {
    out.push('### Diagnosis', '', `- **primary** (${mdCode(d.primary.findingId)}, ${d.confidence}): ${mdText(d.primary.summary)}`)
    for (const reason of t.explain?.diagnosis?.reasons ?? []) out.push(`  - chosen: ${mdText(reason)}`)
    for (const c of d.contributing) out.push(`- contributing ${mdCode(c.category)}: ${c.findingIds.map((id) => mdCode(id)).join(', ')}`)
    out.push('')
  }
  const signals = t.explain?.signals
  if (signals === undefined) return out
  const keep = (s: Signal) => turn === null || s.turn === null || s.turn === turn
  const classified = signals.classified.filter((c) => keep(c.signal))
  const unclassified = signals.unclassified.filter(keep)
  if (classified.length + unclassified.length === 0) return out
  const rows = new Map<string, {category: string; role: string; lines: number; turns: number[]}>()
  for (const c of classified) {
    const r = rows.get(c.rule.id) ?? {category: c.rule.category, role: c.rule.role, lines: 0, turns: []}
    r.lines += 1 + c.signal.repeats
    if (c.signal.turn !== null) r.turns.push(c.signal.turn)
    rows.set(c.rule.id, r)
  }
  const body = [
    ...mdTable(['rule', 'category', 'role', 'lines', 'turns'], [...rows].map(([id, r]) => [mdCode(id), mdCode(r.category), r.role, String(r.lines), r.turns.length ? formatTurns(r.turns) : '—'])),
    '',
    ...(unclassified.length === 0 ? [] : [
      '**Unclassified** (no rule matches: add one with `--signals FILE`, docs/signals.md):',
      '',
      ...mdTable(['where', 'record', 'text'], unclassified.map((s) => [mdCode(`${s.evidence.file}:${s.evidence.line ?? '?'}`), mdCell(s.level === null ? s.logger : `${s.level} ${s.logger}`), mdCell(s.text)])),
      '',
    ]),
  ]
  out.push(...mdDetails(`Signals: ${classified.length} classified, ${unclassified.length} unclassified`, body), '')
  return out
}
