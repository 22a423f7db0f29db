import type {Evidence} from '../../model/evidence.js'
import type {FindingCode} from '../../model/finding.js'
import type {TaskRun} from '../../model/run-record.js'
import type {SignalRule} from '../diagnosis/catalogue/rule.js'
import {FEEDBACK_LOGGER, isFindingCode, type ClassifiedSignal, type TaskSignals} from '../diagnosis/task-signals.js'
import {dedupeEvidence, draft, formatTurns, plural, uniqueSorted, type FamilyInput, type FindingDraft} from '../draft.js'
import {CODE_CLASSES} from '../diagnosis/code-classes.js'
import {stageIndex, type Stage} from '../diagnosis/stages.js'
import {formatMinutes} from './infrastructure.js'
import {coachFoundNoResults, coachVerdictOn, worktreeOf, lastTurn as lastTurnOf, noVerdictPhrase, parseTime, turnOf, turnsAfter, turnTimes} from '../record-facts.js'

/**
 * LOG_SIGNAL: the signals the catalogue classifies as a cause or a contributing cause, one finding
 * per rule and task run, quoting the line that shows it (docs/signals.md). A rule whose class a
 * finding of another family already explains (`coveredBy`) lends that finding its quoted lines
 * instead; a rule that `refines` a finding gives it its category on the turns they share.
 * Certain: the lines are in the log; what they mean is the rule's.
 */
export function detectSignalFindings(input: FamilyInput, fired: readonly FindingDraft[], signals: TaskSignals): {drafts: FindingDraft[]; fired: FindingDraft[]} {
  const groups = new Map<string, {rule: SignalRule; hits: ClassifiedSignal[]}>()
  for (const c of signals.classified) {
    if (c.rule.role === 'context' || !findingsPresent(c, fired)) continue
    const g = groups.get(c.rule.id)
    if (g === undefined) groups.set(c.rule.id, {rule: c.rule, hits: [c]})
    else g.hits.push(c)
  }
  const lent = new Map<string, ClassifiedSignal[]>()
  const refined = new Map<string, SignalRule>()
  const drafts: FindingDraft[] = []
  for (const {rule, hits} of groups.values()) {
    const turns = uniqueSorted(hits.map((h) => h.signal.turn).filter((t): t is number => t !== null))
    for (const code of rule.refines ?? []) {
      // a family that already chose another category from its records keeps it
      const target = fired.find((d) => d.code === code && d.category === CODE_CLASSES[code].category && (turns.length === 0 || d.turns.some((t) => turns.includes(t))))
      if (target !== undefined && !refined.has(target.key)) refined.set(target.key, rule)
    }
    if (loopWentOn(input.task, rule, turns)) continue
    const cover = fired.find((d) => rule.coveredBy?.includes(d.code))
    if (cover !== undefined) {
      lent.set(cover.key, [...(lent.get(cover.key) ?? []), ...hits])
      continue
    }
    // the Coach's feedback is read from the turn records, never capped: only ingest's own signal lines can be missing
    const capped = hits.some((h) => h.signal.logger !== FEEDBACK_LOGGER) ? signals.dropped : 0
    drafts.push(signalDraft(input, rule, hits, turns, capped, refinedNone(rule, turns, fired)))
  }
  const updated = fired.map((d) => {
    const rule = refined.get(d.key)
    const extra = mostTelling(lent.get(d.key) ?? [], 3)
    if (rule === undefined && extra.length === 0) return d
    return {
      ...d,
      ...(rule === undefined ? {} : {category: rule.category, detail: {...(d.detail ?? {}), refinedBy: rule.id}}),
      evidence: dedupeEvidence([...extra, ...d.evidence]),
    }
  })
  return {drafts, fired: updated}
}

/**
 * A rule's finding codes (rule ids were checked when classifying): one of its `onlyWith` codes fired on the
 * signal's turn, and none of its `notWith` codes did — a finding that reads the same turn more closely (promises
 * lost across turns, not an agent that never wrote any).
 */
