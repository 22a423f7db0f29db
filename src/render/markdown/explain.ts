import {diffLines} from 'diff'
import type {AnalysisReport, TaskAnalysis} from '../../explain/analysis.js'
import type {CriterionExplanation, RequirementsExplanation} from '../../logic/coach/requirements/types.js'
import type {ReplayedTurn} from '../../replay/types.js'
import {eraLine, formatEra} from '../text/analyze.js'
import {orderCauseChain} from '../text/cause-chain.js'
import type {ExplainView} from '../text/explain.js'
import {formatTurns} from '../text/layout.js'
import {formatEvidence} from '../text/text-options.js'
import {mdMark} from './analyze.js'
import {renderDiagnosisMarkdown} from './diagnosis.js'
import {mdBlock, mdCell, mdCode, mdDetails, mdEvidenceList, mdTable, mdText} from './md.js'
import {neutraliseNames, neutraliseOutput} from '../../shared/neutralise.js'

/** `explain --format md`: the deep dump of one task or turn, for an issue; long blocks collapsed. */
export function renderExplainMarkdown(report: AnalysisReport, view: ExplainView): string {
  report = neutraliseNames(report)
  view = neutraliseNames(view)
  const t = view.task
  const v = t.verdict
  const out = [
    `## ${mdMark(t)} ${mdText(t.task.taskId)}${view.turn === null ? '' : `, turn ${view.turn}`}: ${mdText(v.happened)}`,
    '',
    report.runEra !== undefined && !report.runEra.replayed
      ? `${mdCode(report.run.path)} · ${mdText(eraLine(report))}`
      : `${mdCode(report.run.path)} · GuardKit era ${mdText(formatEra(report.era))} · profiles ${view.profiles.map((p) => mdCode(p)).join(', ')}`,
    '',
  ]
  if (v.why !== '') out.push(`**Why.** ${mdText(v.why)}`, '')
  out.push(...mdTable(['profile', 'would have'], v.underProfiles.filter((u) => view.profiles.includes(u.profile)).map((u) => [mdCode(u.profile), mdCell(u.text)])), '')
  out.push(...renderDiagnosisMarkdown(t, view.turn))
  const findings = view.turn === null ? t.findings : t.findings.filter((f) => f.turns.includes(view.turn!))
  if (findings.length > 0) {
    out.push('### Findings', '')
    for (const e of orderCauseChain(findings)) {
      const f = e.finding
      out.push(`${'  '.repeat(e.depth)}- ${e.depth === 0 ? '' : '↳ '}**${e.number}** ${mdCode(f.code)} (${f.severity}, ${f.confidence}, ${formatTurns(f.turns)}): ${mdText(f.message)}`)
      const inner = '  '.repeat(e.depth + 1)
      if (f.deduction !== undefined) out.push(`${inner}- deduced: ${mdText(f.deduction)}`)
      const list = mdEvidenceList(f.evidence, `${inner}  `)
      out.push(`${inner}- evidence: ${f.evidence.length === 0 ? '—' : list.inline}`.trimEnd(), ...list.nested)
      out.push(`${inner}- do: ${mdText(f.remediation)}${f.fixedIn === null ? '' : ` · fixed in ${f.fixedIn.flags.map((x) => mdCode(x)).join(', ')} (${mdCode(f.fixedIn.commit)})`}`)
    }
    out.push('')
  }
  const turns = view.turn === null ? [...new Set([...t.task.turns.map((u) => u.turn), ...Object.values(t.replays).flatMap((r) => r.turns.map((u) => u.turn))])].sort((a, b) => a - b) : [view.turn]
  for (const turn of turns) out.push(...renderTurn(t, turn, view.profiles), '')
  return neutraliseOutput(out.join('\n'))
}

function renderTurn(t: TaskAnalysis, turn: number, profiles: readonly string[]): string[] {
  const recorded = t.task.turns.find((u) => u.turn === turn)
  const c = recorded?.coach
  const out = [`### Turn ${turn}`, '']
  const rows = [['recorded', c?.decision?.value ?? '_(not in log)_', criteria(c?.criteriaMet?.value ?? null, c?.criteriaTotal?.value ?? null), '—', '—', '']]
  for (const name of profiles) {
    const u = t.replays[name]?.turns.find((x) => x.turn === turn)
    if (u === undefined) rows.push([mdCode(name), '_not replayed_', '', '', '', ''])
    else rows.push([mdCode(name), u.decision ?? '—', criteria(u.criteriaMet, u.criteriaTotal), u.signature === null ? '—' : mdCode(u.signature), u.fidelity, stallText(u)])
  }
  out.push(...mdTable(['', 'decision', 'criteria', 'signature', 'fidelity', 'stall detector'], rows), '')
  if (c?.feedback != null) out.push(...mdDetails(`Feedback as recorded (${c.feedback.completeness})`, mdBlock(c.feedback.text)))
  if (c?.diagnosticDump != null) out.push(...mdDetails(`GuardKit's 0/N dump, as recorded (${c.diagnosticDump.evidence.map(formatEvidence).join(', ')})`, mdBlock(c.diagnosticDump.value.lines.join('\n'))))
  for (const name of profiles) {
    const u = t.replays[name]?.turns.find((x) => x.turn === turn)
    if (u === undefined) continue
    const body = profileBody(u, c?.feedback?.text ?? null)
    if (body.length > 0) out.push(...mdDetails(`${name}: criteria, feedback, pipeline`, body))
  }
  return out
}

