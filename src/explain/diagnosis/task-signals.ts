import {pyHead} from '../../logic/python/strings.js'
import {attemptOf} from '../../model/attempt-of.js'
import type {RunRecord, TaskRun} from '../../model/run-record.js'
import {CONSOLE_LOGGER, type Signal} from '../../model/signal.js'
import {feedbackByTurn} from '../record-facts.js'
import {dependsOnTurn, guardkitAllows, type Catalogue, type GuardkitChanges, type SignalRule} from './catalogue/rule.js'
import type {Stage} from './stages.js'

/** The logger of the Coach's feedback read as signals (one per bullet). */
export const FEEDBACK_LOGGER = '(feedback)'

export interface ClassifiedSignal {
  readonly signal: Signal
  readonly rule: SignalRule
}

/** A task run's signals, classified by the catalogue: what a rule explains and what no rule does. */
export interface TaskSignals {
  readonly classified: readonly ClassifiedSignal[]
  readonly unclassified: readonly Signal[]
  /** Signals ingest counted but did not keep (per-task caps). */
  readonly dropped: number
}

/**
 * Everything the diagnosis reads as signals for one task run: the signals ingest attributed to it,
 * the set-up signals of its AutoBuild run that no task was named for (a feature whose task files
 * were not copied fails every task), and the Coach's feedback of each turn, one signal per bullet.
 */
export function taskSignals(run: RunRecord, task: TaskRun, catalogue: Catalogue, guardkit: GuardkitChanges = UNKNOWN_GUARDKIT): TaskSignals {
  const attempt = attemptOf(run, task.attempt)
  const own = [...(task.signals ?? []), ...feedbackSignals(task)]
  const rules = classifyAll(own, catalogue, guardkit)
  const classified: ClassifiedSignal[] = []
  const unclassified: Signal[] = []
  const ran = testsRan(task)
  const asRun = (rule: SignalRule): SignalRule => (rule.onlyWhereTestsRan === true && !ran && rule.role !== 'context' ? {...rule, role: 'context'} : rule)
  own.forEach((signal, i) => {
    const rule = rules[i] ?? null
    if (rule === null) unclassified.push(signal)
    else classified.push({signal, rule: asRun(rule)})
  })
  for (const signal of attempt?.signals ?? []) {
    // a run-level signal has no turn: a rule that depends on its turn's other signals cannot apply
    const rule = catalogue.matching(signal).find((r) => !dependsOnTurn(r) && guardkitAllows(r, guardkit)) ?? null
    if (rule !== null && rule.stage === 'setup' && asRun(rule).role !== 'context') classified.push({signal: {...signal, turn: null}, rule})
  }
  return {classified, unclassified, dropped: task.signalsDropped ?? 0}
}

/**
 * Some turn of the task ran tests: the Coach's own run (not skipped), or tests the Player's results reported. A
 * failed dependency install cannot have failed a test where none ran.
 */
function testsRan(task: TaskRun): boolean {
  return task.turns.some((t) => {
    const own = t.coach.independentTests?.value
    return (own != null && own.skipped !== true) || (t.player.testsReported?.value.count ?? 0) > 0
  })
}

/**
 * A record logged during state recovery (ingest marks it: it names no task and sits between `Attempting state recovery`
 * and the loop's next step) is the recovery's, not the Coach's: a rule that reads it as the Coach's step does not apply
 * (the recovery's test detection times out with the same words as the Coach's own test run).
 */
const COACH_STAGES: ReadonlySet<Stage> = new Set<Stage>(['coach', 'criteria', 'coach-tests', 'gates'])

/** A run whose GuardKit's era is not known: no logic change is known to be in it. */
export const UNKNOWN_GUARDKIT: GuardkitChanges = () => null

/**
 * The rule of each signal: the first that matches, unless its `onlyWith` rules have no signal in the
 * same turn, or one of its `notWith` rules has, or the run's GuardKit fails its `guardkit` condition (then the next
 * that matches). A line that repeats, in the same turn, the text of a signal
 * a more specific rule classified (a traceback's last line after the error record that reported it)
 * takes that signal's rule: it is the same error seen twice.
 */
