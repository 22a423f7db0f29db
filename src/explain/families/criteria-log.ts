import {KEYWORD_THRESHOLD} from '../../logic/coach/requirements/match-by-text.js'
import type {Evidence} from '../../model/evidence.js'
import {draft, formatTurns, type FamilyInput, type FindingDraft} from '../draft.js'
import type {TurnPromises} from '../promises.js'
import {verifiedOn} from '../record-facts.js'
import {flagsOfProfile} from '../recorded-stall.js'

/**
 * Requirements verification read from what the log alone says (docs/guardkit-logic.md §7; docs/findings.md): the
 * 0/N dump's matching strategy and requirements list, the promise counts the invoker logs, the Coach's criteria
 * counts and its list of unmet criteria — for runs whose worktree files are not there.
 */
export function detectLogCriteriaFindings(input: FamilyInput, promises: readonly TurnPromises[]): FindingDraft[] {
  return [
    ...textMatchMissedAll(input),
    ...promisesNotPassedToCoach(input, promises),
    ...promisesDroppedAcrossTurns(input, promises),
    ...criteriaUnverifiable(input),
  ]
}

/**
 * TEXT_MATCH_MISSED_ALL: the 0/N dump shows the Coach matched by text (no promises) against the Player's reported
 * requirements — at least one per criterion — and verified none. Inferred: the text rules of the run's GuardKit
 * (docs/guardkit-logic.md §7.5: exact before ACR, a substring or enough of the keywords after) missed every pair;
 * whether the requirements meant the criteria is not in the records, only that the matching could not tell.
 */
