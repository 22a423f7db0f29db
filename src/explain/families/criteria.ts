import {criterionId} from '../../logic/coach/requirements/criterion-result.js'
import {parseTaskFile} from '../../logic/mode/task-loader.js'
import type {Evidence} from '../../model/evidence.js'
import {draft, fixedBy, formatTurns, type FamilyInput, type FindingDraft} from '../draft.js'
import {statusById, turnPromises, type TurnPromises} from '../promises.js'
import {guardkitOf} from '../diagnosis/guardkit-changes.js'
import {flagsOfProfile} from '../recorded-stall.js'
import {criteriaTotal} from '../record-facts.js'
import {detectLogCriteriaFindings} from './criteria-log.js'
import {detectTextMatchFindings} from './criteria-text.js'

/**
 * Requirements verification (docs/guardkit-logic.md §7, §9.3): 0/N against nothing, promises the Coach did not use,
 * criterion ids that do not line up, criteria counted twice. Log dumps, Coach reports, player
 * reports and the task file; the text-matching rules are applied to recorded inputs only.
 */
export function detectCriteriaFindings(input: FamilyInput): FindingDraft[] {
  const promises = input.task.turns.map((t) => turnPromises(input.task, t))
  return [
    ...zeroOfNTextMatchEmpty(input, promises),
    ...promisesLostAcrossTurns(input, promises),
    ...detectLogCriteriaFindings(input, promises),
    ...criterionIdMismatch(input, promises),
    ...criteriaCountInflated(input),
    ...detectTextMatchFindings(input),
  ]
}

const hasPromises = (p: TurnPromises | undefined) => (p?.seen?.length ?? 0) > 0 || (p?.recoveredCount ?? 0) > 0

/**
 * ZERO_OF_N_TEXT_MATCH_EMPTY: certain from the 0/N dump (`matching_strategy: text`,
 * `requirements_met: []`); inferred where the era logs no dump but every criterion was rejected and
 * no promise is recorded for the turn.
 */
function zeroOfNTextMatchEmpty(input: FamilyInput, promises: readonly TurnPromises[]): FindingDraft[] {
  const {task} = input
  const anyDump = task.turns.some((t) => t.coach.diagnosticDump !== null)
  const certain: {turn: number; total: number; evidence: readonly Evidence[]; lines: readonly string[]}[] = []
  const inferred: {turn: number; total: number; evidence: readonly Evidence[]}[] = []
  for (const t of task.turns) {
    const dump = t.coach.diagnosticDump?.value
    if (dump) {
      if (dump.met === 0 && dump.total > 0 && /^(text|hybrid)$/.test(dump.matchingStrategy) && /^\[\s*\]$/.test(dump.requirementsMet.trim())) {
        certain.push({turn: t.turn, total: dump.total, evidence: t.coach.diagnosticDump!.evidence, lines: dump.lines})
      }
      continue
    }
    const total = t.coach.criteriaTotal?.value ?? null
    const rejected = t.coach.rejected?.value ?? null
    const p = promises.find((x) => x.turn === t.turn)
    if (anyDump || total === null || total === 0 || t.coach.criteriaMet?.value !== 0 || rejected !== total || hasPromises(p)) continue
    inferred.push({turn: t.turn, total, evidence: [...(t.coach.criteriaMet?.evidence ?? []), ...(t.coach.rejected?.evidence ?? [])]})
  }
  const chosen = certain.length > 0 ? certain : inferred
  if (chosen.length === 0) return []
  const turns = chosen.map((c) => c.turn)
  const total = chosen[0]!.total
  return [
    draft(input, {
      code: 'ZERO_OF_N_TEXT_MATCH_EMPTY',
      severity: 'high',
      turns,
      message: `On ${formatTurns(turns)} the Coach had no completion promises and matched the ${total} criteria by text against an empty requirements list: 0/${total}, whatever the Player had done.`,
      evidence: chosen.flatMap((c) => c.evidence).slice(0, 12),
      remediation: `The Player's claims never reached the Coach: fix the cause this follows from (see the chain)${upgradeAdvice(input)}.`,
      fixedIn: null,
      source: {function: 'CoachValidator.validate_requirements / _match_by_text', spec: '§7.1, §7.2, §7.5'},
      ...(certain.length > 0
        ? {}
        : {deduction: 'this GuardKit logs no 0/N diagnostic dump; every criterion was rejected ("N rejected", not pending) and no promise is recorded for these turns, so the Coach took the text path, and an empty requirements_met is the only input on which that path rejects every criterion of a Player that reported its work'}),
      detail: {turns: chosen.map((c) => ({turn: c.turn, total: c.total, dump: 'lines' in c ? c.lines : null}))},
    }),
  ]
}

