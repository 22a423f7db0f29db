import {draft, plural, type FamilyInput, type FindingDraft} from '../draft.js'
import {lastTurn} from '../record-facts.js'
import {classOf} from './choose-primary.js'
import type {TaskSignals} from './task-signals.js'

/**
 * CAUSE_NOT_RECORDED: a task run that did not end approved, and no finding that can be its cause.
 * Said plainly instead of leaving the `why` empty, with what there is to read: the signals no rule
 * classifies (explain lists them) and how to teach the catalogue a new message.
 */
export function causeNotRecorded(input: FamilyInput, drafts: readonly FindingDraft[], signals: TaskSignals): FindingDraft[] {
  const outcome = input.task.outcome?.value ?? null
  if (outcome === 'approved') return []
  if (drafts.some((d) => classOf(d).role === 'cause')) return []
  const n = lastTurn(input.task)
  const ended = outcome === null ? `has no recorded outcome${n > 0 ? ` after turn ${n}` : ''}` : `ended ${outcome}${n > 0 ? ` after ${plural(n, 'turn')}` : ''}`
  const unclassified = signals.unclassified.length
  const read = unclassified > 0
    ? `; ${plural(unclassified, 'warning or error line', 'warning or error lines')} no rule classifies ${unclassified === 1 ? 'is' : 'are'} listed by explain`
    : ''
  return [
    draft(input, {
      code: 'CAUSE_NOT_RECORDED',
      severity: 'medium',
      turns: [],
      message: `${input.task.taskId} ${ended}, and no record of its turns names a cause: the log and the artifacts do not say why${read}.`,
      evidence: [...(input.task.outcome?.evidence ?? []), ...signals.unclassified.slice(0, 3).map((s) => s.evidence)],
      remediation: 'Read the unclassified lines (guardkit-replay explain RUN --task ID); if one of them is the cause, add a rule for its message shape with --signals FILE (docs/signals.md).',
      fixedIn: null,
      source: {function: 'diagnosis', spec: 'docs/root-causes.md'},
      reproduceTurn: null,
      detail: {unclassified},
    }),
  ]
}
