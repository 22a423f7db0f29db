import type {CriterionExplanation} from '../../logic/coach/requirements/types.js'
import type {Evidence} from '../../model/evidence.js'
import {formatReplayOutcome, type ReplayedTurn} from '../../replay/types.js'
import {draft, formatTurns, type FamilyInput, type FindingDraft} from '../draft.js'
import {asObject} from '../record-facts.js'
import {fidelityNote, modelledReplay, replayedTurns, requirementsOf} from '../replay-view.js'

/**
 * What only a replay can say: the run's own profile not reproducing a recorded Coach verdict, and
 * `fixed` still rejecting criteria it never looked at. Replay-derived, so these are `inferred`
 * except the divergence, which compares the record with the model on an exact turn.
 */
export function detectReplayFindings(input: FamilyInput): FindingDraft[] {
  return [...replayDiverges(input), ...fixedStillFails(input)]
}

/** REPLAY_DIVERGES_FROM_RECORD: on an exact turn with recorded inputs, the as-run verdict differs from the record. */
function replayDiverges(input: FamilyInput): FindingDraft[] {
  if (!input.era.modelled) return []
  const replay = modelledReplay(input.replays, input.asRun)
  if (!replay) return []
  const turns = replay.turns.filter(
    (t) => t.fidelity === 'exact' && t.confidence === 'recorded' && t.detail.differences.some((d) => d.field === 'decision' || d.field === 'criteriaMet'),
  )
  if (turns.length === 0) return []
  const first = turns[0]!
  const diffs = first.detail.differences.filter((d) => d.field === 'decision' || d.field === 'criteriaMet')
  const said = diffs.map((d) => `${d.field} ${String(d.replayed)} where the record says ${String(d.recorded)}`).join(', ')
  return [
    draft(input, {
      code: 'REPLAY_DIVERGES_FROM_RECORD',
      severity: 'medium',
      turns: turns.map((t) => t.turn),
      reproduceTurn: first.turn,
      reproduceProfile: replay.profile,
      message: `Replayed under ${replay.profile}, the profile inferred for this run, turn ${first.turn} gives ${said}: the model, the era inference or the records are wrong here, so read this task's other replays with care.`,
      evidence: [...diffs.flatMap((d) => d.evidence), ...input.era.evidence.slice(0, 2)],
      remediation: 'Check the inferred era (--profile to override) and the ingest issues; if both hold, record the run (guardkit-replay record) and report it so the model can be corrected.',
      fixedIn: null,
      source: {function: 'replay (as-run profile)', spec: '§10'},
      detail: {profile: replay.profile, turns: turns.map((t) => ({turn: t.turn, differences: t.detail.differences.map((d) => ({field: d.field, recorded: d.recorded, replayed: d.replayed}))}))},
    }),
  ]
}

/** Criteria the Coach rejected without having seen anything about them. */
function blindRejections(criteria: readonly CriterionExplanation[]): {criterion: CriterionExplanation; why: string}[] {
  return criteria.flatMap((c) => {
    if (c.verdict !== 'rejected') return []
    if (c.decidedBy === 'synthetic-unmet') return [{criterion: c, why: 'a synthetic report with no promises (fixed generates them only for scaffolding tasks)'}]
    if (c.decidedBy === 'text-none' && Array.isArray(c.text_match?.requirements) && c.text_match.requirements.length === 0) {
      return [{criterion: c, why: 'text matching against an empty requirements list'}]
    }
    const promise = asObject(c.promise?.promise)
    if (c.decidedBy === 'promise-rejected' && promise?.['evidence_type'] === 'file_existence') {
      return [{criterion: c, why: 'a file-existence promise, which cannot judge a criterion that names no file'}]
    }
    return []
  })
}

/** FIXED_STILL_FAILS: fixed does not approve, and rejects criteria from missing data rather than from the work. */
function fixedStillFails(input: FamilyInput): FindingDraft[] {
  const replay = modelledReplay(input.replays, 'fixed')
  if (!replay || (replay.outcome.kind === 'replayed' && replay.outcome.outcome === 'approved')) return []
  // Undetermined with an approving branch: "fixed still fails" would claim what the records cannot decide.
  if (replay.outcome.kind === 'branches' && replay.outcome.branches.some((b) => b.outcome === 'approved')) return []
  let last: {turn: ReplayedTurn; blind: ReturnType<typeof blindRejections>} | null = null
  for (const t of replayedTurns(replay)) {
    const req = requirementsOf(t)
    if (!req) continue
    const blind = blindRejections(req.criteria)
    if (blind.length > 0) last = {turn: t, blind}
  }
  if (!last) return []
  const reasons = [...new Set(last.blind.map((b) => b.why))]
  const skipped = last.turn.detail.player.events.filter((e) => e.kind === 'skipped' && /promise/i.test(e.field)).map((e) => e.message)
  const explicitDirect = input.task.mode?.value === 'direct' && input.task.taskFile?.frontmatter['implementation_mode'] === 'direct'
  const turns = replayedTurns(replay).filter((t) => (requirementsOf(t) ? blindRejections(requirementsOf(t)!.criteria).length > 0 : false)).map((t) => t.turn)
  const total = requirementsOf(last.turn)!.criteria.length
  const evidence: Evidence[] = [...(input.task.mode?.evidence ?? []), ...(input.task.criteria?.evidence ?? [])]
  const note = fidelityNote(replay)
  return [
    draft(input, {
      code: 'FIXED_STILL_FAILS',
      severity: 'medium',
      turns,
      reproduceTurn: last.turn.turn,
      reproduceProfile: 'fixed',
      message: `Even fixed GuardKit would not approve this task (${formatReplayOutcome(replay.outcome)}): on ${formatTurns(turns)} it still rejects ${last.blind.length} of ${total} criteria from ${reasons.join(' and ')}, not from the work.`,
      evidence,
      remediation: explicitDirect
        ? 'Change implementation_mode: direct to task-work in the task\'s frontmatter (an explicit mode wins over the fixed mode guard) and rerun; the task-work Player reports a promise per criterion.'
        : 'Run the task in task-work mode, whose Player reports a promise per criterion; or phrase each criterion so that it names the file that proves it.',
      fixedIn: null,
      source: {function: 'CoachValidator.validate_requirements (fixed)', spec: '§5.2, §7.1, §10'},
      deduction: `replayed under fixed${note ? ` (${note})` : ''}: ${last.blind.map((b) => `${b.criterion.criterion_id} rejected by ${b.why}`).slice(0, 3).join('; ')}${skipped.length ? `; ${skipped[0]}` : ''}`,
      detail: {
        outcome: formatReplayOutcome(replay.outcome),
        turn: last.turn.turn,
        rejected: last.blind.map((b) => ({id: b.criterion.criterion_id, text: b.criterion.text, decidedBy: b.criterion.decidedBy, why: b.why})),
        explicitDirect,
        skippedSteps: skipped,
      },
    }),
  ]
}
