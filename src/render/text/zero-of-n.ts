import type {TaskAnalysis} from '../../explain/analysis.js'
import type {CriteriaTurn, CriterionRow} from '../../explain/criteria-table.js'
import type {CriterionExplanation, RequirementsExplanation} from '../../logic/coach/requirements/types.js'
import type {Evidence} from '../../model/evidence.js'
import {endsBeforeRequirements, type ReplayedTurn} from '../../replay/types.js'
import {asExplanation} from './criteria.js'
import {describeTurns, truncate, wrap} from './layout.js'
import {formatEvidenceList, type TextOptions} from './text-options.js'

/** A task's 0/N verdicts as data the text and Markdown reports share: the first 0/N turn, per profile. */
export interface ZeroOfNView {
  readonly turn: number
  /** Recorded turns with 0 of N criteria met. */
  readonly zeroTurns: readonly number[]
  readonly total: number
  readonly perProfile: readonly ProfileCriteria[]
  readonly dump: {readonly lines: readonly string[]; readonly basis: 'recorded' | 'rebuilt'; readonly where: string} | null
}

export interface ProfileCriteria {
  readonly profile: string
  /** Null when this profile's Coach did not judge the criteria (then `note` says why or what it did). */
  readonly strategy: string | null
  readonly note: string | null
  readonly criteria: readonly {readonly id: string; readonly text: string; readonly verified: boolean; readonly summary: string}[]
  /** Where the Player's claims were lost on their way to the Coach, first stage first. */
  readonly trail: readonly {readonly stage: string; readonly what: string; readonly flag?: string; readonly evidence: readonly Evidence[]}[]
}

/** Null when no recorded turn was 0/N. Uses the explainer's criteria table when the report has one. */
export function buildZeroOfN(t: TaskAnalysis, profiles: readonly string[]): ZeroOfNView | null {
  const zero = t.task.turns.filter((u) => u.coach.criteriaMet?.value === 0 && (u.coach.criteriaTotal?.value ?? 0) > 0)
  const table = t.explain?.criteria ?? null
  // the first 0/N turn on which some profile's Coach judged the criteria one by one, else the first
  const judged = (turn: number) => profiles.some((p) => {
    const u = t.replays[p]?.turns.find((x) => x.turn === turn)
    return table?.some((c) => c.turn === turn && c.profile === p) || (table === null && u !== undefined && asExplanation(u.detail.coach.requirements) !== null)
  })
  const first = zero.find((u) => judged(u.turn)) ?? zero[0]
  if (first === undefined) return null
  const perProfile = profiles.flatMap((profile): ProfileCriteria[] => {
    const u = t.replays[profile]?.turns.find((x) => x.turn === first.turn)
    if (u === undefined) return []
    const row = table?.find((c) => c.turn === first.turn && c.profile === profile)
    if (row !== undefined) return [fromTable(row)]
    const req = asExplanation(u.detail.coach.requirements)
    if (req !== null && table === null) return [fromExplanation(profile, req, u)]
    return [{profile, strategy: null, note: notJudged(u), criteria: [], trail: []}]
  })
  const recorded = first.coach.diagnosticDump
  const rebuilt = table?.find((c) => c.turn === first.turn && c.dump !== null)?.dump ?? null
  const dump = recorded !== null
    ? {lines: recorded.value.lines, basis: 'recorded' as const, where: formatEvidenceList(recorded.evidence)}
    : rebuilt === null ? null : {lines: rebuilt.lines, basis: rebuilt.basis, where: formatEvidenceList(rebuilt.evidence)}
  return {turn: first.turn, zeroTurns: zero.map((u) => u.turn), total: first.coach.criteriaTotal?.value ?? 0, perProfile, dump}
}

function fromTable(c: CriteriaTurn): ProfileCriteria {
  return {
    profile: c.profile,
    strategy: c.strategy,
    note: `${c.met ?? '?'}/${c.total ?? '?'}; promises from ${c.promiseSource}${c.requirements === null ? '' : `; ${requirementsText(c.requirements)}`}`,
    criteria: c.criteria.map((r) => ({id: r.id, text: String(r.text), verified: r.verdict === 'verified', summary: rowSummary(r)})),
    trail: c.trail,
  }
}

function requirementsText(r: NonNullable<CriteriaTurn['requirements']>): string {
  if (r.source === null) return 'no requirements list in the results'
  return `${r.source} = ${r.values.length === 0 ? '[]' : `${r.values.length} item${r.values.length === 1 ? '' : 's'}`}`
}

function rowSummary(r: CriterionRow): string {
  const parts = [r.decidedBy]
  if (r.promise !== null) parts.push(`promise ${String(r.promise.status)}`)
  if (r.closest !== null) parts.push(`closest “${truncate(String(r.closest.requirement), 50)}” ${pct(r.closest.jaccard)}${r.closest.meetsRule ? '' : ` (rule: ${r.closest.rule})`}`)
  return parts.join(' · ')
}

