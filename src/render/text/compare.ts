import type {CompareCell, CompareReport, CompareRun, TaskPair, TaskSide} from '../../explain/compare/compare-runs.js'
import {renderTable} from './table.js'
import {renderTextDiff} from './feedback-diff.js'
import {formatTurns, labelled, plural} from './layout.js'
import {textOptions, type TextOptions} from './text-options.js'
import {neutraliseNames, neutraliseOutput} from '../../shared/neutralise.js'

const MAX_FEEDBACK_DIFFS = 2
const MAX_DIFF_LINES = 12

/**
 * `guardkit-replay compare RUN_A RUN_B` for a terminal: each run with its GuardKit era, then per
 * task pair the two outcomes, a turn-by-turn table (decision, criteria, signature; what differs),
 * the first feedback texts that differ as diffs (all with --verbose), and the findings only one run
 * has; tasks only one run holds last.
 */
export function renderCompareText(report: CompareReport, options: Partial<TextOptions> = {}): string {
  report = neutraliseNames(report)
  const o = textOptions(options)
  const p = o.palette
  const out = [p.bold('guardkit-replay compare'), ...runLine('A', report.a, o), ...runLine('B', report.b, o), '']
  const s = report.summary
  out.push(`${plural(s.pairs, 'task')} in both: ${s.different === 0 ? 'no difference' : `${s.different} differ${s.different === 1 ? 's' : ''}`}${s.outcomeChanged ? `, ${s.outcomeChanged} with another outcome` : ''}.`)
  for (const pair of report.pairs) out.push('', ...pairBlock(pair, o))
  if (report.onlyInA.length + report.onlyInB.length > 0) out.push('')
  for (const [label, list] of [['only in A', report.onlyInA], ['only in B', report.onlyInB]] as const) {
    if (list.length === 0) continue
    out.push(...labelled('', label, 10, list.map((t) => `${t.taskId} (attempt ${t.attempt}): ${t.outcome ?? 'no outcome'}, ${plural(t.turns, 'turn')}`).join('; '), o.width, p.dim))
  }
  return neutraliseOutput(out.join('\n'), {keepSgr: p.enabled})
}

function runLine(label: string, r: CompareRun, o: TextOptions): string[] {
  const era = !r.era.modelled && r.era.label != null
    ? `GuardKit of ${r.era.label}, not replayed`
    : r.era.profile === null ? `era unknown (${r.era.reason})` : `era ${r.era.profile} (${r.era.confidence}${r.era.modelled ? '' : ', not modelled'})`
  const window = r.era.modelled && (r.era.window.from || r.era.window.to) ? `, between ${r.era.window.from ?? '…'} and ${r.era.window.to ?? '…'}` : ''
  return labelled('  ', label, 2, `${r.path}${r.featureId ? ` · ${r.featureId}` : ''} · ${era}${window}${r.ingestIssues ? ` · ${plural(r.ingestIssues, 'ingest issue')}` : ''}`, o.width, o.palette.bold)
}

function outcome(s: TaskSide): string {
  return `${s.outcome ?? 'no outcome'} at turn ${s.endTurn}${s.stall?.turn != null ? ` (stall at ${s.stall.turn}${s.stall.signature ? `, ${s.stall.signature}` : ''})` : ''}`
}

function pairBlock(pair: TaskPair, o: TextOptions): string[] {
  const p = o.palette
  const mark = pair.different ? (pair.outcomeChanged ? p.bold(p.yellow('outcome changed')) : p.yellow('differs')) : p.green('same')
  const out = [`${p.bold(pair.taskId)}  ${mark}`]
  out.push(...labelled('  ', `A #${pair.a.attempt}`, 6, `${outcome(pair.a)}${pair.a.mode ? ` · ${pair.a.mode}` : ''}${pair.a.replayedOutcome ? ` · its era replays: ${pair.a.replayedOutcome}` : ''}`, o.width, p.dim))
  out.push(...labelled('  ', `B #${pair.b.attempt}`, 6, `${outcome(pair.b)}${pair.b.mode ? ` · ${pair.b.mode}` : ''}${pair.b.replayedOutcome ? ` · its era replays: ${pair.b.replayedOutcome}` : ''}`, o.width, p.dim))
  // A and B shrink together when the row is too wide: cut at a word, whole (wrapped) with --verbose
  const flex = o.verbose ? 'wrap' as const : 'cut' as const
  const shownTurns = pair.turns.filter((t) => o.verbose || t.differs.length > 0 || pair.turns.length <= 12 || t.turn <= 3)
  out.push(...renderTable(
    [{header: 'turn', align: 'right'}, {header: 'A', flex, min: 16}, {header: 'B', flex, min: 16}, {header: 'differs', flex: 'wrap', min: 12}],
    shownTurns.map((t) => {
      const dim = t.differs.length === 0 ? p.dim : (s: string) => s
      return [{text: String(t.turn), style: dim}, {text: compareCell(t.a), style: dim}, {text: compareCell(t.b), style: dim}, t.differs.join(', ')]
    }),
    {width: o.width, headerStyle: p.dim},
  ))
  const hidden = pair.turns.filter((t) => !o.verbose && t.differs.length === 0 && pair.turns.length > 12 && t.turn > 3).length
  if (hidden > 0) out.push(p.dim(`        ${plural(hidden, 'identical turn')} not shown (--verbose shows them)`))
  const fb = pair.turns.filter((t) => t.differs.includes('feedback') && t.a?.feedback && t.b?.feedback)
  for (const t of o.verbose ? fb : fb.slice(0, MAX_FEEDBACK_DIFFS)) {
    const excerpt = !t.a!.feedbackComplete || !t.b!.feedbackComplete ? ' (the log holds an excerpt)' : ''
    out.push(`  ${p.dim(`feedback after turn ${t.turn}, A → B${excerpt}:`)}`)
    const lines = renderTextDiff(t.a!.feedback!, t.b!.feedback!, p, '    ')
    out.push(...(o.verbose ? lines : lines.slice(0, MAX_DIFF_LINES)))
    if (!o.verbose && lines.length > MAX_DIFF_LINES) out.push(p.dim(`    … ${lines.length - MAX_DIFF_LINES} more lines (--verbose)`))
  }
  if (!o.verbose && fb.length > MAX_FEEDBACK_DIFFS) out.push(p.dim(`  feedback also differs after turns ${formatTurns(fb.slice(MAX_FEEDBACK_DIFFS).map((t) => t.turn))} (--verbose shows them)`))
  const f = pair.findings
  const list = (xs: typeof f.onlyInA): string => (xs.length === 0 ? '—' : xs.map((x) => `${x.code}${x.turns.length ? ` (${formatTurns(x.turns)})` : ''}`).join(', '))
  out.push(...labelled('  ', 'only in A', 10, list(f.onlyInA), o.width, p.dim))
  out.push(...labelled('  ', 'only in B', 10, list(f.onlyInB), o.width, p.dim))
  if (f.both.length) out.push(...labelled('  ', 'in both', 10, f.both.join(', '), o.width, p.dim))
  return out
}

/** One run's turn in a cell: decision, criteria, signature (shared with the Markdown report). */
export function compareCell(c: CompareCell | null): string {
  if (c === null) return '—'
  // a feedback turn without a signature: the run's records cannot give one, which is not "the same"
  const sig = c.signature !== null ? `  ${c.signature}${c.signatureSource === 'approximate' ? '~' : ''}` : c.decision === 'feedback' ? '  sig not in log' : ''
  return `${c.decision ?? '?'} ${c.criteriaMet ?? '?'}/${c.criteriaTotal ?? '?'}${sig}`
}