/**
 * Where the run's GuardKit lacked S000's fixes (docs/guardkit-logic.md §4.4), task-work mode on 723e5f4e+ carries the
 * agent's promises to the Coach; a GuardKit that had them already did, so the upgrade is no advice there.
 */
function upgradeAdvice(input: FamilyInput): string {
  const has = guardkitOf(input)('recoverAgentPromises')
  if (has === true) return ''
  const advice = 'running the task in task-work mode on GuardKit 723e5f4e+ gets the agent\'s promises to the Coach'
  return has === false ? `; ${advice}` : `; if this GuardKit predates 723e5f4e (its era cannot tell), ${advice}`
}

/** PROMISES_LOST_ACROSS_TURNS: an earlier turn had promises, this one none, and the Coach did not reuse them. */
function promisesLostAcrossTurns(input: FamilyInput, promises: readonly TurnPromises[]): FindingDraft[] {
  const reuses = flagsOfProfile(input.asRun).priorTurnPromises
  let firstWith: TurnPromises | null = null
  const certain: number[] = []
  const inferred: number[] = []
  const evidence: Evidence[] = []
  for (const t of [...input.task.turns].sort((a, b) => a.turn - b.turn)) {
    const p = promises.find((x) => x.turn === t.turn)!
    if (hasPromises(p)) {
      firstWith ??= p
      continue
    }
    if (!firstWith) continue
    const dump = t.coach.diagnosticDump?.value
    if (dump && dump.matchingStrategy === 'text') {
      certain.push(t.turn)
      evidence.push(...t.coach.diagnosticDump!.evidence.slice(0, 1))
    } else if (!dump && !reuses && (t.coach.rejected?.value ?? 0) > 0 && t.coach.criteriaMet?.value === 0) {
      inferred.push(t.turn)
      evidence.push(...(t.coach.rejected?.evidence ?? []))
    }
  }
  const turns = certain.length > 0 ? certain : inferred
  if (!firstWith || turns.length === 0) return []
  const n = firstWith.seen?.length || firstWith.recoveredCount
  return [
    draft(input, {
      code: 'PROMISES_LOST_ACROSS_TURNS',
      severity: 'high',
      turns,
      message: `Turn ${firstWith.turn}'s report carried ${n} completion promises, but ${formatTurns(turns)} carried none and the Coach did not reuse the earlier ones, so it fell back to text matching and rejected every criterion again.`,
      evidence: [...firstWith.seenEvidence, ...firstWith.recoveredEvidence, ...evidence].slice(0, 12),
      remediation: `Review turn ${firstWith.turn}'s work against the criteria yourself; on GuardKit edb5fd18+ the Coach reuses the last turn's promises when a fix turn writes none.`,
      fixedIn: reuses ? null : fixedBy('priorTurnPromises'),
      source: {function: 'CoachValidator._load_completion_promises', spec: '§7.3 (D26)'},
      ...(certain.length > 0
        ? {}
        : {deduction: 'no 0/N dump says which strategy the Coach used; this GuardKit reads only the current turn\'s promises, and the turn rejected criteria with none recorded'}),
      detail: {promisesTurn: firstWith.turn, promises: n, lostTurns: turns},
    }),
  ]
}

