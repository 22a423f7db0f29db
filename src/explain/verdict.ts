import {changeById, isFlagId} from '../logic/changes.js'
import {commitIndex} from '../logic/change-registry/commits.js'
import type {Diagnosis} from '../model/diagnosis.js'
import type {Evidence} from '../model/evidence.js'
import type {Finding} from '../model/finding.js'
import type {TaskRun} from '../model/run-record.js'
import {formatReplayOutcome, type TaskReplay} from '../replay/types.js'
import type {TaskVerdict, Waste, WhatIf} from './analysis.js'
import {describeBranches} from './branch-phrases.js'
import {formatMinutes} from './families/infrastructure.js'
import {notFixedPhrase, WHY} from './phrases.js'
import {fixedStop, flagsOfProfile, repeatRuns, runRecordedStall} from './recorded-stall.js'
import {endingFeatureTimeout, lastTurn, turnTimes} from './record-facts.js'
import {fidelityNote, modelledReplay} from './replay-view.js'

export interface VerdictInput {
  readonly task: TaskRun
  readonly findings: readonly Finding[]
  /** Keyed by profile, in display order. */
  readonly replays: Readonly<Record<string, TaskReplay>>
  readonly asRun: string | null
  readonly whatif: WhatIf | null
  /** The task's diagnosis: the `why` line is its primary cause (docs/root-causes.md). */
  readonly diagnosis?: Diagnosis | null
}

/** The ten-second answer for one task (docs/cli.md "The text report"): what happened, why, under each profile, the waste, what to do. */
export function buildVerdict(input: VerdictInput): TaskVerdict {
  const {task, findings} = input
  const diagnosis = input.diagnosis ?? null
  return {
    happened: happened(task),
    why: diagnosis !== null ? whyFromDiagnosis(diagnosis) : task.outcome?.value === 'approved' ? whyApproved(task, findings) : why(task, findings),
    underProfiles: Object.entries(input.replays).map(([profile, r]) => ({profile, text: underProfile(r, task)})),
    waste: waste(input),
    doNow: doNow(task.outcome?.value === 'approved' ? findings.filter((f) => worthActingOnWhenApproved(task, f)) : findings, diagnosis),
    fixedIn: fixedIn(findings, input.whatif),
    notFixed: notFixed(findings, input.whatif),
    // an approved task is not a failure, whatever its turns cost (its findings are medium at most)
    ok: task.outcome?.value === 'approved',
  }
}

/**
 * The primary cause in one sentence with its deciding line quoted and located, then the contributing
 * categories (explain and the findings say what each of them was: the line stays a ten-second read).
 */
function whyFromDiagnosis(d: Diagnosis): string {
  const quoted = d.primary.evidence.find((e) => e.text !== undefined && e.text !== '')
  const at = quoted ? ` (${located(quoted)})` : ''
  const inferred = d.confidence === 'inferred' ? ' [inferred]' : ''
  const contributing = d.contributing.map((c) => c.category)
  return `${d.primary.summary}${at}${inferred}${contributing.length > 0 ? `; contributing: ${contributing.join(', ')}` : ''}`
}

/**
 * An approved task: how it was approved, and, when earlier turns were not, what they were wasted on —
 * "wasted", never "failed": the task did not fail.
 */
function whyApproved(task: TaskRun, findings: readonly Finding[]): string {
  const n = lastTurn(task)
  const wasted = wastedBeforeApproval(task)
  const how = `the Coach approved turn ${n}`
  // what the approving turn records, not an assumption: some eras' Coaches approved with every criterion pending
  if (wasted.length === 0) return findings.length === 0 ? approvedBecause(task) : how
  const ranked = findings
    .filter((f) => f.severity !== 'info' && f.severity !== 'low' && f.turns.some((t) => wasted.includes(t)))
    .sort((a, b) => b.turns.filter((t) => wasted.includes(t)).length - a.turns.filter((t) => wasted.includes(t)).length || Number(a.id.slice(1)) - Number(b.id.slice(1)))
  // each wasted turn its own recorded reason: the finding that names it on that turn, not one turn's reason for all
  const reasons = wasted.map((t) => {
    const on = ranked.find((f) => f.turns.includes(t))
    return on === undefined ? null : on.code === 'LOG_SIGNAL' ? String((on.detail as {summary?: string} | undefined)?.summary ?? '') : WHY[on.code]
  })
  if (reasons.every((r) => r === reasons[0])) return `${how}; ${formatWasted(wasted)} wasted${reasons[0] ? `: ${reasons[0]}` : ''}`
  const groups: {turns: number[]; reason: string | null}[] = []
  wasted.forEach((t, i) => {
    const g = groups.find((x) => x.reason === reasons[i])
    if (g === undefined) groups.push({turns: [t], reason: reasons[i]!})
    else g.turns.push(t)
  })
  const each = groups.map((g) => `${g.turns.length === 1 ? `turn ${g.turns[0]}` : `turns ${g.turns.join(', ')}`}: ${g.reason ?? 'no finding names why'}`)
  return `${how}; ${formatWasted(wasted)} wasted (${each.join('; ')})`
}

