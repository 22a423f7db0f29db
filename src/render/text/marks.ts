import type {TaskAnalysis} from '../../explain/analysis.js'

/**
 * How a task ended, in one mark (docs/cli.md "Marks"): ✓ approved with nothing to look at, ! approved
 * but with findings worth reading (an approval is never drawn as a failure), ✗ not approved.
 */
export type TaskMark = 'ok' | 'attention' | 'failed'

export const MARK_SYMBOL: Readonly<Record<TaskMark, string>> = {ok: '✓', attention: '!', failed: '✗'}

export function taskMark(t: TaskAnalysis): TaskMark {
  if (t.verdict.ok) return 'ok'
  return t.task.outcome?.value === 'approved' ? 'attention' : 'failed'
}

/** Every symbol a report may use, with its meaning, in legend order. */
const LEGEND: readonly (readonly [string, string])[] = [
  ['✓', 'approved'],
  ['!', 'approved, with findings to read'],
  ['✗', 'not approved'],
  ['~', 'approximate: rebuilt from partial records'],
  ['…', 'cut (--verbose shows it whole)'],
]

/**
 * The legend line for the symbols a report uses, said once: `marks` are the task marks drawn;
 * `approximate` and `cut` whether any value is marked ~ or cut with … .
 */
export function legendLine(used: {readonly marks: readonly TaskMark[]; readonly approximate: boolean; readonly cut: boolean}): string {
  const symbols = new Set<string>(used.marks.map((m) => MARK_SYMBOL[m]))
  if (used.approximate) symbols.add('~')
  if (used.cut) symbols.add('…')
  return LEGEND.filter(([s]) => symbols.has(s)).map(([s, what]) => `${s} ${what}`).join(' · ')
}
