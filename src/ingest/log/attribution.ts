import type {EventMeta, LogEvent} from './events.js'
import type {SignalText} from './signals/capture.js'
import {attributeSignal, type AttributedSignal, type SignalContext} from './signals/attribute.js'

/**
 * Which task and turn an event belongs to (docs/record-formats.md §5.2). Records carry no thread or task
 * field and the tasks of a wave run concurrently, so events that do not name their task are
 * attributed from context: what came before (the task in Coach validation, the task whose
 * checkpoint was just taken) and, for a few kinds, what comes shortly after (a `Criteria Progress
 * (Turn N)` record belongs to the task of the first unconsumed `Creating checkpoint for TASK-X
 * turn N` within the next 15 records). Events pass through a fixed window, so memory stays flat.
 */
export interface Attributed extends EventMeta {
  readonly event: LogEvent
  readonly attempt: number
  readonly taskId: string | null
  readonly turn: number | null
  /** How the task was found: named by the text, or inferred from context. */
  readonly how: 'named' | 'context' | 'none'
}

interface TaskCtx {
  readonly id: string
  turn: number
  coachOpen: boolean
  completed: boolean
  lastSeen: number
  readonly cpTurns: Set<number>
  readonly decidedTurns: Set<number>
  readonly checkpointTurns: Set<number>
  readonly hashTurns: Set<number>
  /** When its `Creating checkpoint` was seen, until the hash is logged: checkpoints complete in order. */
  checkpointPending: number | null
}

/** An event in the window; filled in and handed out as the `Attributed` (one object per event). */
interface Pending {
  event: LogEvent
  line: number
  logger: string | null
  level: string | null
  attempt: number
  taskId: string | null
  turn: number | null
  how: Attributed['how']
  /** Claimed by an earlier event's look-ahead (each event sits in one Pending, so a flag suffices). */
  consumed: boolean
  /** Its place in the stream (signals wait for the event pushed before them). */
  seq: number
}

/** Window of events held back for look-ahead. */
export const LOOKAHEAD_EVENTS = 64
/** docs/record-formats.md §5.2: the checkpoint naming a `Criteria Progress` record's task follows within ~15 records. */
const CP_LOOKAHEAD_RECORDS = 15

const TURN_BEARING = new Set(['ab-exec-turn', 'ai-invoke', 'cv-start', 'ab-use-coach', 'ab-recovery-attempt', 'ai-player-report', 'cv-saved', 'wc-creating', 'st-capturing'])

export interface Attributor {
  /** A new attempt (AutoBuild run) starts: context is per attempt. */
  startAttempt(attempt: number): void
  push(event: LogEvent, line: number, logger: string | null, level: string | null, attempt: number): void
  /** A signal (signals/capture.ts), attributed in stream order after the events pushed before it. */
  signal(signal: SignalText, line: number, attempt: number): void
  /** Release everything held back (end of a file, end of input, or a live snapshot). */
  drain(): void
}