/** CRITERION_ID_MISMATCH: promise ids that are not the criteria's ids (AC-005a vs AC-005), so those criteria had no promise. */
function criterionIdMismatch(input: FamilyInput, promises: readonly TurnPromises[]): FindingDraft[] {
  const total = criteriaTotal(input.task)
  if (total === null || total === 0) return []
  const expected = new Set(Array.from({length: total}, (_, i) => criterionId(i)))
  const hits: {turn: number; stray: string[]; missing: string[]; evidence: readonly Evidence[]}[] = []
  for (const p of promises) {
    if (!p.seen || p.seen.length === 0) continue
    const ids = [...statusById(p.seen).keys()]
    const stray = ids.filter((id) => !expected.has(id))
    const missing = [...expected].filter((id) => !ids.includes(id))
    if (stray.length > 0 && missing.length > 0) hits.push({turn: p.turn, stray, missing, evidence: p.seenEvidence})
  }
  if (hits.length === 0) return []
  const turns = hits.map((h) => h.turn)
  const h = hits[0]!
  return [
    draft(input, {
      code: 'CRITERION_ID_MISMATCH',
      severity: 'medium',
      turns,
      message: `On ${formatTurns(turns)} the Player's promises used criterion ids the Coach does not have (${h.stray.slice(0, 4).join(', ')}) while ${h.missing.slice(0, 4).join(', ')} got no promise, so those criteria were judged without one.`,
      evidence: hits.flatMap((x) => x.evidence),
      remediation: 'Number the acceptance criteria as flat top-level bullets (AC-001 … in order) so the Player\'s ids line up with the Coach\'s; avoid sub-criteria like AC-005a.',
      fixedIn: null,
      source: {function: 'CoachValidator._match_by_promises', spec: '§7.4'},
      detail: {turns: hits.map((x) => ({turn: x.turn, stray: x.stray, missing: x.missing}))},
    }),
  ]
}

/** CRITERIA_COUNT_INFLATED: the legacy parser counted nested sub-bullets; the Coach's total equals that count. */
function criteriaCountInflated(input: FamilyInput): FindingDraft[] {
  const file = input.task.taskFile
  if (!file) return []
  let legacy: readonly unknown[]
  let fixed: readonly unknown[]
  try {
    legacy = parseTaskFile(file.text, file.file, flagsOfProfile('pre-acr')).acceptance_criteria
    fixed = parseTaskFile(file.text, file.file, flagsOfProfile('fixed')).acceptance_criteria
  } catch {
    return []
  }
  if (legacy.length <= fixed.length) return []
  const turns = input.task.turns.filter((t) => t.coach.criteriaTotal?.value === legacy.length)
  const asRunInflates = !flagsOfProfile(input.asRun).topLevelCriteriaOnly
  if (turns.length === 0 && !(asRunInflates && input.asRun !== null)) return []
  const extra = legacy.length - fixed.length
  return [
    draft(input, {
      code: 'CRITERIA_COUNT_INFLATED',
      severity: 'medium',
      turns: turns.map((t) => t.turn),
      message: `The Coach counted ${legacy.length} acceptance criteria where the task has ${fixed.length}: GuardKit's parser took ${extra} indented sub-bullet${extra === 1 ? '' : 's'} as criteria of their own, which no promise numbered AC-001…AC-${String(fixed.length).padStart(3, '0')} can cover.`,
      evidence: [{file: file.file, note: 'the ## Acceptance Criteria section'}, ...turns.flatMap((t) => t.coach.criteriaTotal!.evidence).slice(0, 4)],
      remediation: 'Write each acceptance criterion as one top-level bullet (move sub-bullets into the criterion\'s text); GuardKit 723e5f4e+ counts top-level bullets only.',
      fixedIn: fixedBy('topLevelCriteriaOnly'),
      source: {function: 'TaskLoader._extract_acceptance_criteria', spec: '§9.3'},
      ...(turns.length > 0 ? {} : {deduction: `no recorded criteria total; the run's GuardKit (${input.asRun}) counts nested bullets`}),
      detail: {counted: legacy.length, topLevel: fixed.length, subBullets: legacy.filter((c) => !fixed.includes(c))},
    }),
  ]
}
