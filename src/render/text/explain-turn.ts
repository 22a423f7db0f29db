import type {TaskAnalysis} from '../../explain/analysis.js'
import {branchEnding} from '../../explain/branch-phrases.js'
import type {ReplayedTurn} from '../../replay/types.js'
import type {TurnRecord} from '../../model/run-record.js'
import {type RecordedCounts, renderCriteria} from './criteria.js'
import {renderTextDiff} from './feedback-diff.js'
import {labelled, wrap} from './layout.js'
import {formatEvidence, formatEvidenceList, type TextOptions} from './text-options.js'
import {describeRecorded, describeReplayed} from './turn-detail.js'

const DUMP_HEAD = /^Criteria verification \d+\/\d+ - diagnostic dump:/

/**
 * One turn in full (explain): the record with its evidence, GuardKit's own 0/N dump, then per
 * profile how the Player's data reached the Coach, every criterion, the feedback and its diff
 * against the record, both signatures, the stall window with the reason, and every difference.
 */
export function renderTurnDeep(t: TaskAnalysis, turn: number, profiles: readonly string[], o: TextOptions): string[] {
  const p = o.palette
  const recorded = t.task.turns.find((u) => u.turn === turn)
  const out = [p.bold(`── turn ${turn} ${'─'.repeat(Math.max(0, Math.min(o.width, 100) - 10 - String(turn).length))}`)]
  const w = Math.max(9, ...profiles.map((n) => n.length))
  if (recorded === undefined) out.push(...labelled('  ', 'recorded', w, p.dim('(not in log)'), o.width))
  else {
    out.push(...labelled('  ', 'recorded', w, describeRecorded(recorded, o), o.width, p.bold))
    const fb = recorded.coach.feedback
    if (fb !== null) {
      out.push(`    ${p.dim(`feedback as recorded (${fb.completeness === 'full' ? 'full text' : `cut at ${fb.truncatedAt ?? '?'} code points`}, ${formatEvidenceList(fb.evidence)})`)}`)
      out.push(...block(fb.text, '      '))
    }
    const dump = recorded.coach.diagnosticDump
    if (dump !== null) {
      out.push(`    ${p.dim(`GuardKit's 0/N dump, as recorded (${formatEvidenceList(dump.evidence)})`)}`)
      out.push(...block(dump.value.lines.join('\n'), '      '))
    }
    for (const e of recorded.coach.testCommand?.evidence ?? []) out.push(`    ${p.dim(`test command ${recorded.coach.testCommand!.value} (${formatEvidence(e)})`)}`)
  }
  const shown: {name: string; body: string}[] = []
  for (const name of profiles) {
    const u = t.replays[name]?.turns.find((x) => x.turn === turn)
    out.push('')
    if (u === undefined) {
      out.push(...labelled('  ', name, w, p.dim(notReplayed(t, name, turn)), o.width, p.cyan))
      continue
    }
    out.push(...labelled('  ', name, w, describeReplayed(u, o), o.width, p.cyan))
    const body = renderProfileTurn(u, recordedFullText(u, recorded?.coach.feedback ?? null), recordedCounts(recorded), o)
    const same = shown.find((x) => x.body === body.join('\n'))
    if (same === undefined) {
      out.push(...body)
      shown.push({name, body: body.join('\n')})
    } else out.push(`    ${p.dim(`the same pipeline, criteria, feedback, signatures and window as ${same.name}`)}`)
    out.push(...branchLines(t, name, turn, o))
  }
  out.push(...profileDiffs(t, turn, profiles, o))
  return out
}

/** The criteria counts the log records for the turn, with where (null: none recorded). */
function recordedCounts(recorded: TurnRecord | undefined): RecordedCounts | null {
  const c = recorded?.coach
  if (c === undefined || (c.criteriaMet === null && c.criteriaTotal === null)) return null
  const evidence = [...(c.criteriaMet?.evidence ?? []), ...(c.criteriaTotal?.evidence ?? [])]
  const seen = new Set<string>()
  return {met: c.criteriaMet?.value ?? null, total: c.criteriaTotal?.value ?? null, where: formatEvidenceList(evidence.filter((e) => {
    const k = `${e.file}:${e.line}`
    if (seen.has(k)) return false
    seen.add(k)
    return true
  }), 2)}
}

function renderProfileTurn(u: ReplayedTurn, recordedFeedback: string | null, recorded: RecordedCounts | null, o: TextOptions): string[] {
  const p = o.palette
  const d = u.detail
  const out: string[] = []
  const sub = (label: string, text: string) => out.push(...labelled('    ', label, 8, text, o.width, p.dim))
  sub('player', `${d.player.source}${d.player.mode === null ? '' : ` (${d.player.mode})`}${d.player.coachInputs === null ? '' : ` · promises in results ${d.player.coachInputs.promisesInResults ?? '?'}, in report ${d.player.coachInputs.promisesInReport ?? '?'}${d.player.coachInputs.synthetic ? ' · synthetic report' : ''}`}`)
  const c = d.coach
  const tests = c.independentTests === null ? '' : ` · tests ${c.independentTests.passed === true ? 'passed' : c.independentTests.passed === false ? 'failed' : String(c.independentTests.passed)} (${c.independentTests.basis}${c.independentTests.durationSeconds === null ? '' : `, ${c.independentTests.durationSeconds} s`})`
  sub('coach', `${c.source}, ended at ${c.step}${c.notValidatedBecause === null ? '' : ` (${c.notValidatedBecause})`}${tests}${c.failureClass === null ? '' : ` · classified ${c.failureClass.classification}`}${c.raised === null ? '' : ` · raised ${c.raised}`}`)
  if (c.testCommand !== null) sub('command', c.testCommand)
  for (const x of c.unknowns) sub('unknown', x)
  out.push(`    ${p.dim('criteria')}`)
  out.push(...renderCriteria(d, o, '      ', recorded))
  const dump = rebuiltDump(u)
  if (dump.length > 0) {
    out.push(`    ${p.dim("GuardKit's 0/N dump, rebuilt by the model under this profile")}`)
    out.push(...block(dump.join('\n'), '      '))
  }
  if (u.feedback !== null) {
    out.push(...wrap(`feedback sent to the Player (${u.feedbackBasis}${d.feedback.rebuiltFrom === null ? '' : `, from ${d.feedback.rebuiltFrom}`})`, o.width - 4).map((l) => `    ${p.dim(l)}`))
    out.push(...block(u.feedback, '      '))
    if (recordedFeedback !== null && recordedFeedback !== u.feedback) {
      out.push(`    ${p.dim('recorded → replayed')}`)
      out.push(...renderTextDiff(recordedFeedback, u.feedback, p, '      '))
    }
  }
  const f = d.feedback
  if (f.rawSignature !== null || f.normalisedSignature !== null) sub('signature', `raw ${f.rawSignature ?? '—'} · normalised ${f.normalisedSignature ?? '—'} · used ${u.signature ?? '—'}${f.signatureBasis === null ? '' : ` (${f.signatureBasis})`}`)
  const s = u.stall
  if (s !== null) {
    const window = s.window.map((x) => `t${x.turn} ${x.signature} (${x.count})`).join(', ')
    sub('stall', `count fed ${s.count}${d.loop.peakCriteriaPassed === null ? '' : ` (peak ${d.loop.peakCriteriaPassed})`} · window [${window}] · threshold ${s.threshold} · ${s.fired ? p.bold(p.red('FIRES')) : 'does not fire'}: ${s.reason}`)
  } else if (d.loop.stallSkipped !== null) sub('stall', `not checked: ${d.loop.stallSkipped}`)
  const loop = [d.loop.perspectiveReset ? 'perspective reset' : null, d.loop.checkpoint === null ? null : `checkpoint tests ${d.loop.checkpoint.testsPassed ? 'pass' : 'fail'} (${d.loop.checkpoint.basis})`, d.loop.pollution === null ? null : `pollution rule: ${d.loop.pollution.kind}`].filter((x) => x !== null)
  if (loop.length > 0) sub('loop', loop.join(' · '))
  for (const x of d.differences) sub('differs', `${x.field}: recorded ${String(x.recorded)} → replayed ${String(x.replayed)}${x.evidence.length === 0 ? '' : `  (${formatEvidenceList(x.evidence)})`}`)
  return out
}

/**
 * The recorded feedback to diff the replayed one against: the full text when the records hold it;
 * the log's 80-code-point excerpt only when the replayed text does not start with it (a real
 * difference), so an excerpt never shows as a change.
 */
function recordedFullText(u: ReplayedTurn, logged: {text: string; completeness: 'full' | 'truncated'} | null): string | null {
  const d = u.detail.feedback
  if (d.recorded !== null && d.recordedCompleteness === 'full') return d.recorded
  if (logged === null) return null
  if (logged.completeness === 'full') return logged.text
  return u.feedback !== null && u.feedback.startsWith(logged.text) ? null : logged.text
}

/** The dump block among the records the model emitted for this turn. */
function rebuiltDump(u: ReplayedTurn): string[] {
  const start = u.logs.findIndex((l) => DUMP_HEAD.test(l.message))
  if (start < 0) return []
  const lines = [u.logs[start]!.message]
  for (const l of u.logs.slice(start + 1)) {
    if (!l.message.startsWith('  ') || l.logger !== u.logs[start]!.logger) break
    lines.push(l.message)
  }
  return lines
}

/** Feedback that differs between two profiles on this turn, as a diff. */
function profileDiffs(t: TaskAnalysis, turn: number, profiles: readonly string[], o: TextOptions): string[] {
  const out: string[] = []
  for (let i = 0; i + 1 < profiles.length; i++) {
    const a = t.replays[profiles[i]!]?.turns.find((x) => x.turn === turn)
    const b = t.replays[profiles[i + 1]!]?.turns.find((x) => x.turn === turn)
    if (a?.feedback == null || b?.feedback == null || a.feedback === b.feedback) continue
    out.push('', `  ${o.palette.dim(`feedback, ${profiles[i]} → ${profiles[i + 1]}`)}`, ...renderTextDiff(a.feedback, b.feedback, o.palette, '    '))
  }
  return out
}

/** An undetermined profile: how each branch plays this turn (verdict, counts, the detector), with its condition. */
function branchLines(t: TaskAnalysis, profile: string, turn: number, o: TextOptions): string[] {
  const r = t.replays[profile]
  if (r?.outcome.kind !== 'branches') return []
  const p = o.palette
  const out = [`    ${p.dim(`undetermined: the branches (${branchEnding(r.outcome.branches.at(-1)!)} under the first values)`)}`]
  for (const b of r.outcome.branches) {
    const u = b.replay.turns.find((x) => x.turn === turn)
    const play = u === undefined
      ? 'not reached'
      : `${u.decision ?? '?'} · ${u.criteriaMet ?? '?'}/${u.criteriaTotal ?? '?'} criteria${u.stall === null ? '' : ` · window [${u.stall.window.map((x) => `t${x.turn} ${x.signature} (${x.count})`).join(', ')}] · ${u.stall.fired ? p.bold(p.red('FIRES')) : 'does not fire'}`}`
    out.push(...labelled('    ', 'if', 8, `${b.assume} → ${branchEnding(b)}: turn ${turn} ${play}`, o.width, p.dim))
  }
  return out
}

function notReplayed(t: TaskAnalysis, profile: string, turn: number): string {
  const r = t.replays[profile]
  if (r === undefined) return 'not replayed under this profile'
  const o = r.outcome
  if (o.kind === 'replayed' && o.turn < turn) return `not reached: the loop ended at turn ${o.turn} (${o.outcome})`
  if (o.kind === 'undetermined' && o.afterTurn < turn) return `not replayed: undetermined after turn ${o.afterTurn}`
  if (o.kind === 'not-modelled') return `not modelled: ${o.reason}`
  return `not replayed${r.missingInputs.length === 0 ? '' : `: missing ${r.missingInputs.join('; ')}`}`
}

/** Record text verbatim (not re-wrapped: a dump or a feedback is shown as GuardKit wrote it). */
function block(text: string, indent: string): string[] {
  return text.split('\n').map((line) => (line === '' ? '' : `${indent}${line}`))
}
