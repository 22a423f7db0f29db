import {matchByTextTraced} from '../../logic/coach/requirements/match-by-text.js'
import type {RequirementScore} from '../../logic/coach/requirements/types.js'
import {pyLen, pyStrip} from '../../logic/python/strings.js'
import type {Evidence} from '../../model/evidence.js'
import type {ArtifactVersion} from '../../model/run-record.js'
import {draft, formatTurns, type FamilyInput, type FindingDraft} from '../draft.js'
import {turnPromises} from '../promises.js'
import {flagsOfProfile} from '../recorded-stall.js'
import {artifactEvidence, asObject, hasKey, taskWorkResultsByTurn} from '../record-facts.js'
import {modelledReplay, requirementsOf} from '../replay-view.js'

/** A rejected criterion whose best requirement scored at least this keyword overlap nearly matched. */
export const NEAR_MISS_JACCARD = 0.5

interface RecordedCriterion {
  readonly id: string
  readonly text: string
  readonly result: string
  readonly evidence: string
  readonly pointer: string
}

/** The Coach's per-criterion results from coach_turn_N.json, as it wrote them. */
function recordedCriteria(v: ArtifactVersion): RecordedCriterion[] {
  const json = asObject(v.json)
  const list = json?.['criteria_verification']
  if (!Array.isArray(list)) return []
  return list.flatMap((raw, i) => {
    const o = asObject(raw)
    if (!o || typeof o['criterion_text'] !== 'string') return []
    return [{id: String(o['criterion_id'] ?? ''), text: o['criterion_text'] as string, result: String(o['result'] ?? o['status'] ?? ''),
      evidence: typeof o['evidence'] === 'string' ? (o['evidence'] as string) : '', pointer: `/criteria_verification/${i}`}]
  })
}

const SUBSTRING = /^Substring match with '([\s\S]*)'$/

/**
 * TEXT_MATCH_NEAR_MISS and FUZZY_FALSE_POSITIVE on recorded inputs: the Coach's own per-criterion
 * results and the requirements list task_work_results.json gave it, scored with the docs/guardkit-logic.md §7.5 rules.
 */
export function detectTextMatchFindings(input: FamilyInput): FindingDraft[] {
  const flags = flagsOfProfile(input.asRun)
  const twrByTurn = taskWorkResultsByTurn(input.task)
  const near: {turn: number; criterion: RecordedCriterion; closest: RequirementScore; evidence: Evidence[]}[] = []
  const fuzzy: {turn: number; criterion: RecordedCriterion; matched: string; evidence: Evidence[]}[] = []
  for (const t of input.task.turns) {
    const coach = t.artifacts.coachReport
    if (!coach) continue
    const criteria = recordedCriteria(coach)
    for (const c of criteria) {
      const m = SUBSTRING.exec(c.evidence)
      if (c.result === 'verified' && m && (pyStrip(m[1]!) === '' || pyLen(pyStrip(m[1]!)) <= 2)) {
        fuzzy.push({turn: t.turn, criterion: c, matched: m[1]!, evidence: [artifactEvidence(coach, c.pointer)]})
      }
    }
    const twr = twrByTurn.get(t.turn)
    const w = asObject(twr?.json)
    if (!twr || !w || (turnPromises(input.task, t).seen?.length ?? 0) > 0) continue
    // requirementsAddressedSource (D25): the text path reads requirements_addressed when the key exists.
    const key = flags.requirementsAddressedSource && hasKey(w, 'requirements_addressed') ? 'requirements_addressed' : 'requirements_met'
    const reqs = w[key]
    if (!Array.isArray(reqs) || reqs.length === 0 || !reqs.every((r) => typeof r === 'string')) continue
    let traces
    try {
      traces = matchByTextTraced(criteria.map((c) => c.text), reqs, flags, key).traces
    } catch {
      continue
    }
    traces.forEach((tr, i) => {
      const c = criteria[i]!
      if (c.result !== 'rejected' || tr.step !== null || !tr.closest) return
      if (tr.closest.jaccard >= NEAR_MISS_JACCARD) near.push({turn: t.turn, criterion: c, closest: tr.closest, evidence: [artifactEvidence(coach, c.pointer), artifactEvidence(twr, `/${key}/${tr.closest.index}`)]})
    })
  }
  const out: FindingDraft[] = []
  if (near.length) {
    const n = near[0]!
    out.push(
      draft(input, {
        code: 'TEXT_MATCH_NEAR_MISS',
        severity: 'medium',
        turns: near.map((x) => x.turn),
        message: `On ${formatTurns(near.map((x) => x.turn))} ${near.length === 1 ? 'a criterion was' : `${near.length} criteria were`} rejected although a requirement nearly matched: "${n.criterion.text}" vs "${String(n.closest.requirement)}" (keyword overlap ${Math.round(n.closest.jaccard * 100)}%, the rule needs 70% or a substring).`,
        evidence: near.flatMap((x) => x.evidence).slice(0, 12),
        remediation: 'Have the Player quote each criterion verbatim in requirements_addressed, or better, report completion_promises with the criterion ids (task-work mode).',
        fixedIn: null,
        source: {function: 'CoachValidator._match_by_text', spec: '§7.5'},
        detail: {misses: near.map((x) => ({turn: x.turn, criterion: x.criterion.id, text: x.criterion.text, closest: x.closest.requirement, jaccard: x.closest.jaccard}))},
      }),
    )
  }
  if (fuzzy.length === 0) out.push(...replayedFuzzy(input))
  if (fuzzy.length) {
    const f = fuzzy[0]!
    out.push(
      draft(input, {
        code: 'FUZZY_FALSE_POSITIVE',
        severity: 'high',
        turns: fuzzy.map((x) => x.turn),
        message: `On ${formatTurns(fuzzy.map((x) => x.turn))} the Coach verified "${f.criterion.text}" by a substring match with ${JSON.stringify(f.matched)}: an empty or one-character requirement is "in" every criterion, so this says nothing about the work.`,
        evidence: fuzzy.flatMap((x) => x.evidence).slice(0, 12),
        remediation: 'Do not trust this approval: check the criterion by hand, and remove empty entries from the Player\'s requirements lists; no GuardKit version guards against them.',
        fixedIn: null,
        source: {function: 'CoachValidator._match_by_text', spec: '§7.5'},
        detail: {matches: fuzzy.map((x) => ({turn: x.turn, criterion: x.criterion.id, text: x.criterion.text, matched: x.matched}))},
      }),
    )
  }
  return out
}

