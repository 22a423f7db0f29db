import {diffLines} from 'diff'
import type {CompareReport, CompareRun, TaskPair} from '../../explain/compare/compare-runs.js'
import {compareCell as cell} from '../text/compare.js'
import {formatTurns, plural} from '../text/layout.js'
import {mdBlock, mdCell, mdCode, mdDetails, mdTable, mdText} from './md.js'
import {neutraliseNames, neutraliseOutput} from '../../shared/neutralise.js'

/** `compare --format md`: the same content as the text report, for a pull request or an issue. */
export function renderCompareMarkdown(report: CompareReport): string {
  report = neutraliseNames(report)
  const s = report.summary
  const out = [
    '## guardkit-replay compare',
    '',
    ...mdTable(['', 'run', 'feature', 'GuardKit era'], [runRow('A', report.a), runRow('B', report.b)]),
    '',
    `${plural(s.pairs, 'task')} in both: ${s.different === 0 ? 'no difference' : `${s.different} differ`}${s.outcomeChanged ? `, ${s.outcomeChanged} with another outcome` : ''}.`,
  ]
  for (const pair of report.pairs) out.push('', ...pairSection(pair))
  if (report.onlyInA.length) out.push('', `Only in A: ${report.onlyInA.map((t) => `${mdCode(t.taskId)} (attempt ${t.attempt}, ${mdText(t.outcome ?? 'no outcome')})`).join(', ')}`)
  if (report.onlyInB.length) out.push('', `Only in B: ${report.onlyInB.map((t) => `${mdCode(t.taskId)} (attempt ${t.attempt}, ${mdText(t.outcome ?? 'no outcome')})`).join(', ')}`)
  return neutraliseOutput(`${out.join('\n')}\n`)
}

function runRow(label: string, r: CompareRun): string[] {
  const era = !r.era.modelled && r.era.label != null
    ? `GuardKit of ${r.era.label}, not replayed`
    : r.era.profile === null ? `unknown: ${r.era.reason}` : `${r.era.profile} (${r.era.confidence}${r.era.modelled ? '' : ', not modelled'})`
  return [label, mdCode(r.path), mdCell(r.featureId ?? '—'), mdCell(era)]
}

function pairSection(pair: TaskPair): string[] {
  const outcome = (s: TaskPair['a']): string => `${s.outcome ?? 'no outcome'} at turn ${s.endTurn}`
  const out = [
    `### ${mdText(pair.taskId)}: ${pair.different ? (pair.outcomeChanged ? 'outcome changed' : 'differs') : 'same'}`,
    '',
    `A (attempt ${pair.a.attempt}): ${mdText(outcome(pair.a))} · B (attempt ${pair.b.attempt}): ${mdText(outcome(pair.b))}`,
    '',
    ...mdTable(['turn', 'A', 'B', 'differs'], pair.turns.map((t) => [String(t.turn), mdCell(cell(t.a)), mdCell(cell(t.b)), mdCell(t.differs.join(', '))])),
  ]
  const fb = pair.turns.filter((t) => t.differs.includes('feedback') && t.a?.feedback && t.b?.feedback)
  if (fb.length > 0) {
    const body = fb.flatMap((t) => [mdText(`after turn ${t.turn}, A → B`), '', ...mdBlock(diff(t.a!.feedback!, t.b!.feedback!), 'diff'), ''])
    out.push('', ...mdDetails(`feedback that differs (${formatTurns(fb.map((t) => t.turn))})`, body))
  }
  const codes = (xs: TaskPair['findings']['onlyInA']): string => (xs.length === 0 ? '—' : xs.map((x) => mdCode(x.code)).join(', '))
  out.push('', `Findings only in A: ${codes(pair.findings.onlyInA)} · only in B: ${codes(pair.findings.onlyInB)}`)
  return out
}


function diff(a: string, b: string): string {
  return diffLines(`${a}\n`, `${b}\n`)
    .flatMap((part) => part.value.replace(/\n$/, '').split('\n').map((l) => `${part.added ? '+' : part.removed ? '-' : ' '} ${l}`))
    .join('\n')
}
