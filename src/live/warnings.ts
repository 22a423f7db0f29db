import type {AnalysisReport, TaskAnalysis} from '../explain/analysis.js'
import type {StallCell, StallRow} from '../explain/stall-table.js'
import type {Finding, FindingCode, Severity} from '../model/finding.js'
import type {RootCause} from '../model/root-cause.js'
import type {TaskRun} from '../model/run-record.js'
import type {WarningView} from '../render/ink/model.js'
import type {TaskTiming} from './log-lines.js'

/**
 * The codes `live` warns about while the build runs (and `--stop-on` accepts): the early signs of
 * the seeds' incidents, each raised the moment its evidence is in the records.
 */
export const EARLY_WARNING_CODES = [
  'ZERO_OF_N_TEXT_MATCH_EMPTY',
  'PROMISES_LOST_ACROSS_TURNS',
  'SYNTHETIC_REPORT_WITHOUT_PROMISES',
  'SYNTHETIC_FLAG_MISSING',
  'STALL_DEFEATED_BY_VARIABLE_OUTPUT',
  'INFRA_TEST_FAILURE',
  'ABSOLUTE_RELATIVE_DUPLICATES',
  'DUPLICATE_TEST_PATHS_UNNORMALISED',
  'ENDED_BY_TIMEOUT_NOT_STALL',
  'ORCHESTRATION_CRASH',
  'LOG_SIGNAL',
] as const satisfies readonly FindingCode[]

/**
 * Signal findings (the catalogue, docs/signals.md) of these categories warn, the moment their line
 * is read: an error of the model API or of the set-up fails every turn the same way, so waiting for
 * the turn to settle only wastes it. Other signal findings are for the report, not for a warning.
 */
export const AT_ONCE_CATEGORIES: ReadonlySet<RootCause> = new Set(['model-api', 'configuration'])

export type EarlyWarningCode = (typeof EARLY_WARNING_CODES)[number]

export function isEarlyWarningCode(code: string): code is EarlyWarningCode {
  return (EARLY_WARNING_CODES as readonly string[]).includes(code)
}

export interface LiveWarning extends WarningView {
  readonly code: EarlyWarningCode
  /** Where the failure started (docs/root-causes.md): `--stop-on` takes categories as well as codes. */
  readonly category: RootCause
  /** `finding`: the explain layer's finding (same code and wording as `analyze`); `live`: a rule that needs the clock or sees it a turn earlier. */
  readonly source: 'finding' | 'live'
  /** The task's latest turn when it was raised (at most one past `turn` when raised promptly). */
  readonly seenAtTurn: number | null
}

export interface WarningInput {
  readonly report: AnalysisReport
  readonly timing: (taskId: string) => TaskTiming | undefined
  /** The session clock (ms) and how many seconds of the build pass per second of it. */
  readonly now: number
  readonly timeScale: number
  /** The log the report was computed from is complete up to this time (the last quiet flush, or now). */
  readonly viewAsOf: number
  readonly raisedAt: string
  /** The records are still coming in (not the final analysis). */
  readonly live: boolean
}

export function taskKey(task: Pick<TaskRun, 'taskId' | 'attempt'>): string {
  return `${task.taskId}#${task.attempt}`
}

/**
 * New warnings for the report so far; `raised` (keys `TASK#attempt:CODE`) holds those already
 * given, one per code and task run. Finding-based warnings reuse the finding's message, so `live`
 * and `analyze` word a code the same way; two rules are live-only: the stall detector's window
 * defeated by variable output, seen on the second such turn (the finding needs three), and half
 * of the task timeout gone with no criteria progress (it needs the clock).
 */