function formatWasted(turns: readonly number[]): string {
  return turns.length === 1 ? `turn ${turns[0]} was` : `turns ${turns.join(', ')} were`
}

function located(e: Evidence): string {
  return e.line !== undefined ? `${e.file}:${e.line}` : e.pointer !== undefined ? `${e.file}#${e.pointer}` : e.file
}

/**
 * On an approved task the run got what it needed: an action is worth it for what cost turns (a finding on a turn
 * before the approving one that was not approved) or for what is at least medium (an approval that was itself
 * wrong is high). A low note on the approving turn alone — a session that reached its SDK turn limit and still
 * wrote the report the Coach approved — is shown as a finding, not as something to do.
 */
function worthActingOnWhenApproved(task: TaskRun, f: Finding): boolean {
  if (f.severity !== 'low' && f.severity !== 'info') return true
  const wasted = wastedBeforeApproval(task)
  return f.turns.some((t) => wasted.includes(t))
}

/** An approved task's turns before the approving one that the Coach did not approve. */
function wastedBeforeApproval(task: TaskRun): number[] {
  const n = lastTurn(task)
  return task.turns.filter((t) => t.turn < n && t.coach.decision?.value !== 'approve').map((t) => t.turn)
}

/**
 * Things to do today, one bullet per distinct action: the primary cause's first, then the others
 * most severe first. Two remediations are one action when they name the same setting or flag
 * (`autobuild.coach.test_execution: sdk`, `--sdk-timeout`, `implementation_mode: task-work`) or open
 * with the same sentence: the first to name it is kept.
 */
function doNow(findings: readonly Finding[], diagnosis: Diagnosis | null): string[] {
  const primary = diagnosis === null ? undefined : findings.find((f) => f.id === diagnosis.primary.findingId)
  const ordered = [...(primary ? [primary] : []), ...findings.filter((f) => f !== primary && f.severity !== 'info')]
  const seen = new Set<string>()
  const out: string[] = []
  for (const f of ordered) {
    if (f.remediation === '') continue
    const keys = actionKeys(f.remediation)
    if (keys.some((k) => seen.has(k))) continue
    for (const k of keys) seen.add(k)
    out.push(f.remediation)
  }
  return out.slice(0, 3)
}

/** What names an action: its settings and flags, and its first sentence (case and punctuation aside). */
export function actionKeys(text: string): string[] {
  const first = (text.split(/(?<=[.;])\s/, 1)[0] ?? text).toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim()
  const named = text.match(/--[a-z][\w-]+|\b[a-z]+(?:[._][a-z]+)+: ?[a-z][\w-]*/gi) ?? []
  return [`sentence:${first}`, ...named.map((n) => `name:${n.toLowerCase().replace(/: ?/, ': ')}`)]
}