function fromExplanation(profile: string, req: RequirementsExplanation, u: ReplayedTurn): ProfileCriteria {
  return {
    profile,
    strategy: req.strategy,
    note: `${u.criteriaMet ?? '?'}/${u.criteriaTotal ?? '?'}`,
    criteria: req.criteria.map((c) => ({id: c.criterion_id, text: String(c.text), verified: c.verdict === 'verified', summary: criterionSummary(c)})),
    trail: u.detail.player.events.filter((e) => ['dropped', 'filtered', 'replaced', 'overwritten', 'not-written-back', 'skipped'].includes(e.kind))
      .map((e) => ({stage: e.step, what: e.message, ...(e.flag === undefined ? {} : {flag: e.flag}), evidence: []})),
  }
}

export function criterionSummary(c: CriterionExplanation): string {
  const parts: string[] = [c.decidedBy]
  if (c.promise !== null) {
    const status = c.promise.promise !== null && typeof c.promise.promise === 'object' ? (c.promise.promise as {status?: unknown}).status : undefined
    parts.push(status === undefined ? `no promise for ${c.criterion_id}` : `promise ${String(status)}`)
  }
  const tm = c.text_match
  if (tm !== null) {
    parts.push(`${tm.source ?? 'no requirements key'} ${tm.requirements.length === 0 ? '[]' : `(${tm.requirements.length})`}`)
    if (tm.closest !== null) parts.push(`closest “${truncate(String(tm.closest.requirement), 50)}” ${pct(tm.closest.jaccard)}${tm.closest.meetsRule ? '' : ` (rule: ≥ ${pct(tm.threshold)})`}`)
  }
  return parts.join(' · ')
}

function notJudged(u: ReplayedTurn): string {
  if (u.criteriaMet !== null && u.criteriaTotal !== null && u.criteriaMet === u.criteriaTotal && u.criteriaTotal > 0) return `verifies ${u.criteriaMet}/${u.criteriaTotal}`
  const c = u.detail.coach
  if (endsBeforeRequirements(c.step)) return `criteria not evaluated: validate() ended at ${c.step}${c.notValidatedBecause === null ? '' : ` (${c.notValidatedBecause})`}`
  const counts = `${u.criteriaMet ?? '?'}/${u.criteriaTotal ?? '?'}`
  return `${counts}, no per-criterion detail: ${c.notValidatedBecause ?? "the records do not hold the Coach's inputs"}`
}

function pct(x: number): string {
  return `${Math.round(x * 100)}%`
}

/**
 * The 0/N picture in the report: on the first 0/N turn, each criterion with each profile's
 * verdict, the step that decided it, the data it saw and the closest requirement against the
 * rule; where the data was lost; and GuardKit's own dump (its lines with --verbose).
 */
export function renderZeroOfN(view: ZeroOfNView, o: TextOptions, indent = '  '): string[] {
  const p = o.palette
  const judgedOn = view.zeroTurns.length > 1 ? `; as judged on turn ${view.turn}` : ''
  const out = [`${indent}${p.bold(`0/${view.total}`)} ${p.dim(`on ${describeTurns(view.zeroTurns)}${judgedOn}`)}`]
  const name = Math.max(0, ...view.perProfile.map((x) => x.profile.length))
  const body = o.width - indent.length - 2
  for (const x of view.perProfile) {
    const label = `${indent}  ${x.profile.padEnd(name)}  `
    const text = x.strategy === null ? x.note ?? '' : `strategy ${x.strategy}; ${x.note ?? ''}`
    out.push(...wrap(text, o.width - label.length).map((l, i) => `${i === 0 ? label : ' '.repeat(label.length)}${l}`))
  }
  const judged = view.perProfile.filter((x) => x.criteria.length > 0)
  for (const c of judged[0]?.criteria ?? []) {
    // the criterion's text cut at a word to one line; --verbose prints it whole
    if (o.verbose) out.push(...wrap(`${c.id} ${c.text}`, body).map((l, i) => `${indent}  ${i === 0 ? l.replace(c.id, p.bold(c.id)) : `  ${l}`}`))
    else out.push(`${indent}  ${p.bold(c.id)} ${truncate(c.text, body - c.id.length - 1)}`)
    for (const j of judged) {
      const mine = j.criteria.find((x) => x.id === c.id)
      if (mine === undefined) continue
      const label = `${indent}    ${mine.verified ? '✓' : '✗'} ${j.profile.padEnd(name)}  `
      const lines = wrap(mine.summary, o.width - label.length)
      out.push(...lines.map((l, i) => (i === 0 ? (mine.verified ? p.green(`${label}${l}`) : `${label}${l}`) : `${' '.repeat(label.length)}${l}`)))
    }
  }
  for (const j of judged) {
    for (const step of j.trail) {
      const where = formatEvidenceList(step.evidence, 2)
      const text = `${j.profile}: ${step.stage}: ${step.what}${step.flag === undefined ? '' : ` [${step.flag}]`}${where === '' ? '' : ` (${where})`}`
      out.push(...wrap(text, body - 6).map((l, i) => `${indent}  ${i === 0 ? p.yellow('trail ') : '      '}${l}`))
    }
  }
  if (view.dump !== null) {
    const label = view.dump.basis === 'recorded' ? `GuardKit's own 0/N dump (${view.dump.where})` : "GuardKit's 0/N dump, rebuilt by the model (not in the log)"
    out.push(`${indent}  ${p.dim(`${label}${o.verbose ? ':' : '; --verbose prints it'}`)}`)
    if (o.verbose) out.push(...view.dump.lines.map((l) => `${indent}    ${p.dim(l)}`))
  }
  return out
}
