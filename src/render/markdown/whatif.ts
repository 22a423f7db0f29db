import {eraLine} from '../text/analyze.js'
import type {AnalysisReport, TaskAnalysis} from '../../explain/analysis.js'
import {LOGIC_CHANGES} from '../../logic/changes.js'
import {mdCell, mdCode, mdTable, mdText} from './md.js'
import {neutraliseNames, neutraliseOutput} from '../../shared/neutralise.js'

/** `whatif --format md`: per task, a table of the logic changes that flip it, then why fixed still fails. */
export function renderWhatIfMarkdown(report: AnalysisReport, tasks: readonly TaskAnalysis[]): string {
  report = neutraliseNames(report)
  tasks = neutraliseNames(tasks)
  const out = [`## guardkit-replay whatif`, '', `${mdCode(report.run.path)} · which logic changes, alone or in the smallest combination, change each task's outcome`]
  const replayed = report.runEra?.replayed !== false
  if (!replayed) out.push('', mdText(eraLine(report)))
  for (const t of tasks) {
    const w = t.whatif
    out.push('', `### ${mdText(t.task.taskId)}: ${mdText(t.verdict.happened)}`, '')
    if (w === null) {
      out.push(replayed ? '_Not searched: the task could not be replayed._' : '_Not searched: nothing is replayed for this run (its era, above)._')
      continue
    }
    out.push(`Baseline ${mdCode(w.baseline)} → ${mdText(w.baselineOutcome)}`, '')
    if (w.flips.length === 0) out.push('No searched combination changes the outcome.')
    else {
      out.push(...mdTable(['logic changes', 'outcome', 'differs from turn', 'fidelity', 'what changed'], w.flips.map((f) => [
        f.flags.map((id) => mdCode(id)).join(' + '),
        mdCell(f.onlyIf ? `only ${f.onlyIf.map((c) => `${c.outcome} if ${c.assume}`).join('; ')}` : f.outcome),
        f.changesAtTurn === null ? '—' : String(f.changesAtTurn),
        f.fidelity,
        mdCell(f.flags.map((id) => {
          const c = LOGIC_CHANGES.find((x) => x.id === id)
          return c === undefined ? id : `${c.commit}: ${c.summary}`
        }).join('; ')),
      ])))
    }
    if (w.fixedStillFails !== null) out.push('', `**\`fixed\` still fails:** ${mdText(w.fixedStillFails)}`)
    out.push('', `_Searched: ${mdText(w.searched)}_`)
  }
  return neutraliseOutput(out.join('\n'))
}
