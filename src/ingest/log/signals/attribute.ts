import {CONSOLE_LOGGER} from '../../../model/signal.js'
import type {SignalText} from './capture.js'

export type {AttributedSignal} from './store.js'

/** What attribution knows when a signal's turn in the stream comes (attribution.ts keeps the state). */
export interface SignalContext {
  /** A task whose loop has been seen in this attempt. */
  known(taskId: string): boolean
  turnOf(taskId: string): number | null
  /** The task the Player invoker logged for last. */
  invoker(): string | null
  /** The task whose Coach validation is open. */
  coach(): string | null
  /** The task seen last (a running one before a finished one). */
  latest(): string | null
  /** More than one task's loop is running: who logged last says nothing of whose record this is. */
  concurrent(): boolean
  /** The task of the record GuardKit writes right after this one for the same task, if it is in the window ahead. */
  paired(): string | null
  /** While tasks run at once, the task in Coach validation this Coach record belongs to (null: none can be told). */
  coachOf(): string | null
}

const TASKS = /\bTASK-[A-Za-z0-9][A-Za-z0-9_-]*[A-Za-z0-9]/g
const TURN = /\b(?:turn|Turn) (\d+)\b|_turn_(\d+)\.json/

/**
 * Which task and turn a signal belongs to (docs/record-formats.md §5.2, docs/ingest.md "Signals"): the task its
 * text names; else the task of the event read from the same record or console item; else by who
 * logged it (the Player invoker's task, the task in Coach validation); else the task seen last.
 * While several tasks' loops run at once, the last two would be a guess: the task of the record
 * that pairs with this one ahead, or for the Coach's records the task in Coach validation (the only
 * one, or the one the next Coach record names), else no task (the signal stays with the run).
 */
export function attributeSignal(
  signal: SignalText,
  sameItem: {readonly taskId: string | null; readonly turn: number | null} | null,
  ctx: SignalContext,
): {taskId: string | null; turn: number | null} {
  const named = namedTask(signal, ctx)
  if (named !== null) return {taskId: named, turn: turnIn(signal.text) ?? (ctx.known(named) ? positive(ctx.turnOf(named)) : null)}
  if (sameItem !== null && sameItem.taskId !== null) return {taskId: sameItem.taskId, turn: sameItem.turn}
  const logger = signal.logger
  if (ctx.concurrent()) {
    const coachRecord = logger.endsWith('coach_validator') || (logger === CONSOLE_LOGGER && signal.text.startsWith('Coach'))
    const to = ctx.paired() ?? (coachRecord ? ctx.coachOf() : null)
    return to === null ? {taskId: null, turn: turnIn(signal.text)} : {taskId: to, turn: turnIn(signal.text) ?? positive(ctx.turnOf(to))}
  }
  const taskId =
    logger === 'guardkit.orchestrator.agent_invoker' ? ctx.invoker() ?? ctx.latest()
      : logger.endsWith('coach_validator') ? ctx.coach() ?? ctx.latest()
        : logger === CONSOLE_LOGGER && signal.text.startsWith('Coach') ? ctx.coach() ?? ctx.latest()
          : ctx.latest()
  if (taskId === null) return {taskId: null, turn: null}
  return {taskId, turn: turnIn(signal.text) ?? positive(ctx.turnOf(taskId))}
}

/**
 * A graph library's records (Graphiti, its database drivers) quote the graph's data, which names tasks as
 * entities (`duplicate_name was: 'TASK-X'` while another task's turn runs): a task id in them says
 * nothing of whose loop logged the record.
 */
const GRAPH_LIBRARY = /^(?:graphiti_core|neo4j|falkordb)(?:\.|$)/

/** The signal's text names `taskId` as the task it is about (docs/ingest.md "Signals"). */
export function namesTask(signal: SignalText, taskId: string): boolean {
  return !GRAPH_LIBRARY.test(signal.logger) && signal.text.includes(taskId)
}

/** The first task id the text names whose loop is known (a message may cite a review task first), else the first. */
function namedTask(signal: SignalText, ctx: SignalContext): string | null {
  if (GRAPH_LIBRARY.test(signal.logger)) return null
  const ids = signal.text.match(TASKS)
  if (ids === null) return null
  return ids.find((id) => ctx.known(id)) ?? ids[0]!
}

/** The turn a signal's text names (`turn N`, `Turn N`, `…_turn_N.json`), if any. */
export function turnIn(text: string): number | null {
  const m = TURN.exec(text)
  if (m === null) return null
  const n = Number(m[1] ?? m[2])
  return n >= 1 ? n : null
}

function positive(n: number | null): number | null {
  return n !== null && n >= 1 ? n : null
}