function textMatchMissedAll(input: FamilyInput): FindingDraft[] {
  const hits: {turn: number; total: number; reported: readonly string[]; evidence: readonly Evidence[]}[] = []
  for (const t of input.task.turns) {
    const dump = t.coach.diagnosticDump?.value
    const reported = dump?.requirementsMetList ?? null
    if (!dump || reported === null || dump.met !== 0 || dump.total === 0 || !/^(text|hybrid)$/.test(dump.matchingStrategy)) continue
    if (reported.length < dump.total || !/^\(not used/.test(dump.completionPromises.trim())) continue
    hits.push({turn: t.turn, total: dump.total, reported, evidence: t.coach.diagnosticDump!.evidence})
  }
  if (hits.length === 0) return []
  const turns = hits.map((h) => h.turn)
  const h = hits[0]!
  // the rules as the run's GuardKit had them; outside the modelled window its version does not say which
  const rules = input.asRun === null
    ? ''
    : flagsOfProfile(input.asRun).acrFuzzyText
      ? ` (a substring, or ${Math.round(KEYWORD_THRESHOLD * 100)}% of its keywords)`
      : ' (the same text, once lower-cased and stripped: this GuardKit predates the fuzzy rules)'
  return [
    draft(input, {
      code: 'TEXT_MATCH_MISSED_ALL',
      severity: 'high',
      turns,
      message: `On ${formatTurns(turns)} the Coach had no completion promises and matched the ${h.total} criteria by text against the Player's ${h.reported.length} reported requirements (e.g. "${h.reported[0]}"), and verified none: the text rules need a criterion's own words in a requirement${rules}, so requirements written in other words never match.`,
      evidence: hits.flatMap((x) => x.evidence).slice(0, 12),
      remediation: 'Have the Player report completion promises with the criterion ids (task-work mode), or quote each criterion verbatim in its requirements list; then check the criteria against the work yourself.',
      fixedIn: null,
      source: {function: 'CoachValidator._match_by_text', spec: '§7.2, §7.5'},
      deduction: 'the Player reported at least one requirement per criterion and the text path verified none of them; whether they meant the criteria is not in the records, only that the text rules could not tell',
      detail: {turns: hits.map((x) => ({turn: x.turn, total: x.total, reported: x.reported}))},
    }),
  ]
}

/**
 * PROMISES_NOT_PASSED_TO_COACH: the invoker logged that it recovered the agent's completion promises into the turn's
 * Player report (`Recovered N completion_promises …`), yet the same turn's 0/N dump says the Coach used none
 * (`completion_promises: (not used)`): the promises were lost between the report and the Coach. Certain of both
 * facts; where they went missing (the results file the Coach reads first, a task id it could not look the report up
 * by, docs/guardkit-logic.md §7.3) the log does not say.
 */
function promisesNotPassedToCoach(input: FamilyInput, promises: readonly TurnPromises[]): FindingDraft[] {
  const hits: {turn: number; recovered: number; total: number; evidence: readonly Evidence[]}[] = []
  for (const t of input.task.turns) {
    const p = promises.find((x) => x.turn === t.turn)
    const dump = t.coach.diagnosticDump?.value
    if (!p || (p.recoveredCount ?? 0) === 0 || !dump || dump.met !== 0 || !/^\(not used/.test(dump.completionPromises.trim())) continue
    hits.push({turn: t.turn, recovered: p.recoveredCount!, total: dump.total, evidence: [...p.recoveredEvidence, ...t.coach.diagnosticDump!.evidence]})
  }
  if (hits.length === 0) return []
  const turns = hits.map((h) => h.turn)
  const h = hits[0]!
  return [
    draft(input, {
      code: 'PROMISES_NOT_PASSED_TO_COACH',
      severity: 'high',
      turns,
      message: `On ${formatTurns(turns)} the invoker recovered ${h.recovered} completion promises from the agent's report into the Player report, yet the Coach's 0/${h.total} dump says it used none ("completion_promises: (not used)") and matched by text: the promises were lost between the report and the Coach. Where is not in the log (the results file the Coach reads first, or a task id it could not find the report by).`,
      evidence: hits.flatMap((x) => x.evidence).slice(0, 12),
      remediation: "Compare the turn's player_turn_N.json with task_work_results.json (task_id, completion_promises) in the worktree; upgrade GuardKit (the Coach falls back to its own task id and the results carry the promises from 723e5f4e/edb5fd18).",
      fixedIn: null,
      source: {function: 'CoachValidator._load_completion_promises', spec: '§7.2, §7.3'},
      detail: {turns: hits.map((x) => ({turn: x.turn, recovered: x.recovered, total: x.total}))},
    }),
  ]
}

/**
 * PROMISES_LOST_ACROSS_TURNS, partial: a fix turn carried fewer promises than an earlier turn whose Coach verified
 * criteria, and verified fewer — the Player promised only what the feedback named, and the Coach reads only the
 * turn's own promises (docs/guardkit-logic.md §7.3: no version merges an earlier turn's into a non-empty list).
 */
function promisesDroppedAcrossTurns(input: FamilyInput, promises: readonly TurnPromises[]): FindingDraft[] {
  const count = (p: TurnPromises | undefined) => (p?.seen?.length ?? 0) || (p?.recoveredCount ?? 0)
  let best: {turn: number; promises: number; met: number; total: number | null; evidence: readonly Evidence[]} | null = null
  const dropped: {turn: number; promises: number; met: number; evidence: readonly Evidence[]}[] = []
  for (const t of [...input.task.turns].sort((a, b) => a.turn - b.turn)) {
    const p = promises.find((x) => x.turn === t.turn)
    const n = count(p)
    const met = verifiedOn(t)
    if (n === 0 || met === null) continue
    const evidence = [...(p?.seenEvidence ?? []), ...(p?.recoveredEvidence ?? []), ...(t.coach.criteriaMet?.evidence ?? [])]
    if (best !== null && n < best.promises && met < best.met && (t.coach.rejected?.value ?? 0) > 0) {
      dropped.push({turn: t.turn, promises: n, met, evidence})
      continue
    }
    if (met > 0 && (best === null || met > best.met)) best = {turn: t.turn, promises: n, met, total: t.coach.criteriaTotal?.value ?? null, evidence}
  }
  if (best === null || dropped.length === 0) return []
  const turns = dropped.map((d) => d.turn)
  const of = best.total === null ? '' : ` of the ${best.total}`
  return [
    draft(input, {
      code: 'PROMISES_LOST_ACROSS_TURNS',
      severity: 'high',
      turns,
      message: `Turn ${best.turn}'s report carried ${best.promises} completion promises and the Coach verified ${best.met}${of} criteria; ${formatTurns(turns)} carried only ${dropped[0]!.promises} (for what the feedback named), and the Coach, which reads only the turn's own promises, verified ${dropped[0]!.met}: criteria met before were judged without a promise.`,
      evidence: [...best.evidence, ...dropped.flatMap((d) => d.evidence)].slice(0, 12),
      remediation: `Have the Player restate every criterion's promise on each turn (its prompt), not only the ones the feedback names; review turn ${best.turn}'s work against the criteria yourself.`,
      fixedIn: null,
      source: {function: 'CoachValidator._load_completion_promises', spec: '§7.3'},
      // the record holds the counts; that the Player promised only what the feedback named, and that the met criteria
      // went unverified for want of a promise, is read from them
      deduction: 'fewer promises and fewer criteria verified on a fix turn than on an earlier one, with criteria rejected: the Coach reads only the turn\'s own promises, so criteria met before and not promised again went unverified',
      // not the same finding as the turns that carried no promise at all (criteria.ts): both may fire on one task
      keySuffix: 'partial',
      detail: {promisesTurn: best.turn, promises: best.promises, lostTurns: turns, partial: true},
    }),
  ]
}

/** A criterion that asks for a person's judgement or sign-off: no test, file or promise can show it met. */
const HUMAN_JUDGEMENT = /\b(?:feels?|delightful|intuitive|user-friendly|pleasant|looks? (?:good|great|nice|polished)|signs? off|sign-off|approved by (?:the )?(?:product|design|ux|legal|security|stakeholder|customer|client|team|owner|po)\b|stakeholders? (?:approve|agree|accept|are happy)|to the satisfaction of)/i

/**
 * CRITERIA_UNVERIFIABLE (task-spec, inferred): on the failing turns, every criterion the Coach left unmet (the full
 * texts of `Requirements not met … missing [...]`, or its report) asks for a person's judgement or sign-off, while
 * the others were verified: no change to the code makes the Coach verify those, the task as written cannot pass.
 */
function criteriaUnverifiable(input: FamilyInput): FindingDraft[] {
  const hits: {turn: number; missing: readonly string[]; evidence: readonly Evidence[]}[] = []
  for (const t of input.task.turns) {
    const missing = t.coach.missingCriteria?.value ?? null
    if (missing === null || missing.length === 0 || (verifiedOn(t) ?? 0) === 0) continue
    if (!missing.every((c) => HUMAN_JUDGEMENT.test(c))) continue
    hits.push({turn: t.turn, missing, evidence: t.coach.missingCriteria!.evidence})
  }
  if (hits.length === 0) return []
  const turns = hits.map((h) => h.turn)
  const quoted = hits[0]!.missing.slice(0, 3).map((c) => `"${c}"`).join(', ')
  return [
    draft(input, {
      code: 'CRITERIA_UNVERIFIABLE',
      severity: 'high',
      turns,
      message: `On ${formatTurns(turns)} every criterion the Coach left unmet asks for a person's judgement or sign-off (${quoted}) while the others were verified: no test or file can show them met, so no turn could pass the task as written.`,
      evidence: hits.flatMap((h) => h.evidence).slice(0, 12),
      remediation: 'Rewrite those criteria as checks a test or a file can show (or move them to a review after the build), then run the task again; approve the verified work by hand meanwhile.',
      fixedIn: null,
      source: {function: 'CoachValidator.validate_requirements', spec: '§7.1'},
      deduction: 'the wording of the unmet criteria asks for a person (a feeling, a sign-off, an approval), which no evidence the Player can give shows; the records do not hold the review that would say so',
      detail: {turns: hits.map((h) => ({turn: h.turn, missing: h.missing}))},
    }),
  ]
}
