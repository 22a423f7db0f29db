import {padEnd, truncate, visibleWidth, wrap} from '../text/layout.js'
import {fitWidths, renderTable} from '../text/table.js'
import {bar, duration} from './format.js'
import type {ExplainView, StallView, TaskRowView} from './model.js'

/**
 * The dashboard laid out for the terminal's width (docs/live.md "Dashboard"): every row fits, long
 * text wraps, and the explanation scrolls. Pure: the model and a width in, lines out; the components
 * only colour them. Widths are display columns (CJK and emoji take two).
 */

/** A task row's cells, each padded to its column, so that the component can colour each one. */
export interface TaskRowCells {
  readonly key: string
  readonly label: string
  readonly phase: string
  readonly turn: string
  readonly criteria: string
  readonly time: string
  readonly warn: string
}

export interface TaskTableLayout {
  readonly header: string
  readonly rows: readonly TaskRowCells[]
}

/**
 * One row per task: task, phase, turn/max, criteria (with a bar when there is room), elapsed vs
 * timeout, warnings. Below ~90 columns the bar goes; then the task and phase columns shrink, their
 * text cut at a word.
 */
export function layTaskTable(tasks: readonly TaskRowView[], width: number): TaskTableLayout {
  const labels = tasks.map((t) => `${t.taskId}${t.attempt > 1 ? ` #${t.attempt}` : ''}`)
  const turns = tasks.map((t) => (t.turn === null ? '–' : `${t.turn}/${t.maxTurns ?? '?'}`))
  const counts = tasks.map((t) => (t.criteriaMet === null ? '–' : `${t.criteriaMet}/${t.criteriaTotal ?? '?'}`))
  const times = tasks.map((t) => `${duration(t.elapsedSeconds)}/${t.timeoutSeconds === null ? '–' : duration(t.timeoutSeconds)}`)
  const warns = tasks.map((t) => (t.warnings > 0 ? `⚠ ${t.warnings}` : ''))
  const natural = (header: string, cells: readonly string[]) => Math.max(visibleWidth(header), ...cells.map(visibleWidth))
  const fixedCols = [natural('turn', turns), natural('elapsed/timeout', times), natural('warn', warns)]
  const label = natural('task', labels)
  const phase = natural('phase', tasks.map((t) => t.phase))
  const count = natural('criteria', counts)
  // marker (2), then six columns with a space between
  const room = width - 2 - 5
  const withBar = label + phase + count + 9 + fixedCols.reduce((a, b) => a + b, 0) <= room
  const criteriaWidth = withBar ? count + 9 : count
  const [labelW, phaseW] = fitWidths([{natural: label, min: Math.min(label, 12), flex: true}, {natural: phase, min: Math.min(phase, 8), flex: true}], room - criteriaWidth - fixedCols.reduce((a, b) => a + b, 0))
  const [turnW, timeW, warnW] = fixedCols as [number, number, number]
  const cut = (s: string, w: number) => padEnd(truncate(s, w), w)
  return {
    header: `  ${cut('task', labelW!)} ${cut('phase', phaseW!)} ${cut('turn', turnW)} ${cut('criteria', criteriaWidth)} ${cut('elapsed/timeout', timeW)} warn`.trimEnd(),
    rows: tasks.map((t, i) => ({
      key: t.key,
      label: cut(labels[i]!, labelW!),
      phase: cut(t.phase, phaseW!),
      turn: cut(turns[i]!, turnW),
      criteria: cut(t.criteriaMet === null ? '–' : withBar ? `${bar(t.criteriaMet, t.criteriaTotal, 8)} ${counts[i]!}` : counts[i]!, criteriaWidth),
      time: cut(times[i]!, timeW),
      warn: cut(warns[i]!, warnW),
    })),
  }
}

/** The stall window's rows: signatures per turn and the feedback, which shrinks (and then goes under the row) first. */
export function layStallRows(stall: StallView, width: number, rows: number): string[] {
  const shown = stall.rows.slice(-rows)
  return renderTable(
    [{header: 'turn'}, {header: 'raw'}, {header: 'normalised'}, {header: 'running'}, {header: 'fixed'}, {header: 'feedback', flex: 'cut', min: 16, stack: 1}],
    shown.map((r) => [
      String(r.turn),
      r.raw ?? '–',
      r.normalised ?? '–',
      r.running?.signature ? `${r.running.signature}×${r.running.count ?? '?'}` : '–',
      r.fixed?.signature ? `${r.fixed.signature}×${r.fixed.count ?? '?'}` : '–',
      r.feedback ?? '',
    ]),
    {width, indent: '  ', gap: 1},
  )
}

/** Finding lines the explanation shows before "… N more". */
const FINDINGS = 8

/** The explanation so far, wrapped to the pane (a border and padding take four columns), never cut. */
export function layExplanation(explain: ExplainView, width: number): {readonly kind: 'text' | 'finding' | 'do'; readonly line: string}[] {
  const inner = Math.max(20, width - 4)
  const block = (kind: 'text' | 'finding' | 'do', text: string, hang: number) =>
    wrap(text, inner - hang).map((line, i) => ({kind, line: i === 0 ? line : `${' '.repeat(hang)}${line}`}))
  return [
    ...block('text', `What happened: ${explain.happened}`, 2),
    ...block('text', `Why: ${explain.why}`, 2),
    ...explain.findings.slice(0, FINDINGS).flatMap((f) => block('finding', `• ${f.code}${f.turns.length > 0 ? ` (turns ${f.turns.join(', ')})` : ''}: ${f.message}`, 2)),
    ...(explain.findings.length > FINDINGS ? [{kind: 'text' as const, line: `… ${explain.findings.length - FINDINGS} more (guardkit-replay explain shows them all)`}] : []),
    ...explain.doNow.slice(0, 2).flatMap((d) => block('do', `→ ${d}`, 2)),
  ]
}

/** The part of `lines` a pane of `height` lines shows from `offset` (kept in range), and whether there is more. */
export function scrollWindow<T>(lines: readonly T[], height: number, offset: number): {readonly shown: readonly T[]; readonly offset: number; readonly above: number; readonly below: number} {
  const h = Math.max(1, height)
  const at = Math.max(0, Math.min(offset, lines.length - h))
  return {shown: lines.slice(at, at + h), offset: at, above: at, below: Math.max(0, lines.length - at - h)}
}
