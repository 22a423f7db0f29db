import type {AnalysisReport, TaskAnalysis, WhatIf} from '../../explain/analysis.js'
import {LOGIC_CHANGES} from '../../logic/changes.js'
import {eraLine} from './analyze.js'
import {labelled, plural, shellQuote, wrap} from './layout.js'
import {textOptions, type TextOptions} from './text-options.js'
import {neutraliseNames, neutraliseOutput} from '../../shared/neutralise.js'

/**
 * `whatif RUN [--task ID]` as text: per task, the baseline profile and its outcome, then each set
 * of logic changes that flips it (smallest first) with the outcome, the turn at which the replay
 * first differs and how exact that is; why `fixed` still fails, when it does; and the search bound.
 */
export function renderWhatIfText(report: AnalysisReport, tasks: readonly TaskAnalysis[], options: Partial<TextOptions> = {}): string {
  report = neutraliseNames(report)
  tasks = neutraliseNames(tasks)
  const o = textOptions(options)
  const p = o.palette
  const out = [`${p.bold('whatif')} · ${report.run.path} · ${plural(tasks.length, 'task')}`, p.dim('Which logic changes, alone or in the smallest combination, change each task\'s outcome.')]
  const replayed = report.runEra?.replayed !== false
  if (!replayed) out.push(...wrap(eraLine(report), o.width).map((l) => p.dim(l)))
  for (const t of tasks) {
    out.push('', ...renderTask(t, o, replayed))
  }
  const first = tasks.find((t) => (t.whatif?.flips.length ?? 0) > 0)
  const flip = first?.whatif?.flips[0]
  if (first !== undefined && flip !== undefined) {
    out.push('', p.dim(`try one: guardkit-replay ${shellQuote(report.run.path)} ${flip.flags.map((f) => `--with ${f}`).join(' ')}   (replays the run's era with ${flip.flags.length === 1 ? 'that change' : 'those changes'})`))
  }
  return neutraliseOutput(out.join('\n'), {keepSgr: p.enabled})
}

function renderTask(t: TaskAnalysis, o: TextOptions, replayed: boolean): string[] {
  const p = o.palette
  const w = t.whatif
  const head = `${p.bold(t.task.taskId)}${t.task.attempt > 1 ? ` #${t.task.attempt}` : ''}  recorded: ${t.verdict.happened}`
  if (w === null) return [head, `  ${p.dim(replayed ? 'not searched: the task could not be replayed (see `explain` for the missing inputs)' : 'not searched: nothing is replayed for this run (its era, above)')}`]
  const out = [head, ...labelled('  ', 'baseline', 10, `${p.cyan(w.baseline)} → ${w.baselineOutcome}`, o.width)]
  if (w.flips.length === 0) out.push(...labelled('  ', 'flips', 10, p.dim('none: no searched combination changes the outcome, in any branch'), o.width))
  else out.push(...renderFlips(w, o))
  if (w.fixedStillFails !== null) out.push(...labelled('  ', 'still fails', 10, w.fixedStillFails, o.width, p.yellow))
  out.push(...labelled('  ', 'searched', 10, w.searched, o.width, p.dim))
  return out
}

function renderFlips(w: WhatIf, o: TextOptions): string[] {
  const p = o.palette
  const flagWidth = Math.min(40, Math.max(...w.flips.map((f) => f.flags.join(' + ').length)))
  const out = [`  ${p.bold('flips')}`]
  for (const f of w.flips) {
    const at = f.changesAtTurn === null ? '' : ` (differs from turn ${f.changesAtTurn})`
    const fidelity = f.fidelity === 'exact' ? '' : `  ${f.fidelity === 'approximate' ? p.yellow('approximate') : p.red('insufficient')}`
    if (f.onlyIf) {
      out.push(`    ${p.cyan(f.flags.join(' + ').padEnd(flagWidth))}  → only under an assumption${at}${fidelity}`)
      out.push(...wrap(`flips under ${f.flags.join(' + ')} ${f.onlyIf.map((c, i) => `to ${c.outcome} if ${i === 0 ? c.assume : c.brief}`).join('; ')}; otherwise it ends as the baseline does`, o.width - 8).map((l) => `      ${l}`))
    } else out.push(`    ${p.cyan(f.flags.join(' + ').padEnd(flagWidth))}  → ${f.outcome}${at}${fidelity}`)
    for (const id of f.flags) {
      const change = LOGIC_CHANGES.find((c) => c.id === id)
      if (change === undefined) continue
      out.push(...wrap(`${id} (${change.commit}, ${change.cause}): ${change.summary}`, o.width - 8).map((l) => `      ${p.dim(l)}`))
    }
  }
  return out
}
