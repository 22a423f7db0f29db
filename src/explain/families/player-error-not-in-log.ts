import type {Evidence} from '../../model/evidence.js'
import type {TaskEvent, TaskRun, TurnRecord} from '../../model/run-record.js'
import {classOf, turnRoot} from '../diagnosis/choose-primary.js'
import {builtinCatalogue} from '../diagnosis/catalogue/builtin.js'
import type {Catalogue} from '../diagnosis/catalogue/rule.js'
import {stageIndex, type Stage} from '../diagnosis/stages.js'
import {FEEDBACK_LOGGER, type TaskSignals} from '../diagnosis/task-signals.js'
import {dedupeEvidence, draft, formatTurns, uniqueSorted, type FamilyInput, type FindingDraft} from '../draft.js'
import {sameErrorKey} from './signals.js'

/**
 * A Player that failed on turns whose own records hold no line of its error: all the log keeps of
 * them is GuardKit's display of the failure (the summary table's `Player failed - attempting state
 * recovery`), most often because the capture was cut (`... [N characters truncated] ...`,
 * docs/ingest.md "Signals"). What the diagnosis may say (docs/root-causes.md, "Truth rules"):
 *
 * - when another turn failed the same way — the same display, the same Coach feedback after it — and
 *   its error line is in the log, that error is inferred for the cut turns: the finding that explains
 *   it is extended to them, `inferred`, with the deduction;
 * - otherwise PLAYER_ERROR_NOT_IN_LOG: what is known (the stage, the repetition, that the error is not
 *   in the log and why) and the failure classes that fail a Player this way; its category stays
 *   `unknown`, since no record decides between them.
 */
export function detectPlayerErrorsNotInLog(input: FamilyInput, drafts: readonly FindingDraft[], signals: TaskSignals): FindingDraft[] {
  const task = input.task
  // signals ingest counted but did not keep (its per-task caps) may be the very lines: nothing can be said to be missing
  if (task.outcome?.value === 'approved' || signals.dropped > 0) return [...drafts]
  const quiet = quietFailures(task, drafts, signals)
  if (quiet.length === 0) return [...drafts]
  const twin = recordedTwin(task, drafts, quiet)
  if (twin !== null) return drafts.map((d) => (d === twin.draft ? extend(d, twin.turns, quiet, task) : d))
  return [...drafts, notInLog(input, quiet)]
}

/** How the Player's failure and the Coach's answer to it read on a turn, paths and numbers aside. */
function shapeOf(t: TurnRecord): string | null {
  const shown = t.player.error?.value.split('\n')[0]
  if (shown === undefined || t.player.status?.value !== 'error') return null
  return `${sameErrorKey(shown)}\u0000${feedbackShape(t)}`
}

/** A twin's shape: its display of the failure may have been cut with the capture, its Coach feedback must be there. */
function twinShape(t: TurnRecord): string | null {
  if (t.coach.feedback == null) return null
  const shown = t.player.error?.value.split('\n')[0]
  return shown === undefined || t.player.status?.value !== 'error' ? `\u0000${feedbackShape(t)}` : `${sameErrorKey(shown)}\u0000${feedbackShape(t)}`
}

function feedbackShape(t: TurnRecord): string {
  return sameErrorKey(t.coach.feedback?.text ?? '').slice(0, 40)
}


/**
 * The turns whose Player failed with no line of its own about it: no signal of the turn but the
 * Coach's feedback and routine lines, and no finding of the Player's stages (or before) on it.
 */
function quietFailures(task: TaskRun, drafts: readonly FindingDraft[], signals: TaskSignals): number[] {
  const loud = new Set<number>()
  for (const c of signals.classified) if (c.signal.turn !== null && c.signal.logger !== FEEDBACK_LOGGER && c.rule.role !== 'context') loud.add(c.signal.turn)
  for (const s of signals.unclassified) if (s.turn !== null && s.logger !== FEEDBACK_LOGGER) loud.add(s.turn)
  const playerSide = drafts.filter((d) => classOf(d).role === 'cause' && stageIndex(classOf(d).stage) <= stageIndex('player-agent'))
  return task.turns
    .filter((t) => t.player.status?.value === 'error' && !loud.has(t.turn))
    .filter((t) => !playerSide.some((d) => d.turns.length === 0 || d.turns.includes(t.turn)))
    .map((t) => t.turn)
}