export function classifyAll(signals: readonly Signal[], catalogue: Catalogue, guardkit: GuardkitChanges = UNKNOWN_GUARDKIT): (SignalRule | null)[] {
  const candidates = signals.map((s) => catalogue.matching(s).filter((r) => guardkitAllows(r, guardkit) && !(s.during === 'state-recovery' && COACH_STAGES.has(r.stage))))
  // the `guardkit` condition is settled above; the others depend on the turn's other signals
  const base = candidates.map((c) => c.find((r) => !dependsOnTurn(r)) ?? null)
  /** Per turn, each base rule with the first line it was seen on. */
  const inTurn = new Map<string, Map<string, number>>()
  signals.forEach((s, i) => {
    const r = base[i]
    if (r === null || r === undefined) return
    const key = String(s.turn)
    const seen = inTurn.get(key) ?? new Map<string, number>()
    const line = s.evidence.line ?? 0
    if (!seen.has(r.id) || seen.get(r.id)! > line) seen.set(r.id, line)
    inTurn.set(key, seen)
  })
  const choose = (s: Signal, i: number) => {
    const present = inTurn.get(String(s.turn))
    const line = s.evidence.line ?? 0
    return candidates[i]!.find((r) => {
      const rules = (r.onlyWith ?? []).filter((id) => !isFindingCode(id))
      const before = r.onlyAfter ?? []
      return (rules.length === 0 || rules.some((id) => present?.has(id) === true)) &&
        (r.notWith ?? []).every((id) => isFindingCode(id) || present?.has(id) !== true) &&
        (before.length === 0 || before.some((id) => present !== undefined && present.has(id) && present.get(id)! < line)) &&
        (r.reachesLimit !== true || reachesLimit(r, i))
    }) ?? null
  }
  let chosen = signals.map(choose)
  // a condition may name a conditional rule (a gate left unmeasured after a session that used up its
  // turns): once the first round has chosen them, they count as present too, one level deep
  signals.forEach((s, i) => {
    const r = chosen[i]
    if (r == null || r === base[i]) return
    const seen = inTurn.get(String(s.turn)) ?? new Map<string, number>()
    const line = s.evidence.line ?? 0
    if (!seen.has(r.id) || seen.get(r.id)! > line) seen.set(r.id, line)
    inTurn.set(String(s.turn), seen)
  })
  chosen = signals.map(choose)
  /** The signal's number equals the one of the latest earlier signal of an `onlyAfter` rule in its turn (a count above a limit does not show it was stopped there). */
  function reachesLimit(rule: SignalRule, i: number): boolean {
    const s = signals[i]!
    const line = s.evidence.line ?? 0
    const n = catalogue.numberOf(rule, s)
    if (n === null) return false
    let limit: number | null = null
    let at = -1
    signals.forEach((o, j) => {
      const r = base[j]
      const l = o.evidence.line ?? 0
      if (r == null || o.turn !== s.turn || l >= line || l < at || !(rule.onlyAfter ?? []).includes(r.id)) return
      const m = catalogue.numberOf(r, o)
      if (m !== null) {
        limit = m
        at = l
      }
    })
    return limit !== null && n === limit
  }
  return signals.map((s, i) => {
    const mine = chosen[i] ?? null
    const core = s.logger === CONSOLE_LOGGER ? coreOf(s.text) : null
    if (core === null) return mine
    let best = mine
    signals.forEach((other, j) => {
      const theirs = chosen[j] ?? null
      if (j === i || theirs === null || theirs.role === 'context' || other.turn !== s.turn) return
      if (best !== null && catalogue.indexOf(theirs.id) >= catalogue.indexOf(best.id)) return
      if (other.text.includes(core)) best = theirs
    })
    return best
  })
}

/** `onlyWith` and `notWith` name rules (lower case) or finding codes (upper case): codes are checked once the findings exist. */
export function isFindingCode(id: string): boolean {
  return /^[A-Z][A-Z0-9_]*$/.test(id)
}

/** The message of an exception line without its class (`TypeError: "…"` → `…`), when long enough to be telling. */
function coreOf(text: string): string | null {
  const m = /^[A-Za-z_][\w.]*(?:Error|Exception|Warning|Interrupt|Exit):\s*["']?(.{25,})/.exec(text)
  return m === null ? null : m[1]!.slice(0, 60)
}

/** The feedback of each turn as signals: one per `- ` bullet (its indented lines joined), else the first line. */
export function feedbackSignals(task: TaskRun): Signal[] {
  const out: Signal[] = []
  for (const fb of feedbackByTurn(task).values()) {
    const evidence = fb.evidence[0]
    if (evidence === undefined) continue
    for (const item of bullets(fb.text)) {
      out.push({source: 'record', level: null, logger: FEEDBACK_LOGGER, text: item, turn: fb.turn, evidence: {...evidence, text: item}, repeats: 0})
    }
  }
  return out
}

function bullets(text: string): string[] {
  const items: string[] = []
  let current: string[] | null = null
  for (const line of text.split('\n')) {
    if (/^\s*- /.test(line) || current === null) {
      if (current !== null) items.push(current.join(' '))
      current = [line.trim()]
    } else if (line.trim() !== '') current.push(line.trim())
  }
  if (current !== null) items.push(current.join(' '))
  return items.filter((i) => i !== '').map((i) => pyHead(i, 400))
}
