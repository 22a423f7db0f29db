import {pySlice, pyStrip} from '../logic/python/strings.js'
import type {Evidence} from '../model/evidence.js'
import type {ArtifactVersion, TaskRun, TurnRecord} from '../model/run-record.js'

/**
 * Read-only views of a task run's records that several finding families share. Nothing here
 * replays GuardKit: these are the values as recorded, with the evidence that carries them.
 */

export type Json = Readonly<Record<string, unknown>>

export function asObject(value: unknown): Json | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null
}

export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
}

export function hasKey(obj: Json | null, key: string): boolean {
  return obj !== null && Object.prototype.hasOwnProperty.call(obj, key)
}

/**
 * How many criteria the Coach verified on a turn, as recorded: the `Criteria Progress (Turn N): V/N` line (or the
 * count of `result == "verified"` in coach_turn_N.json), else the `Criteria: V verified, …` line. Both print the same
 * count of the same list (docs/guardkit-logic.md §8.6), so whichever survives in the capture is the turn's.
 */
export function verifiedOn(turn: TurnRecord): number | null {
  return turn.coach.criteriaMet?.value ?? turn.coach.verified?.value ?? null
}

/** The feedback the Player got after a turn, as fully as the records hold it. */
export interface FeedbackView {
  readonly turn: number
  readonly text: string
  readonly completeness: 'full' | 'truncated'
  /** `record`: the turn's own records (log, coach_feedback file); `task-file`: the task file's autobuild_state history. */
  readonly from: 'record' | 'task-file'
  readonly evidence: readonly Evidence[]
}

/**
 * Feedback per turn. The log prints only the first 80 code points; the task file's
 * `autobuild_state.turns[].feedback` holds full texts but may describe another run (docs/ingest.md),
 * so it is used only when every turn both hold agrees with the log's excerpt.
 */
export function feedbackByTurn(task: TaskRun): Map<number, FeedbackView> {
  const out = new Map<number, FeedbackView>()
  for (const t of task.turns) {
    const fb = t.coach.feedback
    if (fb) out.set(t.turn, {turn: t.turn, text: fb.text, completeness: fb.completeness, from: 'record', evidence: fb.evidence})
  }
  const history = taskFileFeedback(task)
  if (history.size === 0) return out
  let agreeing = 0
  for (const [turn, view] of out) {
    const full = history.get(turn)
    if (full === undefined) continue
    if (!sameStart(view.text, full.text)) return out
    agreeing++
  }
  if (agreeing === 0) return out
  const known = new Set(task.turns.map((t) => t.turn))
  for (const [turn, full] of history) {
    const view = out.get(turn)
    if (view?.completeness === 'full' || !known.has(turn)) continue
    out.set(turn, {...full, evidence: [...(view?.evidence ?? []), ...full.evidence]})
  }
  return out
}

function taskFileFeedback(task: TaskRun): Map<number, FeedbackView> {
  const out = new Map<number, FeedbackView>()
  const file = task.taskFile
  const state = asObject(file?.frontmatter['autobuild_state'])
  const turns = state?.['turns']
  if (!file || !Array.isArray(turns)) return out
  turns.forEach((raw, i) => {
    const entry = asObject(raw)
    const turn = entry?.['turn']
    const text = entry?.['feedback']
    if (typeof turn !== 'number' || typeof text !== 'string' || text === '') return
    out.set(turn, {turn, text, completeness: 'full', from: 'task-file', evidence: [{file: file.file, pointer: `/autobuild_state/turns/${i}/feedback`}]})
  })
  return out
}

/** The log's 80-code-point excerpt is the start of the full text, whitespace aside. */
function sameStart(excerpt: string, full: string): boolean {
  const squash = (s: string) => s.replace(/\s+/g, ' ').trim()
  const a = squash(excerpt)
  return squash(full).startsWith(a) || squash(pySlice(full, 0, 80)) === a
}

/** The kind of a feedback text: its first line without the bullet's trailing colon. */
export function feedbackCategory(text: string): string {
  const first = text.split('\n', 1)[0] ?? ''
  return pyStrip(pyStrip(first).replace(/:$/, ''))
}