/**
 * The finding that explains a turn which failed the same way and whose error is in the log: the root
 * (docs/root-causes.md) of such turns, when they all have the same one, of the Player's stages or before.
 */
function recordedTwin(task: TaskRun, drafts: readonly FindingDraft[], quiet: readonly number[]): {draft: FindingDraft; turns: number[]} | null {
  const shapes = new Set(task.turns.filter((t) => quiet.includes(t.turn)).map(shapeOf))
  if (shapes.size !== 1 || shapes.has(null)) return null
  const shape = [...shapes][0]!
  const causes = drafts.filter((d) => classOf(d).role === 'cause')
  // a twin whose own display was cut shows the failure by its error line (its root below) and the same Coach feedback
  const twins = task.turns.filter((t) => !quiet.includes(t.turn) && (twinShape(t) === shape || twinShape(t) === shape.slice(shape.indexOf('\u0000'))))
  const roots = new Set<FindingDraft>()
  for (const t of twins) {
    const root = turnRoot(causes, t.turn)
    if (root !== null && stageIndex(classOf(root).stage) <= stageIndex('player-agent')) roots.add(root)
  }
  if (roots.size !== 1) return null
  return {draft: [...roots][0]!, turns: twins.map((t) => t.turn)}
}

function extend(d: FindingDraft, recorded: readonly number[], quiet: readonly number[], task: TaskRun): FindingDraft {
  const why = missingBecause(task, quiet)
  const shown = task.turns.find((t) => t.turn === quiet[0])?.player.error?.value ?? ''
  const sentence = `On ${formatTurns(quiet)} the Player failed the same way — the same failure ("${shown}") and the same Coach feedback as on ${formatTurns(recorded)} — but the error lines of ${quiet.length === 1 ? 'that turn' : 'those turns'} are not in the log: ${why}; the same error is inferred for them.`
  const deduction = `the Player's error on ${formatTurns(recorded)} is in the log; on ${formatTurns(quiet)} it is not, and their records repeat ${formatTurns(recorded)}'s Player failure and Coach feedback`
  return {
    ...d,
    turns: uniqueSorted([...d.turns, ...quiet]),
    confidence: 'inferred',
    deduction: d.deduction === undefined ? deduction : `${d.deduction}; ${deduction}`,
    message: `${d.message} ${sentence}`,
    evidence: dedupeEvidence([...d.evidence, ...rowEvidence(task, quiet).slice(0, 2), ...(cutBefore(task, quiet)?.evidence ?? [])]),
    detail: {...(d.detail ?? {}), inferredTurns: [...quiet]},
  }
}

/** The stages up to the Player's invocation: a failure of any of them shows as a failed Player. */
const PLAYER_STAGES: readonly Stage[] = ['setup', 'model-call', 'player-agent']

/** How each class of failure commonly shows there, in words; a class without one is shown by its first rule's summary. */
const SHAPES: Readonly<Record<string, string>> = {
  'orchestrator-defect': 'GuardKit raising before the agent ran, a plan, command or module it needs missing ("Implementation plan not found")',
  workspace: 'the task file not where the Player looks ("not found in any state directory"), or a worktree it cannot write',
  configuration: 'the machine\'s set-up, the SDK or its CLI missing or too old',
  'model-api': 'the model refusing the call ("authentication_failed")',
  'external-service': 'a service the agent needs (an MCP server, the knowledge graph\'s store) refusing it',
  'agent-budget': 'the agent running out of its time, its turns or the model\'s context window',
}

/**
 * The classes of failure that fail a Player this way: the categories of the catalogue's cause rules (the user's
 * included) at the stages up to the Player's invocation, in stage order, each with how it shows (docs/signals.md).
 */
function candidatesOf(catalogue: Catalogue): {category: string; shape: string}[] {
  const out = new Map<string, string>()
  const rules = catalogue.rules.filter((r) => r.role === 'cause' && PLAYER_STAGES.includes(r.stage))
  for (const stage of PLAYER_STAGES) {
    for (const r of rules) if (r.stage === stage && r.category !== 'unknown' && !out.has(r.category)) out.set(r.category, SHAPES[r.category] ?? r.summary)
  }
  return [...out].map(([category, shape]) => ({category, shape}))
}

