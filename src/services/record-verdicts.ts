import type {Evidence} from '../model/evidence.js'
import type {Report} from '../render/json/report.js'

/**
 * What `record` promises to keep: per task, the recorded outcome, stall and per-turn decisions
 * and criteria; per replayed profile the outcome (an undetermined one's branches: each ending and the
 * values that give it), stall turn and per turn the decision, criteria,
 * signature (the profile's, and both stall signatures), fidelity; the finding codes with their
 * turns, severity and confidence; the inferred era. Texts, paths and evidence are left out: they
 * are what redaction changes, and a recording's files have their own names.
 */
export interface VerdictView {
  readonly inferredProfile: string | null
  readonly tasks: Readonly<Record<string, TaskVerdicts>>
}

export interface TaskVerdicts {
  readonly mode: string | null
  readonly recorded: {
    readonly outcome: string | null
    readonly turnCount: number | null
    readonly stall: {readonly turn: number | null; readonly signature: string | null} | null
    readonly turns: readonly {readonly turn: number; readonly decision: string | null; readonly criteriaMet: number | null; readonly criteriaTotal: number | null}[]
  }
  readonly replay: Readonly<Record<string, {
    readonly outcome: string | null
    /** An undetermined replay's branches: each ending and the values of the missing inputs that give it. */
    readonly branches: readonly {readonly outcome: string; readonly stallTurn: number | null; readonly endTurn: number | null; readonly values: Readonly<Record<string, readonly string[]>>}[]
    readonly stallTurn: number | null
    readonly endTurn: number | null
    readonly turns: readonly {
      readonly turn: number
      readonly decision: string | null
      readonly criteriaMet: number | null
      readonly criteriaTotal: number | null
      readonly signature: string | null
      readonly rawSignature: string | null
      readonly normalisedSignature: string | null
      readonly fidelity: string
    }[]
  }>>
  readonly findings: readonly {readonly code: string; readonly severity: string; readonly confidence: string; readonly turns: readonly number[]}[]
}

export function verdictView(report: Report): VerdictView {
  const tasks: Record<string, TaskVerdicts> = {}
  for (const t of report.tasks) {
    tasks[taskKey(t.taskId, t.attempt)] = {
      mode: t.mode,
      recorded: {
        outcome: t.recorded.outcome,
        turnCount: t.recorded.turnCount ?? null,
        stall: t.recorded.stall === null ? null : {turn: t.recorded.stall.turn, signature: t.recorded.stall.signature},
        turns: t.recorded.turns.map((u) => ({turn: u.turn, decision: u.decision, criteriaMet: u.criteriaMet, criteriaTotal: u.criteriaTotal})),
      },
      replay: Object.fromEntries(Object.entries(t.replay ?? {}).map(([profile, r]) => [profile, {
        outcome: r.outcome,
        branches: (r.branches ?? []).map((b) => ({outcome: b.outcome, stallTurn: b.stallTurn, endTurn: b.endTurn, values: {...(b.values ?? {})}})),
        stallTurn: r.stallTurn,
        endTurn: r.endTurn ?? null,
        turns: r.turns.map((u) => ({
          turn: u.turn,
          decision: u.decision,
          criteriaMet: u.criteriaMet,
          criteriaTotal: u.criteriaTotal,
          signature: u.signature,
          rawSignature: u.stall?.rawSignature ?? null,
          normalisedSignature: u.stall?.normalisedSignature ?? null,
          fidelity: u.fidelity,
        })),
      }])),
      findings: (t.findings ?? []).map((f) => ({code: f.code, severity: f.severity, confidence: f.confidence, turns: [...f.turns]})),
    }
  }
  return {inferredProfile: report.run.inferredProfile?.name ?? null, tasks}
}

export function taskKey(taskId: string, attempt: number): string {
  return `${taskId} #${attempt}`
}

/** One difference between two views: where (a readable path) and the two values. */
export interface VerdictDifference {
  readonly task: string | null
  readonly profile: string | null
  readonly turn: number | null
  readonly path: string
  readonly before: unknown
  readonly after: unknown
}

/** Every leaf that differs, in a stable order; empty when the verdicts are the same. */
export function diffVerdicts(before: VerdictView, after: VerdictView): VerdictDifference[] {
  const out: VerdictDifference[] = []
  if (before.inferredProfile !== after.inferredProfile) out.push({task: null, profile: null, turn: null, path: 'inferred profile', before: before.inferredProfile, after: after.inferredProfile})
  const keys = [...new Set([...Object.keys(before.tasks), ...Object.keys(after.tasks)])]
  for (const key of keys) {
    const a = before.tasks[key]
    const b = after.tasks[key]
    if (a === undefined || b === undefined) {
      out.push({task: key, profile: null, turn: null, path: 'task', before: a === undefined ? 'absent' : 'present', after: b === undefined ? 'absent' : 'present'})
      continue
    }
    walk(a, b, [], (path, x, y) => {
      const profile = path[0] === 'replay' ? String(path[1]) : null
      const turnsAt = path.indexOf('turns')
      const turnList = turnsAt < 0 ? null : (path.slice(0, turnsAt + 1).reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], a) as {turn: number}[])
      const index = turnsAt < 0 ? null : Number(path[turnsAt + 1])
      const turn = turnList === null || index === null || Number.isNaN(index) ? null : turnList[index]?.turn ?? null
      out.push({task: key, profile, turn, path: path.join('.'), before: x, after: y})
    })
  }
  return out
}

function walk(a: unknown, b: unknown, path: string[], report: (path: string[], a: unknown, b: unknown) => void): void {
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const keys = Array.isArray(a) && Array.isArray(b)
      ? Array.from({length: Math.max(a.length, b.length)}, (_, i) => String(i))
      : [...new Set([...Object.keys(a), ...Object.keys(b)])]
    for (const k of keys) walk((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], [...path, k], report)
    return
  }
  if (a !== b) report(path, a, b)
}

/** Where the record read a turn's feedback (the text whose md5 is the signature). */
export function feedbackEvidence(report: Report, task: string, turn: number): readonly Evidence[] {
  const t = report.tasks.find((x) => taskKey(x.taskId, x.attempt) === task)
  return t?.recorded.turns.find((u) => u.turn === turn)?.evidence?.feedback ?? []
}