export function createAttributor(emit: (a: Attributed) => void, emitSignal: (a: AttributedSignal) => void = () => {}): Attributor {
  // A ring buffer: the window is read on every event, and Array#shift would copy it each time.
  const CAP = LOOKAHEAD_EVENTS + 1
  const ring: (Pending | undefined)[] = new Array(CAP)
  let head = 0
  let size = 0
  // head < CAP and i < CAP: one subtraction instead of a modulo (read for every event of the window)
  const at = (i: number): Pending => ring[head + i < CAP ? head + i : head + i - CAP]!
  let contexts = new Map<string, TaskCtx>()
  /** The same contexts, most recently seen first. */
  let recent: TaskCtx[] = []
  let currentAttempt = 0
  let seq = 0
  let lastCp: {taskId: string; turn: number} | null = null
  let lastCheckpointTask: string | null = null
  let lastRecoveryTask: string | null = null
  let lastInvokerTask: string | null = null
  let lastSavedTask: string | null = null
  let lastReportTask: string | null = null
  let lastExec: {taskId: string; turn: number} | null = null
  /** `Created checkpoint: H` is followed by autobuild's `Checkpoint created: H`: same task. */
  let lastHash: {taskId: string; hash: string} | null = null
  /** Signals wait beside the window, each behind the event pushed before it (`after`: its seq). */
  const signals: {signal: SignalText; line: number; attempt: number; after: number}[] = []
  let pushed = 0
  let released: Pending | null = null
  const signalContext: SignalContext = {
    known: (id) => contexts.has(id),
    turnOf: (id) => contexts.get(id)?.turn ?? null,
    invoker: () => lastInvokerTask,
    coach: () => latest((c) => c.coachOpen),
    latest: () => latest(() => true),
  }

  /** Attributes and hands out the signals pushed before the event `upTo` (all of them for Infinity). */
  function releaseSignals(upTo: number): void {
    let n = 0
    while (n < signals.length && signals[n]!.after <= upTo) {
      const q = signals[n++]!
      const same = released !== null && released.line === q.line && released.attempt === q.attempt ? released : null
      const to = attributeSignal(q.signal, same, signalContext)
      // one literal of a fixed shape: spreading the result into a new object took V8's slow path (6% of the ingest)
      emitSignal({signal: q.signal, line: q.line, attempt: q.attempt, taskId: to.taskId, turn: to.turn})
    }
    if (n > 0) signals.splice(0, n)
  }

  function ctxOf(taskId: string): TaskCtx {
    let c = contexts.get(taskId)
    if (c === undefined) {
      c = {id: taskId, turn: 0, coachOpen: false, completed: false, lastSeen: 0, cpTurns: new Set(), decidedTurns: new Set(), checkpointTurns: new Set(), hashTurns: new Set(), checkpointPending: null}
      contexts.set(taskId, c)
      recent.push(c)
    }
    return c
  }

  /** Moves a context to the front of `recent`, in place (splice + unshift allocated for every event). */
  function toFront(c: TaskCtx): void {
    for (let i = recent.indexOf(c); i > 0; i--) recent[i] = recent[i - 1]!
    recent[0] = c
  }

  /** The most recently seen task passing `filter`, preferring tasks whose loop has not ended. */
  function latest(filter: (c: TaskCtx) => boolean): string | null {
    let completed: string | null = null
    for (let i = 0; i < recent.length; i++) {
      const c = recent[i]!
      if (!filter(c)) continue
      if (!c.completed) return c.id
      completed ??= c.id
    }
    return completed
  }

  function oldestPendingCheckpoint(turn: number): string | null {
    let best: string | null = null
    let bestSeq = Infinity
    // values(), not entries(): no [id, context] pair allocated per task and call
    for (const c of contexts.values()) {
      if (c.checkpointPending !== null && c.checkpointTurns.has(turn) && c.checkpointPending < bestSeq) {
        best = c.id
        bestSeq = c.checkpointPending
      }
    }
    return best
  }

  function lookahead(match: (e: LogEvent) => boolean, maxRecords: number): LogEvent | null {
    return lookaheadPending(match, maxRecords)?.event ?? null
  }

  /** The first unconsumed event within the next `maxRecords` records of the attempt matching `match`. */
  function lookaheadPending(match: (e: LogEvent) => boolean, maxRecords: number): Pending | null {
    let records = 0
    const first = at(0).attempt
    for (let i = 1; i < size; i++) {
      const p = at(i)
      if (p.attempt !== first) return null
      if (!p.consumed && match(p.event)) return p
      if (p.logger !== null && ++records >= maxRecords) return null
    }
    return null
  }

  function infer(e: LogEvent): string | null {
    const turn = e.turn
    switch (e.kind) {
      case 'ab-criteria-progress': {
        const ck = lookaheadPending((x) => x.kind === 'wc-creating' && x.turn === turn, CP_LOOKAHEAD_RECORDS)
        if (ck !== null) {
          ck.consumed = true
          return ck.event.taskId ?? null
        }
        return latest((c) => c.turn === turn && !c.cpTurns.has(turn!)) ?? latest((c) => c.turn === turn) ?? latest(() => true)
      }
      case 'ab-criteria-counts':
      case 'ab-ac':
      case 'ab-partial-stall':
        return lastCp?.taskId ?? latest(() => true)
      case 'ab-coach-turn':
        return latest((c) => c.cpTurns.has(turn!) && !c.decidedTurns.has(turn!)) ?? latest((c) => c.turn === turn) ?? latest(() => true)
      case 'ab-checkpoint':
        return lastHash !== null && lastHash.hash === e.hash ? lastHash.taskId : oldestPendingCheckpoint(turn!) ?? latest((c) => c.turn === turn)
      case 'wc-created':
        return oldestPendingCheckpoint(turn!) ?? latest((c) => c.turn === turn) ?? latest(() => true)
      case 'ab-exec-turn': {
        const ready = (c: TaskCtx) => c.turn === turn! - 1
        const named = lookahead((x) => (x.kind === 'ai-invoke' || x.kind === 'ab-loop' || x.kind === 'ai-mode') && x.taskId !== undefined &&
          (x.turn === undefined || x.turn === turn) && ready(ctxOf(x.taskId)), 20)
        if (named?.taskId !== undefined) return named.taskId
        return latest(ready) ?? latest(() => true)
      }
      case 'ab-perspective-reset':
        return lastExec !== null && lastExec.turn === turn ? lastExec.taskId : latest((c) => c.turn === turn)
      case 'ab-critical-error':
      case 'pr-started':
      case 'pr-completed':
        return latest((c) => c.turn === turn) ?? latest(() => true)
      case 'pr-summary': {
        const done = lookahead((x) => x.kind === 'ab-complete' && x.decision === e.decision && x.turns === e.turns, 20)
        return done?.taskId ?? null
      }
      case 'ab-stall-warning': {
        const err = lookahead((x) => x.kind === 'ab-stall-error', 10)
        return err?.taskId ?? lastCp?.taskId ?? null
      }
      case 'ab-invocation-stall': {
        const err = lookahead((x) => x.kind === 'ab-invocation-stall' && x.taskId !== undefined, 10)
        return err?.taskId ?? lastCp?.taskId ?? null
      }
      case 'wc-pollution':
      case 'wc-no-passing': {
        const stop = lookahead((x) => x.kind === 'ab-pollution-stall', 10)
        return stop?.taskId ?? lastCheckpointTask
      }
      case 'ab-rollback':
        return lastCheckpointTask
      case 'ab-init': {
        const start = lookaheadPending((x) => x.kind === 'ab-start', 10)
        if (start !== null) {
          start.consumed = true
          return start.event.taskId ?? null
        }
        return null
      }
      case 'ab-recovery-ok':
        return lastRecoveryTask ?? latest(() => true)
      case 'cv-gates':
      case 'cv-profile':
      case 'cv-test-run':
      case 'cv-test-result':
      case 'cv-zero-test':
      case 'cv-dump-header':
      case 'cv-dump-line':
      case 'cv-tests-skipped':
      case 'cv-gates-failed':
      case 'cv-phase-error':
        return latest((c) => c.coachOpen) ?? latest(() => true)
      case 'ai-sdk-turns':
      case 'ai-player-report':
      case 'ai-error':
      case 'ai-specialist':
      case 'ai-sdk-timeout':
        return lastInvokerTask ?? latest(() => true)
      case 'c-coach':
        return lastSavedTask ?? latest(() => true)
      case 'c-player':
        return lastReportTask ?? latest(() => true)
      case 'c-traceback':
      case 'graphiti-error':
      case 'ab-synthetic':
        return latest(() => true)
      default:
        return null
    }
  }

  function update(e: LogEvent, logger: string | null, taskId: string, turn: number | null): void {
    const c = ctxOf(taskId)
    c.lastSeen = ++seq
    if (recent[0] !== c) toFront(c)
    if (turn !== null && TURN_BEARING.has(e.kind) && turn > c.turn) c.turn = turn
    switch (e.kind) {
      case 'ab-exec-turn':
        c.turn = turn ?? c.turn
        lastExec = {taskId, turn: c.turn}
        break
      case 'cv-start':
      case 'ab-use-coach':
        c.coachOpen = true
        break
      case 'cv-saved':
        c.coachOpen = false
        lastSavedTask = taskId
        break
      case 'ab-criteria-progress':
        if (turn !== null) c.cpTurns.add(turn)
        lastCp = {taskId, turn: turn ?? c.turn}
        c.coachOpen = false
        break
      case 'ab-coach-turn':
        if (turn !== null) c.decidedTurns.add(turn)
        break
      case 'wc-creating':
        if (turn !== null) c.checkpointTurns.add(turn)
        c.checkpointPending = seq
        lastCheckpointTask = taskId
        break
      case 'wc-created':
      case 'ab-checkpoint':
        if (turn !== null) c.hashTurns.add(turn)
        c.checkpointPending = null
        lastHash = {taskId, hash: e.hash}
        break
      case 'ab-recovery-attempt':
        lastRecoveryTask = taskId
        break
      case 'ai-player-report':
        lastReportTask = taskId
        lastInvokerTask = taskId
        break
      case 'ab-complete':
        c.completed = true
        break
      default:
        if (logger === 'guardkit.orchestrator.agent_invoker') lastInvokerTask = taskId
    }
  }

  function release(): void {
    const p = at(0)
    const e = p.event
    let taskId: string | null = e.taskId ?? null
    let how: Attributed['how'] = taskId === null ? 'none' : 'named'
    if (taskId === null && !isAttemptLevel(e)) {
      taskId = infer(e)
      if (taskId !== null) how = 'context'
    }
    ring[head] = undefined
    head = (head + 1) % CAP
    size--
    let turn: number | null = e.turn ?? null
    if (taskId !== null) {
      if (turn === null) turn = contexts.get(taskId)?.turn ?? null
      if (turn === 0) turn = null
      update(e, p.logger, taskId, turn)
    }
    p.taskId = taskId
    p.turn = turn
    p.how = how
    emit(p)
    released = p
    if (signals.length > 0) releaseSignals(p.seq)
  }

  return {
    startAttempt(attempt) {
      while (size > 0) release()
      releaseSignals(Infinity)
      released = null
      currentAttempt = attempt
      contexts = new Map()
      recent = []
      lastCp = lastExec = null
      lastHash = null
      lastCheckpointTask = lastRecoveryTask = lastInvokerTask = lastSavedTask = lastReportTask = null
    },
    push(event, line, logger, level, attempt) {
      if (size === CAP) release()
      ring[(head + size) % CAP] = {event, line, logger, level, attempt: attempt || currentAttempt, taskId: null, turn: null, how: 'none', consumed: false, seq: pushed++}
      size++
      if (size > LOOKAHEAD_EVENTS) release()
    },
    signal(signal, line, attempt) {
      signals.push({signal, line, attempt: attempt || currentAttempt, after: pushed - 1})
      if (size === 0) releaseSignals(Infinity)
    },
    drain() {
      while (size > 0) release()
      releaseSignals(Infinity)
    },
  }
}

/** Events about the run or a wave, never about one task. */
function isAttemptLevel(e: LogEvent): boolean {
  switch (e.kind) {
    case 'cli-start':
    case 'cli-error':
    case 'feature-init':
    case 'waves-start':
    case 'wave-start':
    case 'wave-done':
    case 'feature-complete':
    case 'feature-failed':
    case 'c-prompt':
    case 'c-spinner':
    case 'c-wave':
    case 'c-feature-result':
    case 'c-summary-table':
    case 'c-status-box':
    case 'c-resume-prompt':
    case 'c-capture-cut':
    case 'c-other':
    case 'note':
      return true
    default:
      return false
  }
}
