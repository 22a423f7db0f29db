import type {RootCause} from '../../model/root-cause.js'
import type {TaskRun} from '../../model/run-record.js'
import {SEVERITY_ORDER} from '../../model/finding.js'
import {compareCodePoints} from '../../shared/code-point-order.js'
import type {FindingDraft} from '../draft.js'
import {CODE_CLASSES} from './code-classes.js'
import {stageIndex, type Role, type Stage} from './stages.js'

/** A diagnosis before the findings have ids: the chosen draft's key and the others'. */
export interface DiagnosisDraft {
  readonly primaryKey: string
  readonly contributing: readonly {readonly category: RootCause; readonly keys: readonly string[]}[]
  /** Why the primary was chosen over the others, one line per candidate it beat (for `explain`). */
  readonly reasons: readonly string[]
  readonly failingTurns: readonly number[]
}

export interface Candidate {
  readonly draft: FindingDraft
  readonly stage: Stage
  readonly role: Role
  /** The failing turns on which it is the earliest failure (the turn's root); every turn for a finding about the task as a whole. */
  readonly covered: readonly number[]
  readonly coverage: number
  /** It is the root of the turn that ended the task. */
  readonly last: boolean
}

/** A finding's stage and role: a signal finding carries its rule's, the others their code's. */
export function classOf(d: FindingDraft): {stage: Stage; role: Role} {
  const detail = d.detail as {stage?: Stage; role?: Role} | undefined
  if (d.code === 'LOG_SIGNAL' && detail?.stage !== undefined && detail.role !== undefined) return {stage: detail.stage, role: detail.role}
  const c = CODE_CLASSES[d.code]
  return {stage: c.stage, role: c.role}
}

/**
 * The turns that failed: those the Coach gave feedback on or that ended in an error (of the Player or
 * the Coach), and the last. A turn whose records hold no decision and no error is not known to have
 * failed (its records may be cut from the capture): it is not listed. With no turn on record (a task
 * that failed before its first turn), none.
 */
export function failingTurns(task: TaskRun): number[] {
  const last = Math.max(0, ...task.turns.map((t) => t.turn))
  return task.turns
    .filter((t) => t.turn === last || (t.coach.decision !== null ? t.coach.decision.value !== 'approve' : t.player.error !== null || t.player.status?.value === 'error' || t.coach.error != null))
    .map((t) => t.turn)
}

/**
 * The primary cause (docs/root-causes.md, "Choosing the primary cause"): among the findings that can
 * be a cause, the one that shows on the most failing turns — an error that repeats on every failing
 * turn before a one-off — then the earliest stage of the turn (set-up, model call, Player agent,
 * Player report, pipeline, Coach, criteria, Coach tests, gates, loop control, outer limits), then the
 * most severe, the earliest turn, the catalogue's order. An outcome (stall, max turns, timeout,
 * cancellation) is never a candidate. Null when no finding can be a cause.
 */
export function choosePrimary(task: TaskRun, drafts: readonly FindingDraft[]): DiagnosisDraft | null {
  const failing = failingTurns(task)
  const last = failing.length === 0 ? null : Math.max(...task.turns.map((t) => t.turn))
  const classes = drafts.map((d) => ({draft: d, ...classOf(d)}))
  const roots = rootsByTurn(classes.filter((c) => c.role === 'cause'), failing)
  const candidates = classes.map((c) => candidate(c, roots, failing, last))
  const causes = candidates.filter((c) => c.role === 'cause').sort(compareCandidates)
  const primary = causes[0]
  if (primary === undefined) return null
  const contributing = new Map<RootCause, string[]>()
  for (const c of [...candidates].sort((a, b) => stageIndex(a.stage) - stageIndex(b.stage) || compareCodePoints(a.draft.key, b.draft.key))) {
    if (c === primary || c.role === 'context' || c.draft.category === primary.draft.category || c.draft.category === 'unknown') continue
    contributing.set(c.draft.category, [...(contributing.get(c.draft.category) ?? []), c.draft.key])
  }
  return {
    primaryKey: primary.draft.key,
    contributing: [...contributing].map(([category, keys]) => ({category, keys})),
    reasons: causes.slice(1).map((c) => whyBefore(primary, c, failing.length)),
    failingTurns: failing,
  }
}