function happened(task: TaskRun): string {
  const outcome = task.outcome?.value ?? null
  const n = lastTurn(task)
  if (outcome === null) {
    // a turn that started and left no result is not among the recorded turns: the records end during it
    const end = task.events.find((e) => e.kind === 'other' && e.name === 'records-end')
    const started = end?.kind === 'other' ? end.turn : null
    if (started !== null && started > n) return `no outcome recorded (the records end after turn ${started} started${n > 0 ? `; the last result is turn ${n}'s` : ''})`
    return n > 0 ? `no outcome recorded (the records end at turn ${n})` : 'no outcome recorded'
  }
  // a timeout that more turns of the task followed did not end it: the task's own end is what is recorded
  const timeout = endingFeatureTimeout(task)
  const crash = task.events.find((e) => e.kind === 'orchestration-crash')
  const stall = task.stall
  if (outcome === 'approved') return `approved at turn ${n}`
  if (stall?.kind === 'feedback') return `${outcome} at turn ${stall.turn ?? n} (stall detector${stall.signature ? `, signature ${stall.signature}` : ''})`
  // the status box's account of the stop, when it names one, before the sub-types that fired with it
  const stop = stall?.recordedStop
  if (stall !== null && stop?.reason != null) {
    return `${outcome} at turn ${stall.turn ?? n} (${stop.reason}${stop.coFired.length > 0 ? `; co-fired: ${stop.coFired.join(', ')}` : ''})`
  }
  if (stall?.kind === 'context-pollution') return `${outcome} at turn ${stall.turn ?? n} (context pollution: no passing checkpoint)`
  if (timeout !== undefined) return `${outcome} at turn ${timeout.turn ?? n} (feature task timeout${timeout.seconds !== null ? `, ${timeout.seconds} s` : ''})`
  if (crash?.kind === 'orchestration-crash') return `${outcome} at turn ${crash.turn ?? n} (orchestration crashed: ${crash.message})`
  if (outcome === 'max_turns_exceeded') return `max_turns_exceeded after ${n} turns`
  return `${outcome} at turn ${n}`
}

/**
 * Why an approved task was approved, as far as its approving turn records it: every criterion
 * verified, or (January 2026's Coach, docs/era-markers.md) approved with every criterion pending.
 */
function approvedBecause(task: TaskRun): string {
  const c = [...task.turns].reverse().find((u) => u.coach.decision?.value === 'approve')?.coach
  const met = c?.criteriaMet?.value ?? null
  const total = c?.criteriaTotal?.value ?? null
  if (met !== null && total !== null && total > 0 && met === total) return 'the Coach verified every criterion'
  if (total !== null && total > 0 && c?.pending?.value === total) return `the Coach approved with all ${total} criteria pending: it verified none`
  return met !== null && total !== null ? `the Coach approved it with ${met}/${total} criteria verified` : 'the Coach approved it'
}

/** The main chain's clauses, causes first: serious findings ordered by how many links lead to them. */
function why(task: TaskRun, findings: readonly Finding[]): string {
  const chain = findings.filter((f) => (f.severity === 'critical' || f.severity === 'high') && f.code !== 'STALL_FIRED')
  const chosen = chain.length > 0 ? chain : findings.filter((f) => f.severity === 'medium')
  if (chosen.length === 0) return task.outcome?.value === 'approved' ? approvedBecause(task) : 'the records show no cause'
  const byId = new Map(findings.map((f) => [f.id, f]))
  const depth = (f: Finding, seen: Set<string> = new Set()): number =>
    f.causes.reduce((d, id) => (seen.has(id) || !byId.has(id) ? d : Math.max(d, 1 + depth(byId.get(id)!, new Set([...seen, id])))), 0)
  const ordered = [...chosen].sort((a, b) => depth(a) - depth(b) || Number(a.id.slice(1)) - Number(b.id.slice(1)))
  const clauses = [...new Set(ordered.map((f) => WHY[f.code]))].slice(0, 4)
  return clauses.length > 1 ? `${clauses.slice(0, -1).join('; ')}; and ${clauses[clauses.length - 1]}` : clauses[0]!
}