export function detectWarnings(input: WarningInput, raised: ReadonlySet<string>): LiveWarning[] {
  const out: LiveWarning[] = []
  const running = runningProfile(input.report)
  for (const analysis of input.report.tasks) {
    // while the build runs, a task folder the log does not (yet) hold is stale or not attributed yet
    if (input.live && analysis.task.sources?.log === false) continue
    const key = taskKey(analysis.task)
    const current = currentTurn(analysis.task, input.timing(analysis.task.taskId))
    const add = (code: EarlyWarningCode, category: RootCause, severity: Severity, turn: number | null, message: string, source: LiveWarning['source'], id = `${key}:${code}`) => {
      if (raised.has(id) || out.some((w) => w.id === id)) return
      out.push({id, key, taskId: analysis.task.taskId, attempt: analysis.task.attempt, code, category, severity, turn, message, raisedAt: input.raisedAt, source, seenAtTurn: current})
    }
    const variable = variableOutputWarning(analysis, running)
    if (variable) add('STALL_DEFEATED_BY_VARIABLE_OUTPUT', 'loop-control', 'high', variable.turn, variable.message, 'live')
    const settled = settledTurn(analysis.task, input.timing(analysis.task.taskId), input)
    for (const f of analysis.findings) {
      if (!isEarlyWarningCode(f.code)) continue
      const turn = evidenceTurn(f, analysis, current)
      if (f.code === 'LOG_SIGNAL') {
        // one warning per catalogue rule: the causes of an at-once category, the moment their line is read
        const rule = f.detail as {ruleId?: string; role?: string} | undefined
        if (rule?.role === 'cause' && AT_ONCE_CATEGORIES.has(f.category)) add(f.code, f.category, f.severity, turn, f.message, 'finding', `${key}:${f.code}:${rule.ruleId ?? ''}`)
        continue
      }
      if ((turn ?? 0) <= settled) add(f.code, f.category, f.severity, turn, f.message, 'finding')
    }
    const timeout = timeoutWarning(analysis, input)
    if (timeout) add('ENDED_BY_TIMEOUT_NOT_STALL', 'timeout', 'high', timeout.turn, timeout.message, 'live')
  }
  return out
}

/**
 * The last turn whose records are complete in the analysis: GuardKit has moved on to the next turn
 * (and the view holds what it printed before), or the task has ended. A turn still being written
 * (its full feedback not saved yet, its Coach report not landed) can give a finding that its
 * complete records withdraw, so finding-based warnings wait for it.
 */
function settledTurn(task: TaskRun, timing: TaskTiming | undefined, input: WarningInput): number {
  if (!input.live || task.outcome !== null) return Infinity
  let started = 0
  for (const [n, at] of timing?.turnStarts ?? []) if (at <= input.viewAsOf && n > started) started = n
  const recorded = task.turns.at(-1)?.turn ?? 0
  return Math.max(started, recorded) - 1
}

/** The turn whose record completed the evidence: the first turn, or the window's last for a windowed code. */
function evidenceTurn(f: Finding, analysis: TaskAnalysis, current: number | null): number | null {
  if (f.turns.length === 0) return current
  if (f.code === 'STALL_DEFEATED_BY_VARIABLE_OUTPUT') {
    const threshold = analysis.explain?.stall.threshold ?? 3
    return f.turns[Math.min(threshold, f.turns.length) - 1] ?? null
  }
  return f.turns[0] ?? null
}

/** The task's turn in progress: the latest the records or the output name. */
export function currentTurn(task: TaskRun, timing: TaskTiming | undefined): number | null {
  const recorded = task.turns.at(-1)?.turn ?? null
  const started = timing ? Math.max(0, ...timing.turnStarts.keys()) : 0
  const turn = Math.max(recorded ?? 0, started)
  return turn === 0 ? null : turn
}

export function runningProfile(report: AnalysisReport): string {
  return report.era.modelled && report.era.profile !== null ? report.era.profile : 'legacy'
}

/**
 * Two consecutive feedback turns whose full texts agree once normalised but whose raw signatures
 * differ, under a running logic that signs raw feedback: its detector will never see them as one
 * (docs/guardkit-logic.md §8.4); fixed would.
 */
function variableOutputWarning(analysis: TaskAnalysis, running: string): {turn: number; message: string} | null {
  const table = analysis.explain?.stall
  if (!table || analysis.task.stall !== null) return null
  const rows = table.rows.filter((r): r is StallRow & {recorded: {check: StallCell}} => r.recorded.check !== null && r.recorded.check.signature !== null)
  for (let i = 1; i < rows.length; i++) {
    const prev = rows[i - 1]!
    const cur = rows[i]!
    const a = prev.recorded.check
    const b = cur.recorded.check
    if (cur.turn !== prev.turn + 1 || prev.recorded.completeness !== 'full' || cur.recorded.completeness !== 'full') continue
    if (b.signature !== b.rawSignature || a.normalisedSignature === null || a.normalisedSignature !== b.normalisedSignature) continue
    if (a.rawSignature === b.rawSignature || a.count !== b.count) continue
    const fixedFires = table.threshold - 2
    return {
      turn: cur.turn,
      message: `turns ${prev.turn} and ${cur.turn} gave the same feedback once normalised (${b.normalisedSignature}) but different raw signatures (${a.rawSignature}, ${b.rawSignature}): the stall detector of ${running} will not fire on them; normalised signatures (fixed) would fire after ${fixedFires} more such turn${fixedFires === 1 ? '' : 's'}`,
    }
  }
  return null
}