function findingsPresent(c: ClassifiedSignal, fired: readonly FindingDraft[]): boolean {
  const onTurn = (codes: readonly string[]) =>
    fired.some((d) => codes.includes(d.code) && (c.signal.turn === null || d.turns.length === 0 || d.turns.includes(c.signal.turn)))
  const needed = (c.rule.onlyWith ?? []).filter(isFindingCode)
  const barred = (c.rule.notWith ?? []).filter(isFindingCode)
  return (needed.length === 0 || onTurn(needed)) && (barred.length === 0 || !onTurn(barred))
}

function signalDraft(input: FamilyInput, rule: SignalRule, hits: readonly ClassifiedSignal[], turns: readonly number[], dropped: number, unrefined: readonly FindingCode[] = []): FindingDraft {
  const ranOn = stageOf(rule, hits) === 'outer-limits' && rule.role !== 'context' ? turnsAfter(input.task, turns[turns.length - 1] ?? null) : []
  if (ranOn.length > 0) return limitRanOn(input, rule, hits, turns, ranOn)
  const best = telling(hits)
  const quote = best.evidence.text ?? best.text
  const count = hits.reduce((n, h) => n + 1 + h.signal.repeats, 0)
  const repeat = rule.role === 'cause' ? repetition(input.task, hits, turns, stageOf(rule, hits)) : null
  const times = linesSaid(input, count, turns, dropped)
  const searched = withoutUnrecordedSearch(input.task, withoutAbsentCheck(rule.means, unrefined), rule.action, turns)
  const recovered = withRecordedRecovery(input.task, searched.means, turns)
  const unread = withoutUnreadReport(input.task, recovered.means, turns)
  const verdict = withoutUnrecordedVerdict(input.task, unread.means, turns)
  const judged = {means: verdict.means, evidence: [...recovered.evidence, ...unread.evidence, ...verdict.evidence]}
  const message = `${capitalise(rule.summary)}: "${quote}"${times}.${repeat === null ? '' : ` ${repeat.sentence}`} ${judged.means}`
  return draft(input, {
    code: 'LOG_SIGNAL',
    category: rule.category,
    severity: rule.role === 'cause' ? 'high' : 'medium',
    turns,
    message,
    evidence: [best.evidence, ...sample(hits, 6), ...judged.evidence],
    remediation: unrefined.length === 0 ? searched.action : `Nothing on its own: no ${unrefined.map(checkName).join(' or ')} is recorded on ${formatTurns(turns)}; read what the Coach decided on ${turns.length === 1 ? 'it' : 'them'}.`,
    fixedIn: null,
    source: {function: `signal rule ${rule.id}`, spec: `docs/signals.md (${rule.origin.file}:${rule.origin.line})`},
    keySuffix: rule.id,
    ...(rule.deduction === undefined ? {} : {deduction: rule.deduction}),
    detail: {
      ruleId: rule.id,
      ruleOrder: input.catalogue?.indexOf(rule.id) ?? 0,
      stage: stageOf(rule, hits),
      role: rule.role,
      summary: rule.summary,
      lines: count,
      ...(dropped > 0 ? {signalsNotKept: dropped} : {}),
      repeated: repeat === null ? null : {turns: repeat.turns, withinSeconds: repeat.withinSeconds, stopAt: repeat.stopAt},
    },
  })
}

/**
 * A loop-control signal (the pollution check counting failing checkpoints) on turns after each of which the loop went
 * on to the next turn, with no rollback and no stop recorded on it: the check neither rolled back nor ended the loop,
 * so it cost no turn and is no cause — the turns were lost to what failed them (docs/guardkit-logic.md §8.1: the rule
 * acts by a rollback or by ending the loop). It makes no finding; its lines stay in the signal table.
 */