function notInLog(input: FamilyInput, quiet: readonly number[]): FindingDraft {
  const task = input.task
  const turns = task.turns.filter((t) => quiet.includes(t.turn))
  const shown = turns[0]!.player.error?.value ?? 'Player failed'
  const same = new Set(turns.map(shapeOf)).size === 1
  const feedback = turns[0]!.coach.feedback?.text.replace(/\s+/g, ' ').replace(/^ | $/g, '') ?? null
  const noResults = turns.every((t) => /[Tt]ask-work results not found|task_work_results\.json not found/.test(t.coach.feedback?.text.replace(/\s+/g, ' ') ?? ''))
  const cut = cutBefore(task, quiet)
  const why = missingBecause(task, quiet)
  const after = feedback === null ? '' : `, and the Coach's feedback after ${same ? 'each' : 'them'} was "${feedback}"${noResults ? ': the Player\'s invocation ended without writing its task-work results' : ''}`
  const repeated = quiet.length > 1 && same ? `, the same way on every one of the ${quiet.length} turns` : ''
  const candidates = candidatesOf(input.catalogue ?? builtinCatalogue())
  const branches = candidates.map((c) => `${c.category}: ${c.shape}`).join('; ')
  const message = `The Player failed on ${formatTurns(quiet)} ("${shown}")${repeated}${after}. Its own error is not in the log: ${why}. ` +
    `The records say where it failed — the Player's invocation (stage player-agent)${repeated === '' ? '' : ', unchanged from turn to turn'} — not why. The failures that end a Player this way: ${branches}; nothing recorded decides between them.`
  return draft(input, {
    code: 'PLAYER_ERROR_NOT_IN_LOG',
    severity: 'high',
    turns: quiet,
    message,
    evidence: [...rowEvidence(task, quiet), ...(cut?.evidence ?? [])],
    remediation: `Find the Player's error in the run's complete output: GuardKit prints it under the ✗ line ("Error: …") and in "Attempting state recovery for ${task.taskId} turn N after Player failure: …".` +
      `${cut === null ? '' : ' This capture was cut by the tool that showed it: capture the next run whole (guardkit autobuild … 2>&1 | tee run.log, or guardkit-replay live --record DIR).'}` +
      `${repeated === '' ? '' : ' It came back unchanged on every turn, so more turns alone will not get past it.'}`,
    fixedIn: null,
    source: {function: 'diagnosis', spec: 'docs/root-causes.md'},
    detail: {
      shown,
      reason: cut === null ? 'not-printed' : 'capture-cut',
      ...(cut === null ? {} : {cutLine: cut.evidence[0]?.line ?? null}),
      candidates: candidates.map((c) => c.category),
    },
  })
}

/** Why the quiet turns hold no line of the error: the capture was cut before them, or GuardKit printed only its display. */
function missingBecause(task: TaskRun, quiet: readonly number[]): string {
  const cut = cutBefore(task, quiet)
  const fromTable = quiet.every((t) => task.summary?.some((r) => r.turn === t && r.phase.startsWith('Player')) === true)
  const kept = fromTable ? 'the AutoBuild Summary table, whose Player rows show GuardKit\'s display of the failure, not the error' : 'GuardKit\'s display of the failure, not the error'
  if (cut === null) return `no line of ${quiet.length === 1 ? 'that turn' : `those ${quiet.length} turns`} records it: all the log holds of ${quiet.length === 1 ? 'it' : 'them'} is ${kept}`
  const at = cut.evidence[0]
  return `the capture was cut at line ${at?.line ?? '?'} ("${at?.text ?? ''}")${cut.turn === null ? '' : ` during turn ${cut.turn}`}, and all that is left of ${formatTurns(quiet)} is ${kept}`
}

/** The quiet turns' rows (or whatever recorded the Player's failure), quoting GuardKit's display of it. */
function rowEvidence(task: TaskRun, quiet: readonly number[]): Evidence[] {
  return task.turns
    .filter((t) => quiet.includes(t.turn))
    .flatMap((t) => (t.player.error?.evidence ?? t.player.status?.evidence ?? []).slice(0, 1).map((e) => ({...e, text: e.text ?? t.player.error?.value ?? 'Player failed'})))
}

/** The cut in the capture that hid the quiet turns' records: the task's latest `capture-cut` at or before their first turn. */
function cutBefore(task: TaskRun, quiet: readonly number[]): Extract<TaskEvent, {kind: 'other'}> | null {
  const first = Math.min(...quiet)
  const cuts = task.events.filter((e): e is Extract<TaskEvent, {kind: 'other'}> => e.kind === 'other' && e.name === 'capture-cut' && (e.turn === null || e.turn <= first))
  return cuts[cuts.length - 1] ?? null
}