/**
 * Half the feature's task timeout gone and no turn judged before then verified more criteria than
 * the first. The turn is the one in progress when half the timeout was gone. Its time comes from the
 * build's own clock when the records have it — the task file's `autobuild_state` (GuardKit saves it
 * after every turn: `started_at`, each turn's `timestamp`): the first turn that ended past the mark
 * was in progress at it. That is known once that turn's record lands, and it does not depend on when
 * `live` happened to read the lines. Only a task without those times (a log-only capture) uses the
 * session's clock (scaled): the turn whose start line arrived last before the mark.
 */
function timeoutWarning(analysis: TaskAnalysis, input: WarningInput): {turn: number | null; message: string} | null {
  const task = analysis.task
  if (task.outcome !== null) return null
  const timeout = input.report.run.attempts.find((a) => a.attempt === task.attempt)?.settings.taskTimeoutSeconds?.value ?? null
  if (timeout === null) return null
  const recorded = markFromTaskFile(task, timeout)
  const mark = recorded === undefined ? markFromClock(task, timeout, input) : recorded
  if (mark === null) return null
  const turn = mark.turn
  const decided = task.turns.filter((t) => t.coach.criteriaMet !== null && (turn === null || t.turn < turn))
  const met = decided.map((t) => t.coach.criteriaMet!.value)
  const first = met[0] ?? 0
  const peak = Math.max(0, ...met)
  const total = decided.at(-1)?.coach.criteriaTotal?.value ?? task.criteria?.texts.length ?? null
  if (peak > first || (total !== null && peak >= total)) return null
  const best = total === null ? `${peak} criteria verified` : `${peak}/${total} at best`
  return {
    turn,
    message: `${task.taskId} has used half of its ${timeout} s task timeout, in turn ${turn ?? '?'}, with no criteria progress (${best} over ${decided.length} judged turn${decided.length === 1 ? '' : 's'}): at this pace the feature timeout will end it, not the stall detector`,
  }
}

/**
 * The half mark on the build's clock (autobuild_state): `undefined` when the task file has no start
 * time (the caller falls back to the session clock), null while no turn has ended past the mark yet.
 */
function markFromTaskFile(task: TaskRun, timeout: number): {turn: number} | null | undefined {
  const state = asObject(task.taskFile?.frontmatter['autobuild_state'])
  const started = typeof state?.['started_at'] === 'string' ? parseNaiveTime(state['started_at']) : null
  if (started === null) return undefined
  const half = started + (timeout * 1000) / 2
  let turn: number | null = null
  for (const raw of Array.isArray(state?.['turns']) ? state['turns'] : []) {
    const item = asObject(raw)
    const n = item?.['turn']
    const at = typeof item?.['timestamp'] === 'string' ? parseNaiveTime(item['timestamp']) : null
    if (typeof n === 'number' && at !== null && at >= half && (turn === null || n < turn)) turn = n
  }
  return turn === null ? null : {turn}
}

/** The half mark on the session's clock: the turn whose start line arrived last before it. */
function markFromClock(task: TaskRun, timeout: number, input: WarningInput): {turn: number | null} | null {
  const timing = input.timing(task.taskId)
  if (timing === undefined || timing.endedAt !== null) return null
  const halfAt = timing.startedAt + (timeout * 1000) / 2 / input.timeScale
  if (input.now < halfAt) return null
  let turn: number | null = null
  for (const [n, at] of timing.turnStarts) if (at <= halfAt && (turn === null || n > turn)) turn = n
  const turnStart = turn === null ? timing.startedAt : timing.turnStarts.get(turn)!
  // the view must hold every record printed before that turn began
  if (input.viewAsOf < turnStart) return null
  return {turn}
}

/** GuardKit's `datetime.now().isoformat()`: local time without a zone; only differences matter here. */
function parseNaiveTime(text: string): number | null {
  const ms = Date.parse(/(?:[zZ]|[+-]\d\d:\d\d)$/.test(text) ? text : `${text}Z`)
  return Number.isNaN(ms) ? null : ms
}

function asObject(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null
}