function loopWentOn(task: TaskRun, rule: SignalRule, turns: readonly number[]): boolean {
  if (rule.stage !== 'loop-control' || turns.length === 0) return false
  const acted = (t: number) =>
    task.events.some((e) => e.kind === 'rollback' && e.turn === t) || (task.stall !== null && (task.stall.turn === null || task.stall.turn === t))
  // the loop went on past t, or t was the turn the Coach approved and the task ended approved on it
  const passed = (t: number) => turnsAfter(task, t).length > 0 || (task.outcome?.value === 'approved' && coachVerdictOn(task, t).kind === 'judged' && lastTurnOf(task) === t)
  return turns.every((t) => passed(t) && !acted(t))
}

/**
 * A rule's meaning that says the Coach searched for the task's tests and found none ("Finding no test file of the task,
 * the Coach ran every test under tests/"), and its advice to name the tests so that search finds them: said only when
 * a record of the search shows on the signal's turns (`No task-specific tests found …`). A run whose Coach ran
 * `pytest tests/` with no such record may predate that search (docs/guardkit-logic.md §6.4), so the search is not
 * claimed and naming the tests for it is not advised.
 */
export function withoutUnrecordedSearch(task: TaskRun, means: string, action: string, turns: readonly number[]): {means: string; action: string} {
  if (!SEARCH_CLAIM.test(means) && !SEARCH_ADVICE.test(action)) return {means, action}
  const searched = task.turns.some((t) => (turns.length === 0 || turns.includes(t.turn)) && t.coach.independentTests?.value.skipped === true) ||
    (task.signals ?? []).some((s) => (turns.length === 0 || (s.turn !== null && turns.includes(s.turn))) && /No task-specific tests found/i.test(s.text))
  if (searched) return {means, action}
  const cutMeans = means.replace(SEARCH_CLAIM, (_m, first: string) => first.toUpperCase())
  const cutAction = action.replace(SEARCH_ADVICE, '').replace(/^\s*or\s+/, '')
  return {means: cutMeans, action: cutAction === action ? action : capitalise(cutAction.trim())}
}

/** "Finding no test file of the task, the Coach …": a search said to have happened. */
const SEARCH_CLAIM = /^Finding no test file of the task, (\w)/

/** "Name the task's tests so the Coach finds them (…), " — advice that assumes that search. */
const SEARCH_ADVICE = /Name the task's tests so the (?:Coach|glob) finds them \([^)]*\),?\s*/

/**
 * The findings a rule `refines` (the check its meaning is about: a zero-test rejection) that fired on none of its
 * signal's turns. Its meaning then describes a check that did not act on those turns — the Coach approved them, or
 * rejected them on something else — so the clause that says what that check does is not said, nor its advice
 * (docs/findings.md, "What the Coach did").
 */
function refinedNone(rule: SignalRule, turns: readonly number[], fired: readonly FindingDraft[]): FindingCode[] {
  if (turns.length === 0) return []
  return (rule.refines ?? []).filter((code) => CHECK_NAMES[code] !== undefined && !fired.some((d) => d.code === code && d.turns.some((t) => turns.includes(t))))
}

/** The findings that are a check's rejection, which a rule's meaning may say acts on its turns. */
const CHECK_NAMES: Partial<Record<FindingCode, string>> = {ZERO_TEST_ANOMALY: 'zero-test rejection'}

function checkName(code: FindingCode): string {
  return CHECK_NAMES[code]!
}

/** The clause of a meaning about the check (`; with a blocking zero-test check that rejects …`), cut when that check did not act. */
function withoutAbsentCheck(means: string, unrefined: readonly FindingCode[]): string {
  if (!unrefined.includes('ZERO_TEST_ANOMALY')) return means
  return means.replace(/;[^;.]*\bzero-test check\b[^.]*\./g, '.')
}

/** A clause of a rule's meaning that says the Coach judged, rejected, approved or saw the turn, or reached a verdict on it. */
const COACH_VERDICT_CLAIM = /\bthe Coach (?:judged|rejected|approved|saw)\b|\bverdict path\b/

