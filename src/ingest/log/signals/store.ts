import type {RunAttempt, TaskRun} from '../../../model/run-record.js'
import type {Signal} from '../../../model/signal.js'
import type {SignalText} from './capture.js'

/** A signal as attribution hands it to the run builder. */
export interface AttributedSignal {
  readonly signal: SignalText
  /** 1-based line of the item the signal was read from. */
  readonly line: number
  readonly attempt: number
  readonly taskId: string | null
  readonly turn: number | null
  /** Read while the task's state recovery ran (Signal.during). */
  readonly during?: 'state-recovery'
}

/**
 * Per task run: at most this many signals, and this many from one logger (a FalkorDB error storm
 * must not push a task's one Player error out). Past either, the first signal of each of a logger's
 * first few message shapes on a turn is still kept, up to HARD_MAX: the diagnosis counts the turns an
 * error shows on, and a long run's last turns are the ones that ended it. By shape, not only by logger:
 * the Coach logs its gate profile before its gate results on every turn, and the first alone would
 * leave the gate results of every turn past the cap out (a gate failure said for t1–t20 of 25).
 * Identical signals in one turn are counted on the first. What is not kept is counted (`signalsDropped`).
 */
const MAX_PER_TASK = 300
const MAX_PER_LOGGER = 60
const HARD_MAX = 1000
/** Message shapes of one logger kept per turn past the caps. */
const SHAPES_PER_TURN = 4

/** A message's shape: its text with every run of digits one `0` (counts, turns, durations, ids differ; the words do not). */
function shapeOf(text: string): string {
  return text.replace(/\d+/g, '0')
}

interface Bucket {
  readonly signals: {-readonly [K in keyof Signal]: Signal[K]}[]
  readonly byKey: Map<string, number>
  readonly perLogger: Map<string, number>
  /** Per logger and turn, the shapes of the signals kept. */
  readonly onTurn: Map<string, Set<string>>
  dropped: number
}

function newBucket(): Bucket {
  return {signals: [], byKey: new Map(), perLogger: new Map(), onTurn: new Map(), dropped: 0}
}

/** The signals of one AutoBuild run, per task id (any id a signal named or was attributed to) and the run's own. */
export interface AttemptSignals {
  readonly tasks: Map<string, Bucket>
  readonly run: Bucket
}

export function newAttemptSignals(): AttemptSignals {
  return {tasks: new Map(), run: newBucket()}
}

export function addSignal(store: AttemptSignals, file: string, a: AttributedSignal): void {
  let bucket = store.run
  if (a.taskId !== null) {
    bucket = store.tasks.get(a.taskId) ?? newBucket()
    if (!store.tasks.has(a.taskId)) store.tasks.set(a.taskId, bucket)
  }
  const s = a.signal
  const key = `${s.logger}\u0000${a.turn ?? ''}\u0000${s.text}`
  const known = bucket.byKey.get(key)
  if (known !== undefined) {
    bucket.signals[known]!.repeats++
    return
  }
  const fromLogger = bucket.perLogger.get(s.logger) ?? 0
  const loggerTurn = `${s.logger}\u0000${a.turn ?? ''}`
  const withinCaps = bucket.signals.length < MAX_PER_TASK && fromLogger < MAX_PER_LOGGER
  let shapes = bucket.onTurn.get(loggerTurn)
  const shape = shapeOf(s.text)
  if (!withinCaps && (shapes === undefined ? false : shapes.has(shape) || shapes.size >= SHAPES_PER_TURN)) {
    bucket.dropped++
    return
  }
  if (!withinCaps && bucket.signals.length >= HARD_MAX) {
    bucket.dropped++
    return
  }
  bucket.perLogger.set(s.logger, fromLogger + 1)
  if (shapes === undefined) bucket.onTurn.set(loggerTurn, (shapes = new Set()))
  shapes.add(shape)
  bucket.byKey.set(key, bucket.signals.length)
  bucket.signals.push({
    source: s.source,
    level: s.level,
    logger: s.logger,
    text: s.text,
    turn: a.turn,
    evidence: {file, line: a.line + s.lineOffset, text: s.quote},
    repeats: 0,
    ...(a.during === undefined ? {} : {during: a.during}),
  })
}

/**
 * The finished attempt and its tasks with their signals: a task gets the signals attributed to
 * its id; the run keeps the rest (those of ids that never became a task run, with their turn).
 */
export function withSignals(attempt: RunAttempt, tasks: readonly TaskRun[], store: AttemptSignals | undefined): {attempt: RunAttempt; tasks: TaskRun[]} {
  if (store === undefined) return {attempt: {...attempt, signals: []}, tasks: tasks.map((t) => ({...t, signals: [], signalsDropped: 0}))}
  const ids = new Set(tasks.map((t) => t.taskId))
  const run = [...store.run.signals]
  let runDropped = store.run.dropped
  for (const [id, bucket] of store.tasks) {
    if (ids.has(id)) continue
    run.push(...bucket.signals)
    runDropped += bucket.dropped
  }
  run.sort(byLine)
  return {
    attempt: {...attempt, signals: run, signalsDropped: runDropped},
    tasks: tasks.map((t) => {
      const bucket = store.tasks.get(t.taskId)
      return {...t, signals: bucket === undefined ? [] : [...bucket.signals].sort(byLine), signalsDropped: bucket?.dropped ?? 0}
    }),
  }
}

/** Log order (a multi-line item's signal is emitted when the item ends, after lines read inside it). */
function byLine(a: Signal, b: Signal): number {
  return (a.evidence.line ?? 0) - (b.evidence.line ?? 0)
}