export function lastTurn(task: TaskRun): number {
  const recorded = task.turnCount?.value ?? 0
  return Math.max(recorded, ...task.turns.map((t) => t.turn), 0)
}

export function turnOf(task: TaskRun, turn: number): TurnRecord | null {
  return task.turns.find((t) => t.turn === turn) ?? null
}

/** The acceptance criteria the Coach counted: the largest recorded total, else the criteria record. */
export function criteriaTotal(task: TaskRun): number | null {
  const totals = task.turns.map((t) => t.coach.criteriaTotal?.value).filter((v): v is number => typeof v === 'number')
  if (totals.length > 0) return Math.max(...totals)
  return task.criteria?.texts.length ?? null
}

/** player_turn_N.json as the Coach read it (the last version) and any earlier versions. */
export function playerReport(turn: TurnRecord): {final: ArtifactVersion | null; earlier: readonly ArtifactVersion[]} {
  const versions = turn.artifacts.playerReport
  return {final: versions[versions.length - 1] ?? null, earlier: versions.slice(0, -1)}
}

/**
 * task_work_results.json per turn. The file is overwritten each turn and ingest files every version
 * under the folder's last turn, oldest first; when there are as many versions as turns they are
 * taken as one per turn, otherwise only the final version is placed (on the last turn).
 */
export function taskWorkResultsByTurn(task: TaskRun): Map<number, ArtifactVersion> {
  const out = new Map<number, ArtifactVersion>()
  const versions = task.turns.flatMap((t) => t.artifacts.taskWorkResults)
  if (versions.length === 0) return out
  const turns = task.turns.map((t) => t.turn).sort((a, b) => a - b)
  if (versions.length === turns.length) turns.forEach((turn, i) => out.set(turn, versions[i]!))
  else out.set(turns[turns.length - 1]!, versions[versions.length - 1]!)
  return out
}

export function artifactEvidence(version: ArtifactVersion, pointer?: string): Evidence {
  return pointer === undefined ? {file: version.file} : {file: version.file, pointer}
}

/** completion_promises of a report, or null when the key is absent. */
export function promisesOf(json: Json | null): readonly unknown[] | null {
  if (!json || !hasKey(json, 'completion_promises')) return null
  const p = json['completion_promises']
  return Array.isArray(p) ? p : []
}

/** Recorded Coach decisions with the recorded criteria count (the legacy count fed to the stall detector). */
export function feedbackTurns(task: TaskRun): TurnRecord[] {
  return task.turns.filter((t) => t.coach.decision?.value === 'feedback')
}

/** A turn's timestamps as epoch milliseconds, when the console or the task file recorded them. */
export function turnTimes(task: TaskRun): Map<number, {start: number | null; end: number | null}> {
  const out = new Map<number, {start: number | null; end: number | null}>()
  for (const t of task.turns) out.set(t.turn, {start: parseTime(t.startedAt), end: parseTime(t.endedAt)})
  const state = asObject(task.taskFile?.frontmatter['autobuild_state'])
  const turns = state?.['turns']
  if (Array.isArray(turns)) {
    for (const raw of turns) {
      const entry = asObject(raw)
      const turn = entry?.['turn']
      const at = parseTime(typeof entry?.['timestamp'] === 'string' ? (entry['timestamp'] as string) : null)
      if (typeof turn !== 'number' || at === null) continue
      const have = out.get(turn) ?? {start: null, end: null}
      if (have.end === null) out.set(turn, {start: have.start, end: at})
    }
  }
  return out
}

/** ISO-like timestamps as opaque local times (no zone: compared only with each other). */
export function parseTime(s: string | null | undefined): number | null {
  if (!s) return null
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,6}))?/.exec(s)
  if (!m) return null
  const ms = m[7] ? Number(m[7].padEnd(6, '0').slice(0, 3)) : 0
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]), ms)
}

/**
 * The turns of the task that started after `turn`: a limit logged on `turn` (the feature's task timeout) that
 * more turns of the same task followed did not end its loop — GuardKit's feature orchestrator stops waiting
 * for the task, while the task's own loop runs on to an end of its own (docs/findings.md, "Recorded end").
 */