/**
 * A rule's meaning says what the Coach usually does after its signal ("so the Coach rejected the turn", "the Coach
 * judged the turn without its result"); on turns where the records show no Coach verdict — its own call ended in
 * error, the task was cancelled before it ran, no decision was logged — that clause would state a premise the records
 * contradict. It is cut (the sentence up to the clause stays, a sentence that is only the claim goes, "the report the
 * Coach judged" becomes "the report for the Coach"), and what the records show is said instead, citing them
 * (docs/findings.md, "What the Coach did").
 */
export function withoutUnrecordedVerdict(task: TaskRun, means: string, turns: readonly number[]): {means: string; evidence: Evidence[]} {
  if (turns.length === 0 || !COACH_VERDICT_CLAIM.test(means)) return {means, evidence: []}
  const verdicts = turns.map((t) => coachVerdictOn(task, t))
  if (verdicts.some((v) => v.kind === 'judged')) return {means, evidence: []}
  const sentences = means.split(/(?<=\.)\s+(?=[A-Z])/)
  const kept = sentences.flatMap((sentence) => {
    if (!COACH_VERDICT_CLAIM.test(sentence)) return [sentence]
    const renamed = sentence.replace(/\bthe report the Coach (?:judged|saw)\b/g, 'the report for the Coach')
    if (!COACH_VERDICT_CLAIM.test(renamed)) return [renamed]
    const at = renamed.search(COACH_VERDICT_CLAIM)
    const cut = Math.max(renamed.lastIndexOf(';', at), renamed.lastIndexOf(', so ', at))
    return cut > 0 ? [`${renamed.slice(0, cut).trimEnd()}.`] : []
  })
  const kinds = [...new Set(verdicts.map((v) => v.kind))]
  const said = kinds.length === 1 ? noVerdictPhrase(kinds[0]!, formatTurns(turns)) : `no Coach verdict is recorded for ${formatTurns(turns)}`
  return {means: [...kept, `${capitalise(said)}.`].join(' '), evidence: verdicts.flatMap((v) => v.evidence)}
}

/** A meaning that says GuardKit recovered the turn's state, or built its report, from git (the session having left no report). */
const FROM_GIT_CLAIM = /\bthe session ended without its report and GuardKit recovered state from git\b|\b(?:recovered state|built (?:a|the) report(?: the Coach judged)?) from git(?: detection)?\b/

/**
 * A rule's meaning says the session left no report and GuardKit recovered state from git; each turn's
 * `State recovery succeeded via <method>` says how it recovered. When some turns recovered otherwise (`via
 * player_report`: the Player's report was there and was used) or show no recovery, the claim is said per turn from
 * those records instead of for all the signal's turns (docs/findings.md, "What the Coach did").
 */
export function withRecordedRecovery(task: TaskRun, means: string, turns: readonly number[]): {means: string; evidence: Evidence[]} {
  if (turns.length === 0 || !FROM_GIT_CLAIM.test(means)) return {means, evidence: []}
  const methods = turns.map((t) => ({turn: t, rec: turnOf(task, t)?.stateRecovery ?? null}))
  if (methods.every((m) => m.rec !== null && /^git/.test(m.rec.value.method ?? ''))) return {means, evidence: []}
  const groups = new Map<string, number[]>()
  for (const m of methods) {
    const how = m.rec === null ? 'none' : m.rec.value.method ?? 'unnamed'
    groups.set(how, [...(groups.get(how) ?? []), m.turn])
  }
  const parts = [...groups].map(([how, ts]) =>
    how === 'none'
      ? `no state recovery is recorded on ${formatTurns(ts)}`
      : how === 'unnamed'
        ? `state recovery is recorded without its method on ${formatTurns(ts)}`
        : how === 'player_report'
          ? `state recovery went via player_report on ${formatTurns(ts)}, which used the Player's report`
          : `state recovery went via ${how} on ${formatTurns(ts)}`,
  )
  const said = `GuardKit's records differ by turn: ${parts.join('; ')}`
  const cut = means.replace(/,? the session ended without its report and GuardKit recovered state from git\b/, '').replace(/,? so GuardKit (?:recovered state|built a report) from git\b[^;.]*/, '')
  const perTurn = parts.join('; ')
  const rewritten = cut === means
    ? means.replace(/\bfrom git(?: detection)?\b/, `from what its state recovery gave (${perTurn})`)
    : cut.replace(/[:;,]\s*\./g, '.').replace(/\.?\s*$/, `. ${said}.`)
  return {means: rewritten.replace(/\.\./g, '.'), evidence: methods.flatMap((m) => m.rec?.evidence ?? [])}
}