/**
 * FUZZY_FALSE_POSITIVE from a replay (inferred): the run's own profile or fixed would verify a
 * criterion by a substring match with an empty or one-character requirement (docs/guardkit-logic.md §7.5, §7.6).
 */
function replayedFuzzy(input: FamilyInput): FindingDraft[] {
  for (const profile of [input.asRun, 'fixed']) {
    const replay = modelledReplay(input.replays, profile)
    if (!replay) continue
    const hits: {turn: number; id: string; text: unknown; matched: string}[] = []
    for (const t of replay.turns) {
      for (const c of requirementsOf(t)?.criteria ?? []) {
        const m = c.text_match?.matched
        if (c.verdict === 'verified' && (c.decidedBy === 'text-substring' || c.decidedBy === 'hybrid-text') && typeof m === 'string' && pyLen(pyStrip(m)) <= 2) {
          hits.push({turn: t.turn, id: c.criterion_id, text: c.text, matched: m})
        }
      }
    }
    if (hits.length === 0) continue
    const h = hits[0]!
    return [
      draft(input, {
        code: 'FUZZY_FALSE_POSITIVE',
        severity: 'high',
        turns: hits.map((x) => x.turn),
        reproduceProfile: replay.profile,
        message: `Replayed under ${replay.profile}, the Coach would verify "${String(h.text)}" on ${formatTurns(hits.map((x) => x.turn))} by a substring match with ${JSON.stringify(h.matched)}: an empty requirement is "in" every criterion, so that verdict says nothing about the work.`,
        evidence: [],
        remediation: 'Do not read this profile\'s approval as proof: remove empty entries from the Player\'s requirements lists and check the criterion by hand.',
        fixedIn: null,
        source: {function: 'CoachValidator._match_by_text / _hybrid_fallback', spec: '§7.5, §7.6'},
        deduction: `the replay under ${replay.profile} matched ${h.id} through ${hits.length === 1 ? 'this' : 'these'} requirement string${hits.length === 1 ? '' : 's'}; the recorded Coach reports do not show it`,
        detail: {profile: replay.profile, matches: hits},
      }),
    ]
  }
  return []
}