function underProfile(r: TaskReplay, task: TaskRun): string {
  const o = r.outcome
  const note = fidelityNote(r)
  const suffix = note ? ` (${note})` : ''
  if (o.kind === 'not-modelled') return `not modelled: ${o.reason}`
  if (o.kind === 'undetermined') return `undetermined after turn ${o.afterTurn}: the profile would go on past the recorded turns${suffix}`
  if (o.kind === 'recorded-boundary') return `${formatReplayOutcome(o)} at turn ${o.turn}: the recorded ending stands, the profile would not have stopped before it${suffix}`
  if (o.kind === 'branches') return `undetermined: ${describeBranches(o.branches)}`
  const t = r.turns.find((x) => x.turn === o.turn)
  if (o.outcome === 'approved') return `approves at turn ${o.turn}${t?.criteriaTotal ? ` (${t.criteriaMet}/${t.criteriaTotal} criteria)` : ''}${suffix}`
  if (o.outcome === 'unrecoverable_stall' && r.stallTurn !== null) {
    const sig = r.turns.find((x) => x.turn === r.stallTurn)?.signature
    return `stops at turn ${r.stallTurn}: unrecoverable_stall${sig ? `, signature ${sig}` : ''}${suffix}`
  }
  const same = task.outcome?.value === o.outcome && lastTurn(task) === o.turn
  return `${o.outcome} at turn ${o.turn}${same ? ' (as recorded)' : ''}${suffix}`
}

/** Where the loop should have stopped: where fixed ends, else where normalised signatures fire, else the third unchanged turn. */
function waste(input: VerdictInput): Waste | null {
  const {task} = input
  if (task.outcome?.value === 'approved') return null
  const last = lastTurn(task)
  let stop: {turn: number; basis: string} | null = null
  const fixed = modelledReplay(input.replays, 'fixed')
  if (fixed?.outcome.kind === 'replayed' && fixed.outcome.turn < last) {
    stop = {turn: fixed.outcome.turn, basis: fixed.outcome.outcome === 'approved' ? `fixed approves at turn ${fixed.outcome.turn}` : `fixed stops at turn ${fixed.outcome.turn} (${fixed.outcome.outcome})`}
  }
  if (!stop) {
    const s = fixedStop(task, {}, runRecordedStall(task, flagsOfProfile(input.asRun)), runRecordedStall(task, flagsOfProfile('fixed')))
    if (s.turn !== null && s.turn < last) stop = {turn: s.turn, basis: `normalised signatures of the recorded feedback repeat by turn ${s.turn}${s.basis === 'excerpt' ? ' (approximate)' : ''}`}
  }
  if (!stop && task.stall === null) {
    const run = repeatRuns(task).find((r) => r.turns.length >= 3)
    if (run && run.turns[2]! < last) stop = {turn: run.turns[2]!, basis: `third turn of unchanged feedback ("${run.category}")`}
  }
  if (!stop) return null
  // Minutes from the stop turn's end to the end of the last turn that has a timestamp.
  const times = [...turnTimes(task)].filter(([t, v]) => t >= stop!.turn && v.end !== null).sort((a, b) => a[0] - b[0])
  const endStop = times[0]?.[0] === stop.turn ? times[0][1].end : null
  const lastTimed = times[times.length - 1]
  const minutes = endStop !== null && lastTimed && lastTimed[0] > stop.turn ? Math.round((lastTimed[1].end! - endStop) / 6000) / 10 : null
  const upTo = lastTimed && lastTimed[0] < last ? ` (to turn ${lastTimed[0]}, the last with a timestamp)` : ''
  return {
    shouldHaveStoppedAt: stop.turn,
    turnsWasted: last - stop.turn,
    minutesWasted: minutes,
    basis: `${stop.basis}${minutes !== null ? `; ${formatMinutes(minutes)} spent after it${upTo}` : ''}`,
  }
}

function flagLabel(flag: string): string {
  return isFlagId(flag) ? `${flag} (${changeById(flag).commit})` : flag
}

function fixedIn(findings: readonly Finding[], whatif: WhatIf | null): string[] {
  const flags = new Set<string>()
  for (const f of findings) for (const flag of f.fixedIn?.flags ?? []) flags.add(flag)
  for (const flip of whatif?.flips ?? []) for (const flag of flip.flags) flags.add(flag)
  const order = (f: string) => (isFlagId(f) ? commitIndex(changeById(f).commit) : 999)
  return [...flags].sort((a, b) => order(a) - order(b) || (a < b ? -1 : 1)).map(flagLabel)
}

function notFixed(findings: readonly Finding[], whatif: WhatIf | null): string[] {
  const out = new Set<string>()
  for (const f of findings) {
    const phrase = f.fixedIn === null && f.severity !== 'info' ? notFixedPhrase(f) : null
    if (phrase !== null) out.add(phrase)
  }
  if (whatif?.fixedStillFails) out.add(whatif.fixedStillFails)
  return [...out]
}