/** A clause that says the Coach judged or saw the report GuardKit built for a turn. */
const REPORT_JUDGED_CLAIM = /,? and the Coach (?:judged|saw) (?:that|it)\b|\bthe report the Coach (?:judged|saw)\b/

/**
 * A rule's meaning says the Coach judged the report GuardKit built ("built a report from git and the Coach judged
 * that"); on turns where the Coach logged `Task-work results not found at <path>` it found no report where it looked,
 * so it did not judge that one. On such turns the clause is cut and the Coach's own line is quoted instead.
 */
export function withoutUnreadReport(task: TaskRun, means: string, turns: readonly number[]): {means: string; evidence: Evidence[]} {
  if (turns.length === 0 || !REPORT_JUDGED_CLAIM.test(means)) return {means, evidence: []}
  const missing = turns.map((t) => coachFoundNoResults(task, t))
  if (missing.some((m) => m === null)) return {means, evidence: []}
  const first = missing[0]!
  const cut = means.replace(/,? and the Coach (?:judged|saw) (?:that|it)\b/g, '').replace(/\bthe report the Coach (?:judged|saw)\b/g, 'the report for the Coach')
  const looked = first.path === null ? '"Task-work results not found"' : `"Task-work results not found at ${first.path}"`
  const reason = turnOf(task, turns[0]!)?.stateRecovery?.value.reason ?? ''
  const theirs = /\S*\/worktrees\/\S+/.exec(reason)?.[0] ?? null
  const apart = theirs !== null && first.path !== null && worktreeOf(theirs) !== null && worktreeOf(first.path) !== null && worktreeOf(theirs) !== worktreeOf(first.path)
    ? ` The recovery's record names a path in another worktree, ${worktreeOf(theirs)} (${theirs}), than the one the Coach looked in, ${worktreeOf(first.path)}.`
    : ''
  return {means: `${cut} The Coach found no report where it looked on ${formatTurns(turns)}: it logged ${looked}.${apart}`, evidence: missing.map((m) => m!.evidence)}
}

/**
 * "(N lines on t1–t5)". When ingest did not keep every signal of the task (its per-task and per-logger caps,
 * docs/ingest.md "Signals"), the lines counted are only those kept: the count and the turns are said to be of
 * the lines kept, with how many were not, and — when the task ran turns past the last one shown — that those
 * turns may hold it too. Never a range or a count as if complete when the records it would come from were not kept.
 */
function linesSaid(input: FamilyInput, count: number, turns: readonly number[], dropped: number): string {
  const where = turns.length === 0 ? '' : ` on ${formatTurns(turns)}`
  if (dropped === 0) return count > 1 ? ` (${plural(count, 'line')}${where})` : where
  const later = turnsAfter(input.task, turns[turns.length - 1] ?? null)
  const unseen = later.length === 0 ? '' : `, so ${formatTurns(later)} may show it too`
  return ` (${plural(count, 'line')} of those kept${where}; ingest did not keep ${plural(dropped, 'more signal line')} of this task${unseen})`
}

/**
 * A limit outside the loop (the feature's task timeout) that more turns of the task followed: it did not end the
 * task, whatever its rule says a limit does — GuardKit's feature orchestrator stopped waiting, the task's loop ran
 * on to an end of its own. Said as context, with the turns that came after it; never a cause.
 */