/**
 * Each failing turn's root: of the cause findings that show on it (a finding about the whole task
 * shows on every turn), the one of the earliest stage — the others on that turn followed from it or
 * came later in the turn. At the same stage, what a record states comes before what is inferred from a
 * shape (a message naming a shared port before a test run that merely failed fast), then the more severe.
 */
function rootsByTurn(causes: readonly {draft: FindingDraft; stage: Stage; role: Role}[], failing: readonly number[]): Map<number, FindingDraft> {
  const roots = new Map<number, FindingDraft>()
  for (const t of failing) {
    const root = rootAmong(causes, t)
    if (root !== null) roots.set(t, root)
  }
  return roots
}

function rootAmong(causes: readonly {draft: FindingDraft; stage: Stage}[], turn: number): FindingDraft | null {
  const on = causes.filter((c) => c.draft.turns.length === 0 || c.draft.turns.includes(turn))
  const root = on.sort((a, b) => stageIndex(a.stage) - stageIndex(b.stage) || inferred(a.draft) - inferred(b.draft) || SEVERITY_ORDER.indexOf(a.draft.severity) - SEVERITY_ORDER.indexOf(b.draft.severity) || ruleOrder(a.draft) - ruleOrder(b.draft) || compareCodePoints(a.draft.key, b.draft.key))[0]
  return root?.draft ?? null
}

/** A turn's root among these findings of role `cause`: the one of the earliest stage that shows on it (rule 2 above). */
export function turnRoot(causes: readonly FindingDraft[], turn: number): FindingDraft | null {
  return rootAmong(causes.map((d) => ({draft: d, stage: classOf(d).stage})), turn)
}

function candidate(c: {draft: FindingDraft; stage: Stage; role: Role}, roots: ReadonlyMap<number, FindingDraft>, failing: readonly number[], last: number | null): Candidate {
  const covered = failing.filter((t) => roots.get(t) === c.draft)
  const coverage = failing.length === 0 ? 1 : covered.length / failing.length
  return {...c, covered, coverage, last: last === null || covered.includes(last)}
}

function compareCandidates(a: Candidate, b: Candidate): number {
  return (
    b.coverage - a.coverage ||
    Number(b.last) - Number(a.last) ||
    firstTurn(a.draft) - firstTurn(b.draft) ||
    stageIndex(a.stage) - stageIndex(b.stage) ||
    SEVERITY_ORDER.indexOf(a.draft.severity) - SEVERITY_ORDER.indexOf(b.draft.severity) ||
    ruleOrder(a.draft) - ruleOrder(b.draft) ||
    compareCodePoints(a.draft.key, b.draft.key)
  )
}

/** A signal finding's rule's place in the catalogue (earlier rules are more specific); other findings first. */
function ruleOrder(d: FindingDraft): number {
  const order = (d.detail as {ruleOrder?: number} | undefined)?.ruleOrder
  return d.code === 'LOG_SIGNAL' && typeof order === 'number' ? order : -1
}

/** 1 when the finding's category is a deduction from a shape, 0 when a record states it. */
function inferred(d: FindingDraft): number {
  return d.confidence === 'inferred' ? 1 : 0
}

function firstTurn(d: FindingDraft): number {
  return d.turns.length === 0 ? 0 : d.turns[0]!
}

/** One line of `explain`: why the primary came before this candidate. */
function whyBefore(primary: Candidate, other: Candidate, failing: number): string {
  const name = (c: Candidate) => `${c.draft.code === 'LOG_SIGNAL' ? String((c.draft.detail as {ruleId?: string}).ruleId) : c.draft.code} (${c.draft.category})`
  const head = `${name(primary)} before ${name(other)}: `
  if (primary.coverage !== other.coverage) {
    return `${head}it is the earliest failure on ${primary.covered.length} of the ${failing} failing turns, the other on ${other.covered.length}${other.covered.length === 0 ? ' (it shows only on turns where something earlier in the turn had already failed, or on none that failed)' : ''}`
  }
  if (primary.last !== other.last) return `${head}it is the earliest failure on the turn that ended the task, the other is not`
  if (firstTurn(primary.draft) !== firstTurn(other.draft)) return `${head}the same number of failing turns, and it came first (turn ${firstTurn(primary.draft)}, the other turn ${firstTurn(other.draft)})`
  if (primary.stage !== other.stage) return `${head}the same turns, and it fails an earlier stage of the turn (${primary.stage} before ${other.stage})`
  return `${head}the same turns and stage; it is the more severe, or the more specific rule`
}
