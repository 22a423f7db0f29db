import type {TaskAnalysis} from '../../explain/analysis.js'
import type {Evidence, Fact} from '../../model/evidence.js'
import type {TurnRecord} from '../../model/run-record.js'
import type {ReplayedTurn} from '../../replay/types.js'
import {firstLine, labelled} from './layout.js'
import {formatEvidenceList, type TextOptions} from './text-options.js'

/**
 * One turn as recorded and as each profile replays it: decision, criteria, feedback, signature,
 * fidelity and what it assumed, with the evidence lines. `--verbose` prints it for every turn of
 * a task; `explain` builds on it.
 */
export function renderTurnSummary(t: TaskAnalysis, turn: number, profiles: readonly string[], o: TextOptions, indent = '  '): string[] {
  const p = o.palette
  const recorded = t.task.turns.find((u) => u.turn === turn)
  const nameWidth = Math.max(8, ...profiles.map((n) => n.length))
  const out = [`${indent}${p.bold(`turn ${turn}`)}${recorded?.startedAt ? p.dim(`  ${recorded.startedAt}${recorded.endedAt ? ` → ${recorded.endedAt}` : ''}`) : ''}`]
  const inner = `${indent}  `
  out.push(...labelled(inner, 'recorded', nameWidth, recorded === undefined ? p.dim('(not in log)') : describeRecorded(recorded, o), o.width))
  for (const name of profiles) {
    const replayed = t.replays[name]?.turns.find((u) => u.turn === turn)
    if (replayed === undefined) continue
    out.push(...labelled(inner, name, nameWidth, describeReplayed(replayed, o), o.width, p.cyan))
  }
  return out
}

export function describeRecorded(u: TurnRecord, o: TextOptions): string {
  const p = o.palette
  const c = u.coach
  const parts = [c.decision?.value ?? 'no decision in log', criteria(c.criteriaMet?.value ?? null, c.criteriaTotal?.value ?? null)]
  if (u.player.status !== null) parts.push(`player ${u.player.status.value}`)
  if (c.independentTests !== null) {
    const it = c.independentTests.value
    parts.push(it.skipped ? 'tests skipped' : `tests ${it.passed ? 'passed' : 'failed'}${it.durationSeconds === null ? '' : ` in ${it.durationSeconds} s`}`)
  }
  const fb = c.feedback
  // shown under --verbose only: the whole first line
  const feedback = fb === null ? '' : ` · feedback "${firstLine(fb.text)}"${fb.completeness === 'truncated' ? ' (cut in the log)' : ''}`
  const where = formatEvidenceList(allEvidence([c.decision, c.criteriaMet, c.independentTests]).concat(fb?.evidence ?? []), 2)
  return `${parts.filter((x) => x !== '').join(' · ')}${feedback}${where === '' ? '' : p.dim(`  (${where})`)}`
}

export function describeReplayed(u: ReplayedTurn, o: TextOptions): string {
  const p = o.palette
  const parts = [u.decision ?? 'no decision', criteria(u.criteriaMet, u.criteriaTotal)]
  if (u.signature !== null) parts.push(`sig ${u.signature}${u.stall?.fired ? ' → stall' : ''}`)
  const fidelity = u.fidelity === 'exact' ? 'exact' : u.fidelity === 'approximate' ? p.yellow('approximate') : p.red('insufficient')
  parts.push(fidelity)
  if (u.confidence === 'inferred') parts.push(p.yellow('inferred (an earlier turn diverged)'))
  if (u.diverges) parts.push(p.magenta('≠ recorded'))
  const why = [...u.assumptions.map((a) => `assumes ${a}`), ...u.missingInputs.map((m) => `missing ${m}`)]
  return `${parts.filter((x) => x !== '').join(' · ')}${why.length === 0 ? '' : p.dim(`  (${why.join('; ')})`)}`
}

function criteria(met: number | null, total: number | null): string {
  if (met === null && total === null) return ''
  return `${met ?? '?'}/${total ?? '?'} criteria`
}

function allEvidence(facts: readonly (Fact<unknown> | null)[]): Evidence[] {
  const seen = new Set<string>()
  const out: Evidence[] = []
  for (const f of facts) {
    for (const e of f?.evidence ?? []) {
      const key = `${e.file}:${e.line ?? ''}#${e.pointer ?? ''}`
      if (!seen.has(key)) {
        seen.add(key)
        out.push(e)
      }
    }
  }
  return out
}