function limitRanOn(input: FamilyInput, rule: SignalRule, hits: readonly ClassifiedSignal[], turns: readonly number[], ranOn: readonly number[]): FindingDraft {
  const best = telling(hits)
  const quote = best.evidence.text ?? best.text
  const end = input.task.outcome === null ? 'its records end' : `it ended (${input.task.outcome.value})`
  return draft(input, {
    code: 'LOG_SIGNAL',
    category: rule.category,
    severity: 'low',
    turns,
    message: `A limit outside the loop was logged on ${formatTurns(turns)}: "${quote}". It did not end the task: the task's loop ran on through ${formatTurns(ranOn)}, and ${end} after turn ${ranOn[ranOn.length - 1]}.`,
    evidence: [best.evidence, ...sample(hits, 6)],
    remediation: '',
    fixedIn: null,
    source: {function: `signal rule ${rule.id}`, spec: `docs/signals.md (${rule.origin.file}:${rule.origin.line})`},
    keySuffix: rule.id,
    detail: {
      ruleId: rule.id,
      ruleOrder: input.catalogue?.indexOf(rule.id) ?? 0,
      stage: stageOf(rule, hits),
      role: 'context',
      summary: 'a limit outside the loop was logged, but the task ran on after it',
      lines: hits.reduce((n, h) => n + 1 + h.signal.repeats, 0),
      ranOn,
      repeated: null,
    },
  })
}

/**
 * "The same error on every one of N turns, each within X s": no change by the Player can fix an
 * error that comes back unchanged before the Player's work is even looked at, and a detector keyed
 * on it would have stopped at its first repeat.
 */
function repetition(task: TaskRun, hits: readonly ClassifiedSignal[], turns: readonly number[], stage: Stage): {sentence: string; turns: number; withinSeconds: number | null; stopAt: number} | null {
  const all = task.turns.map((t) => t.turn)
  // a task the Coach approved on some turn did get past the error: "no change could have fixed it" and "a detector would
  // have stopped it" are never said of it (nor of a turn the records show succeeded)
  if (task.outcome?.value === 'approved' || task.turns.some((t) => t.coach.decision?.value === 'approve')) return null
  if (turns.length < 2 || all.length < 2 || !all.every((t) => turns.includes(t))) return null
  // the same error: one line (task ids, turns, paths and numbers aside) that shows on every turn, not the rule matching another error on each
  const byTurn = all.map((t) => new Set(hits.filter((h) => h.signal.turn === t).map((h) => sameErrorKey(h.signal.evidence.text ?? h.signal.text))))
  if (![...byTurn[0]!].some((text) => byTurn.every((set) => set.has(text)))) return null
  const times = turnTimes(task)
  const spans = all.map((t) => {
    const x = times.get(t)
    const end = x?.end ?? hits.filter((h) => h.signal.turn === t).map((h) => stampOf(h.signal.text)).find((v) => v !== null) ?? null
    return x && x.start !== null && end !== null && end >= x.start ? (end - x.start) / 1000 : null
  })
  const within = spans.every((s): s is number => s !== null) ? Math.max(...spans) : null
  const each = within === null ? '' : `, each within ${formatMinutes(Math.max(within, 1) / 60)} of its turn's start`
  const stopAt = turns[1]!
  // only an error outside the Player's reach (set-up, the model call, GuardKit's hand-over, the Coach's own) is one no change by
  // the Player could fix: the Player's own session and report (its turn limit, its results) are what it changes, and a
  // repeated result alone does not show nothing could
  const unfixable = OUTSIDE_PLAYER.has(stage) ? ': no change by the Player could have fixed it, and' : ';'
  return {
    sentence: `The same error came back on every one of the ${all.length} turns${each}${unfixable} a detector keyed on this error would have stopped the task at turn ${stopAt}, its first repeat.`,
    turns: all.length,
    withinSeconds: within === null ? null : Math.ceil(within),
    stopAt,
  }
}

/** Stages whose errors the Player's work does not reach (docs/root-causes.md has the stages). */
const OUTSIDE_PLAYER: ReadonlySet<Stage> = new Set<Stage>(['setup', 'model-call', 'pipeline', 'coach'])