export function turnsAfter(task: TaskRun, turn: number | null): number[] {
  return turn === null ? [] : task.turns.filter((t) => t.turn > turn).map((t) => t.turn)
}

/** The feature's task timeout, when it ended the task: none of the task's turns came after it. */
export function endingFeatureTimeout(task: TaskRun): Extract<TaskRun['events'][number], {kind: 'feature-timeout'}> | undefined {
  const timeout = task.events.find((e): e is Extract<TaskRun['events'][number], {kind: 'feature-timeout'}> => e.kind === 'feature-timeout')
  return timeout === undefined || turnsAfter(task, timeout.turn).length > 0 ? undefined : timeout
}

/**
 * What the records say the Coach did with a turn: `judged` (a recorded approve or feedback decision), `failed`
 * (its own call errored: `Completed turn N: error - Coach failed`, the summary's `✗ error` row), `cancelled`
 * (`Cancellation detected … between Player and Coach`: it never ran) or `none` (no decision recorded). A finding
 * may say the Coach judged, rejected or saw a turn only when it is `judged`: an error is not a rejection, and a
 * turn no Coach validation ran for was judged by no one (docs/findings.md, "What the Coach did").
 */
export type CoachVerdict = {readonly kind: 'judged' | 'failed' | 'cancelled' | 'synthetic' | 'none'; readonly evidence: readonly Evidence[]}

/**
 * `synthetic`: the Coach's verdict emission failed (`Coach verdict-emission failed … Emitting synthetic feedback
 * decision`) and the feedback decision recorded for the turn is the one GuardKit emitted in its place — no Coach
 * judged that turn, whatever the summary's `feedback` row says.
 */
export function coachVerdictOn(task: TaskRun, turn: number): CoachVerdict {
  const record = turnOf(task, turn)
  const decision = record?.coach.decision ?? null
  const error = record?.coach.error ?? null
  if (decision !== null && decision.value === 'feedback' && error != null && /^verdict: /.test(error.value) && /synthetic feedback decision/i.test(error.value))
    return {kind: 'synthetic', evidence: [...error.evidence, ...decision.evidence]}
  if (decision !== null && decision.value !== 'error') return {kind: 'judged', evidence: decision.evidence}
  if (decision !== null) return {kind: 'failed', evidence: decision.evidence}
  const cancelled = task.events.find((e) => e.kind === 'cancelled' && e.turn === turn && e.where === 'between-player-and-coach')
  if (cancelled !== undefined) return {kind: 'cancelled', evidence: cancelled.evidence}
  return {kind: 'none', evidence: []}
}

/** "the Coach's own call ended in error on t1", "the task was cancelled before the Coach ran on t1", "no Coach decision is recorded for t1". */
export function noVerdictPhrase(kind: CoachVerdict['kind'], turns: string): string {
  if (kind === 'failed') return `the Coach's own call ended in error on ${turns}, so it neither approved nor rejected it`
  if (kind === 'cancelled') return `the task was cancelled between the Player and the Coach on ${turns}, so no Coach validation ran`
  if (kind === 'synthetic') return `the Coach produced no verdict on ${turns}: its verdict emission failed and GuardKit emitted a synthetic feedback decision in its place`
  return `no Coach decision is recorded for ${turns}`
}

/**
 * The Coach's `Task-work results not found at <path>` on a turn: it looked for the turn's results and found none, so
 * it did not read a report GuardKit built for it (a state recovery's) — whatever it decided, it decided without it.
 */
export function coachFoundNoResults(task: TaskRun, turn: number): {path: string | null; evidence: Evidence} | null {
  const found = (task.signals ?? []).flatMap((s) => {
    const m = s.turn === turn ? /Task-work results not found(?: at (\S+))?/.exec(s.text) : null
    return m === null ? [] : [{path: m[1] ?? null, evidence: s.evidence}]
  })
  return found.find((f) => f.path !== null) ?? found[0] ?? null
}

/** `…/worktrees/<name>/…` of a path: the worktree it is in, when it names one. */
export function worktreeOf(path: string): string | null {
  const m = /^(.*\/worktrees\/[^/]+)\//.exec(path)
  return m === null ? null : m[1]!
}
