import type {CriterionExplanation, RequirementsExplanation} from '../../logic/coach/requirements/types.js'
import {endsBeforeRequirements, type PipelineTraceEvent, type TurnDetail} from '../../replay/types.js'
import {padEnd, wrap} from './layout.js'
import type {TextOptions} from './text-options.js'

/** Pipeline events that lost or made up data on its way to the Coach. */
const LOSS_KINDS = new Set(['dropped', 'filtered', 'spurious', 'replaced', 'overwritten', 'not-written-back', 'skipped', 'generated', 'approximate'])

/**
 * Every criterion as one profile's Coach judged it (the 0/N explanation): the strategy, the data
 * the matcher saw, the closest requirement and its score against the rule, and the pipeline step
 * that lost the data that would have verified it.
 */
export function renderCriteria(detail: TurnDetail, o: TextOptions, indent: string, recorded: RecordedCounts | null = null): string[] {
  const p = o.palette
  const req = asExplanation(detail.coach.requirements)
  const losses = detail.player.events.filter((e) => LOSS_KINDS.has(e.kind))
  const out: string[] = []
  if (req === null) {
    out.push(...wrap(noExplanation(detail, recorded), o.width - indent.length).map((l) => `${indent}${p.dim(l)}`))
  } else {
    out.push(...wrap(`strategy ${req.strategy} · promises from ${promiseSource(req)} · ${requirementsSeen(req)}${req.dumped ? ' · 0/N dump logged' : ''}`, o.width - indent.length).map((l) => `${indent}${l}`))
    for (const u of req.unknowns) out.push(`${indent}${p.yellow(`unknown: ${u}`)}`)
    for (const c of req.criteria) out.push(...renderCriterion(c, losses, o, indent))
  }
  if (losses.length > 0) {
    out.push(`${indent}${p.bold('pipeline')} ${p.dim('(what the Player→Coach pipeline lost or made up)')}`)
    for (const e of losses) out.push(...wrap(`${e.step} ${e.kind} ${e.field}: ${e.message}${e.flag === undefined ? '' : ` [${e.flag}]`}`, o.width - indent.length - 4).map((l, i) => `${indent}  ${i === 0 ? '• ' : '  '}${l}`))
  }
  return out
}

/** The criteria counts GuardKit logged for the turn (`Criteria Progress (Turn N): M/T verified`), with where. */
export interface RecordedCounts {
  readonly met: number | null
  readonly total: number | null
  readonly where: string
}

/**
 * Why a turn shows no criterion-by-criterion explanation. When the model did not run `validate()`
 * (the decision is the recorded one), that says nothing of whether GuardKit checked the criteria:
 * the counts it logged are quoted instead, and only a recorded stop before the requirements step
 * (docs/guardkit-logic.md §6.1) says they were not checked.
 */
function noExplanation(detail: TurnDetail, recorded: RecordedCounts | null): string {
  const c = detail.coach
  if (c.step === 'requirements') return 'the requirements step ran but left no explanation'
  const because = c.notValidatedBecause === null ? '' : `: ${c.notValidatedBecause}`
  if (c.source === 'recorded-log' || c.source === 'recorded-report') {
    const counts = recorded === null || (recorded.met === null && recorded.total === null) ? null : recorded
    if (counts !== null)
      return `criteria not re-checked by the model (the decision is the recorded one${because}); GuardKit logged ${counts.met ?? '?'}/${counts.total ?? '?'} criteria verified${counts.where === '' ? '' : ` (${counts.where})`}`
    if (endsBeforeRequirements(c.step))
      return `criteria not re-checked by the model (the decision is the recorded one${because}); the recorded decision stops at ${c.step}, before validate()'s requirements step (docs/guardkit-logic.md §6.1)`
    return `criteria not re-checked by the model (the decision is the recorded one${because}); the records hold no criteria counts for this turn`
  }
  if (endsBeforeRequirements(c.step) || c.source === 'none') return `criteria were not evaluated this turn (validate() ended at ${c.step}${because})`
  return `no criterion-by-criterion explanation (validate() ended at ${c.step}${because})`
}

function renderCriterion(c: CriterionExplanation, losses: readonly PipelineTraceEvent[], o: TextOptions, indent: string): string[] {
  const p = o.palette
  const ok = c.verdict === 'verified'
  const head = `${indent}${String(c.index + 1).padStart(2)} ${padEnd(c.criterion_id, 8)} ${ok ? p.green('✓ verified') : p.red('✗ rejected')}  ${p.dim('decided by')} ${c.decidedBy}`
  const inner = `${indent}      `
  const width = o.width - inner.length
  const out = [head, ...wrap(`“${String(c.text)}”`, width).map((l) => `${inner}${l}`)]
  if (c.promise !== null) {
    const status = promiseStatus(c.promise.promise)
    const ids = c.promise.ids.map(String)
    out.push(...wrap(`data: ${status === null ? `no promise with id ${c.criterion_id}${ids.length === 0 ? ' (no promises at all)' : ` (promises name ${ids.join(', ')})`}` : `promise ${status}`}`, width).map((l) => `${inner}${l}`))
  }
  const tm = c.text_match
  if (tm !== null) {
    out.push(...wrap(`data: ${tm.source ?? 'no requirements key'} = ${tm.requirements.length === 0 ? '[] (empty)' : `${tm.requirements.length} requirement${tm.requirements.length === 1 ? '' : 's'}`} · rules ${tm.rules}${tm.step === null ? '' : ` · matched by ${tm.step}`}`, width).map((l) => `${inner}${l}`))
    const cl = tm.closest
    if (cl !== null) {
      const score = `jaccard ${cl.jaccard.toFixed(2)} (rule: exact, substring or ≥ ${tm.threshold.toFixed(2)})${cl.meetsRule ? '' : ', below the rule'}`
      out.push(...wrap(`closest: “${String(cl.requirement)}” ${score}`, width).map((l) => `${inner}${p.dim(l)}`))
    } else if (tm.requirements.length > 0) out.push(`${inner}${p.dim('closest: none shares a keyword')}`)
  }
  const lost = losses.filter((e) => (e.values ?? []).some((v) => JSON.stringify(v).includes(c.criterion_id)))
  for (const e of lost) out.push(...wrap(`lost at ${e.step} (${e.kind} ${e.field})`, width).map((l) => `${inner}${p.yellow(l)}`))
  return out
}

export function asExplanation(value: unknown): RequirementsExplanation | null {
  if (value === null || typeof value !== 'object' || !Array.isArray((value as {criteria?: unknown}).criteria)) return null
  return value as RequirementsExplanation
}

function promiseSource(req: RequirementsExplanation): string {
  const s = req.promiseSource
  switch (s.kind) {
    case 'task_work_results':
      return 'task_work_results.json'
    case 'current-report':
      return `player_turn_${s.turn}.json`
    case 'prior-report':
      return `player_turn_${s.turn}.json (an earlier turn)`
    case 'none':
      return `nowhere (${s.reason})`
  }
}

function requirementsSeen(req: RequirementsExplanation): string {
  if (req.requirements === null) return 'requirements not used'
  const v = req.requirements.value
  const n = Array.isArray(v) ? v.length : null
  return `${req.requirements.source ?? 'no requirements key'} = ${n === null ? String(v) : n === 0 ? '[]' : `${n} item${n === 1 ? '' : 's'}`}`
}

function promiseStatus(promise: unknown): string | null {
  if (promise === null || typeof promise !== 'object') return null
  const status = (promise as {status?: unknown}).status
  return `status ${JSON.stringify(status ?? null)}`
}