/** Said by or for the Coach (its model call, its specialists, its own test run), not the Player. */
const COACH_SIDE = /\bcoach|run_specialist|specialist|Phase-A gather/i

/**
 * The stage of a rule's signals on this task: a model-call or Player-side failure that happened in the
 * Coach's part of the turn (its model call, its specialists) belongs to the Coach's stage, after
 * whatever the Player did before it.
 */
function stageOf(rule: SignalRule, hits: readonly ClassifiedSignal[]): Stage {
  if (stageIndex(rule.stage) >= stageIndex('coach')) return rule.stage
  return hits.every((h) => COACH_SIDE.test(h.signal.text)) ? 'coach' : rule.stage
}

/**
 * The line to quote: on the first turn it shows, the one that says the most — an ERROR record or a
 * failure line before a WARNING, an INFO record or the feedback, then the longer one.
 */
function telling(hits: readonly ClassifiedSignal[]): ClassifiedSignal['signal'] {
  const firstTurn = hits[0]!.signal.turn
  const rank = (s: ClassifiedSignal['signal']) => (s.level === 'ERROR' || s.level === 'CRITICAL' ? 0 : s.source === 'console' ? 1 : s.level === 'WARNING' ? 2 : 3)
  return hits
    .map((h) => h.signal)
    .filter((s) => s.turn === firstTurn)
    .reduce((a, b) => (rank(b) < rank(a) || (rank(b) === rank(a) && (b.evidence.text ?? b.text).length > (a.evidence.text ?? a.text).length) ? b : a))
}

/** The lines lent to a finding of another family, the most telling first (they are what its `why` quotes). */
function mostTelling(hits: readonly ClassifiedSignal[], n: number): Evidence[] {
  const rank = (s: ClassifiedSignal['signal']) => (s.level === 'ERROR' || s.level === 'CRITICAL' ? 0 : s.source === 'console' ? 1 : s.level === 'WARNING' ? 2 : 3)
  return [...hits]
    .map((h) => h.signal)
    .sort((a, b) => rank(a) - rank(b) || (b.evidence.text ?? b.text).length - (a.evidence.text ?? a.text).length || (a.evidence.line ?? 0) - (b.evidence.line ?? 0))
    .slice(0, n)
    .map((s) => s.evidence)
}

/** The `[2026-…Z]` timestamp a console line carries, as parseTime reads it. */
function stampOf(text: string | undefined): number | null {
  const m = text === undefined ? null : /\[(\d{4}-\d\d-\d\dT[\d:.]+Z?)\]/.exec(text)
  return m === null ? null : parseTime(m[1]!)
}

/** The same error whatever the turn, task or path it names. */
/**
 * A line with what changes from turn to turn taken out (task ids, turn numbers, paths, numbers, runs of spaces): two
 * lines with the same key are the same error (also player-error-not-in-log.ts, for a Player failure's shape).
 */
export function sameErrorKey(text: string): string {
  return text.replace(/TASK-[\w-]+/g, 'TASK').replace(/\bturn \d+/gi, 'turn').replace(/\/\S+/g, '/…').replace(/\d+(?:\.\d+)?/g, '0').replace(/\s+/g, ' ').trim()
}

/** The first line of each turn, then the rest, at most `n`: the lines a reader should see. */
function sample(hits: readonly ClassifiedSignal[], n: number): Evidence[] {
  const seen = new Set<number | null>()
  const firsts: Evidence[] = []
  const rest: Evidence[] = []
  for (const h of hits) {
    if (seen.has(h.signal.turn)) rest.push(h.signal.evidence)
    else {
      seen.add(h.signal.turn)
      firsts.push(h.signal.evidence)
    }
  }
  return [...firsts, ...rest].slice(0, n)
}

function capitalise(s: string): string {
  return s.length === 0 ? s : `${s[0]!.toUpperCase()}${s.slice(1)}`
}