function profileBody(u: ReplayedTurn, recordedFeedback: string | null): string[] {
  const d = u.detail
  const out: string[] = [`Coach: ${mdText(d.coach.source)}, ended at ${mdText(d.coach.step)}${d.coach.notValidatedBecause === null ? '' : ` (${mdText(d.coach.notValidatedBecause)})`}. Player data: ${mdText(d.player.source)}.`, '']
  const req = d.coach.requirements as RequirementsExplanation | null
  if (req !== null && Array.isArray(req.criteria)) {
    out.push(`Strategy ${mdCode(req.strategy)}.`, '')
    out.push(...mdTable(['#', 'criterion', 'verdict', 'decided by', 'data seen', 'closest requirement'], req.criteria.map(criterionRow)), '')
  }
  const losses = d.player.events.filter((e) => e.kind !== 'recovered' && e.kind !== 'written-back' && e.kind !== 'added')
  if (losses.length > 0) out.push('Pipeline:', '', ...losses.map((e) => `- ${mdCode(e.step)} ${e.kind} ${mdCode(e.field)}: ${mdText(e.message)}${e.flag === undefined ? '' : ` [${mdCode(e.flag)}]`}`), '')
  if (u.feedback !== null) {
    out.push(`Feedback (${u.feedbackBasis}${d.feedback.rebuiltFrom === null ? '' : `, rebuilt from ${mdText(d.feedback.rebuiltFrom)}`}):`, '', ...mdBlock(u.feedback), '')
    if (recordedFeedback !== null && recordedFeedback !== u.feedback) out.push('Recorded → replayed:', '', ...mdBlock(unifiedDiff(recordedFeedback, u.feedback), 'diff'), '')
  }
  if (d.feedback.rawSignature !== null) out.push(`Signatures: raw ${mdCode(d.feedback.rawSignature)}, normalised ${mdCode(d.feedback.normalisedSignature ?? '—')}, used ${mdCode(u.signature ?? '—')}.`, '')
  for (const x of d.differences) out.push(`- differs in ${x.field}: recorded ${mdCode(String(x.recorded))} → replayed ${mdCode(String(x.replayed))}`)
  return out
}

function criterionRow(c: CriterionExplanation): string[] {
  const tm = c.text_match
  const data = c.promise !== null ? (c.promise.promise === null ? 'no promise with this id' : `promise ${mdCode(JSON.stringify((c.promise.promise as {status?: unknown}).status ?? null))}`) : tm !== null ? (tm.source === null ? 'no requirements list' : `${tm.source}: ${tm.requirements.length === 0 ? '[]' : `${tm.requirements.length} item(s)`}`) : '—'
  const closest = tm?.closest == null ? '—' : `${mdCell(String(tm.closest.requirement).slice(0, 80))} (jaccard ${tm.closest.jaccard.toFixed(2)}${tm.closest.meetsRule ? '' : ', below the rule'})`
  return [String(c.index + 1), `${mdCode(c.criterion_id)} ${mdCell(String(c.text))}`, c.verdict, c.decidedBy, data, closest]
}

function stallText(u: ReplayedTurn): string {
  const s = u.stall
  if (s === null) return u.detail.loop.stallSkipped === null ? '—' : `not checked (${u.detail.loop.stallSkipped})`
  const window = s.window.length === 0 ? '' : `; window ${s.window.map((w) => `t${w.turn} ${mdCode(w.signature)}`).join(', ')}`
  return `${s.fired ? '**fires**' : 'does not fire'}: ${mdCell(s.reason)}${window}`
}

function criteria(met: number | null, total: number | null): string {
  return met === null && total === null ? '—' : `${met ?? '?'}/${total ?? '?'}`
}

function unifiedDiff(before: string, after: string): string {
  return diffLines(before.endsWith('\n') ? before : `${before}\n`, after.endsWith('\n') ? after : `${after}\n`)
    .flatMap((part) => part.value.replace(/\n$/, '').split('\n').map((l) => `${part.added ? '+' : part.removed ? '-' : ' '} ${l}`))
    .join('\n')
}
