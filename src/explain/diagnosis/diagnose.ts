import type {Diagnosis} from '../../model/diagnosis.js'
import type {Evidence} from '../../model/evidence.js'
import type {Finding} from '../../model/finding.js'
import type {TaskRun} from '../../model/run-record.js'
import {formatTurns, type FindingDraft} from '../draft.js'
import {WHY} from '../phrases.js'
import {choosePrimary} from './choose-primary.js'
import {unrecoveredFirst} from './recovered.js'

/** What `explain` shows of a diagnosis besides the contract's fields. */
export interface DiagnosisExplain {
  /** Why the primary was chosen over each other candidate. */
  readonly reasons: readonly string[]
  readonly failingTurns: readonly number[]
}

/**
 * A task run's diagnosis (docs/root-causes.md): null for an approved run; otherwise the primary
 * cause chosen by choose-primary.ts, named by its finding with one sentence and the deciding lines
 * (their text quoted), and the contributing categories with their findings. A pure function of the
 * task run and its findings; called once per task by analyzeRun.
 */
export function diagnose(task: TaskRun, drafts: readonly FindingDraft[], findings: readonly Finding[], idOf: ReadonlyMap<string, string>): {diagnosis: Diagnosis | null; explain: DiagnosisExplain | null} {
  if (task.outcome?.value === 'approved') return {diagnosis: null, explain: null}
  const chosen = choosePrimary(task, drafts)
  if (chosen === null) return {diagnosis: null, explain: null}
  const byId = new Map(findings.map((f) => [f.id, f]))
  const primary = byId.get(idOf.get(chosen.primaryKey) ?? '')
  if (primary === undefined) return {diagnosis: null, explain: null}
  const evidence = decidingEvidence(primary, task)
  return {
    diagnosis: {
      primary: {category: primary.category, findingId: primary.id, summary: summarise(primary, evidence), evidence},
      contributing: chosen.contributing
        .map((c) => ({category: c.category, findingIds: c.keys.map((k) => idOf.get(k)).filter((id): id is string => id !== undefined)}))
        .filter((c) => c.findingIds.length > 0),
      confidence: primary.confidence,
    },
    explain: {reasons: chosen.reasons, failingTurns: chosen.failingTurns},
  }
}

/**
 * The lines that decide it: those with their text first (they can be quoted), at most three; a failure its turn
 * recovered from (a fallback, then the step passed) is not quoted first where one of the finding's failures was not
 * recovered (recovered.ts).
 */
function decidingEvidence(f: Finding, task: TaskRun): Evidence[] {
  const quoted = f.evidence.filter((e) => e.text !== undefined && e.text !== '')
  return unrecoveredFirst(task, quoted.length > 0 ? quoted : f.evidence).slice(0, 3)
}

/** One sentence: the category, what happened (the rule's summary or the code's clause) and where. */
function summarise(f: Finding, evidence: readonly Evidence[]): string {
  const detail = f.detail as {summary?: string; repeated?: {turns: number} | null; signalsNotKept?: number} | undefined
  const what = f.code === 'LOG_SIGNAL' && typeof detail?.summary === 'string' ? detail.summary : WHY[f.code]
  // turns read from signal lines ingest capped are only those of the lines kept (signals.ts says how many were not)
  const kept = f.code === 'LOG_SIGNAL' && (detail?.signalsNotKept ?? 0) > 0 ? ' (of the signal lines kept)' : ''
  const turns = f.turns.length === 0 ? '' : ` on ${formatTurns(f.turns)}${kept}`
  const every = detail?.repeated ? `, the same error on every one of ${detail.repeated.turns} turns` : ''
  const quote = evidence.find((e) => e.text !== undefined && e.text !== '')?.text
  return `${f.category}: ${what}${turns}${every}${quote === undefined ? '' : ` — "${quote}"`}`
}
