import type {EventMeta, LogEvent} from './events.js'
import type {SignalText} from './signals/capture.js'
import {attributeSignal, type AttributedSignal, type SignalContext, namesTask, turnIn} from './signals/attribute.js'

/**
 * Which task and turn an event belongs to (docs/record-formats.md §5.2). Records carry no thread or task
 * field and the tasks of a wave run concurrently, so events that do not name their task are
 * attributed from context: what came before (the task in Coach validation, the task whose
 * checkpoint was just taken) and, for a few kinds, what comes shortly after (a `Criteria Progress
 * (Turn N)` record belongs to the task of the first unconsumed `Creating checkpoint for TASK-X
 * turn N` within the next 15 records). Events pass through a fixed window, so memory stays flat.
 *
 * While more than one task's loop is running, the records that name no task are not given to the task
 * seen last or to the one the Player invoker logged for last: that is a guess (read that way, 98 of the
 * corpus' 243 kept `SDK completed` lines went to another task than their summary names). They go to the
 * task of the record GuardKit writes right after them
 * for the same task (`SDK completed: turns=N` → `[TASK-X] Message summary`; `Completed turn N: error
 * - Player failed …` and `✗ Player failed` → `Attempting state recovery for TASK-X turn N …`), to the
 * one task the context leaves (the only task in Coach validation, the only one on turn N), or to none:
 * a signal then stays with the run (docs/ingest.md "Signals").
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
  /** Its loop has logged one of its own records (LOOP_RECORD), not only a line that names it. */
  started: boolean
  /** Its loop is over: `Orchestration complete`, `Orchestration failed for TASK-X`, the wave's `✗ TASK-X: Error - …`. */
  ended: boolean
  lastSeen: number
  readonly cpTurns: Set<number>
  readonly decidedTurns: Set<number>
  readonly checkpointTurns: Set<number>
  readonly hashTurns: Set<number>
  /** When its `Creating checkpoint` was seen, until the hash is logged: checkpoints complete in order. */
  checkpointPending: number | null
  /** Its state recovery runs: from `Attempting state recovery` to `State recovery succeeded` or the loop's next phase. */
  recovering: boolean
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
  /** Claimed by an earlier event's look-ahead, one bit per kind of claim (CLAIM_*): each event sits in one Pending. */
  claimed: number
  /** Its place in the stream (signals wait for the event pushed before them). */
  seq: number
}

/** Window of events held back for look-ahead. */
export const LOOKAHEAD_EVENTS = 64
/** docs/record-formats.md §5.2: the checkpoint naming a `Criteria Progress` record's task follows within ~15 records. */
const CP_LOOKAHEAD_RECORDS = 15

/** The Coach validator's records that name no task: they belong to the task in Coach validation (one list for both ways of attributing). */
const COACH_RECORDS: ReadonlySet<LogEvent['kind']> = new Set<LogEvent['kind']>([
  'cv-gates', 'cv-profile', 'cv-test-run', 'cv-test-result', 'cv-zero-test', 'cv-dump-header', 'cv-dump-line', 'cv-tests-skipped', 'cv-gates-failed', 'cv-phase-error',
])

/** How far (in records) the record naming an unnamed record's task is looked for, while tasks run at once. */
const PAIR_LOOKAHEAD_RECORDS = 20

/**
 * One bit per kind of look-ahead that claims what it found: a `Criteria Progress` claims its
 * checkpoint, and the progress line and the console line of one Player failure both pair with its
 * `Attempting state recovery`, each claiming it for its own kind only.
 */
const CLAIM_CHECKPOINT = 1
const CLAIM_START = 2
const CLAIM_SDK = 4
const CLAIM_PROGRESS = 8
const CLAIM_CONSOLE = 16
const CLAIM_SIGNAL = 32
const CLAIM_CRITICAL = 64

/**
 * The records of a task's own loop, naming it: its loop is running from the first of them on. Not any
 * record that names a task id: a message can cite another (`[TASK-ABFIX-005] Parallel wave detected`
 * in vllm-profiling__vllm_run_5.log, the tag of a GuardKit fix).
 */
const LOOP_RECORD = new Set(['ab-start', 'ab-loop', 'ai-invoke', 'ab-use-coach', 'cv-start', 'wc-creating', 'ab-recovery-attempt'])
/**
 * Events that end a task's loop. Not the feature's timeout of a task, nor its wave's end: the loop's
 * thread goes on and logs its next turns after both (gb10_local_autobuild__db_feature_1.log: `Wave 2
 * complete` at 811, TASK-DB-002's `SDK completed` at 916).
 */
const ENDS_LOOP = new Set(['ab-complete', 'ab-orchestration-failed', 'c-task-error'])

/**
 * A task's records that close its state recovery: the recovery's result, or a next phase of its loop
 * (a failed recovery logs no result of its own).
 */
const ENDS_RECOVERY = new Set(['ab-recovery-ok', 'cv-start', 'ab-use-coach', 'ab-exec-turn', 'ai-invoke', 'ab-synthetic', 'ab-complete', 'ab-orchestration-failed', 'c-task-error', 'ab-start'])

const COACH_LOGGER = 'guardkit.orchestrator.quality_gates.coach_validator'

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
  /** The last few `Attempting state recovery` records read, for a console failure printed after its record. */
  let recoveries: {taskId: string; reason: string}[] = []
  /** The task of the last 0/N dump header (null: none, or it went to no task). */
  let lastDumpTask: string | null = null
  let lastExec: {taskId: string; turn: number} | null = null
  /** `Created checkpoint: H` is followed by autobuild's `Checkpoint created: H`: same task. */
  let lastHash: {taskId: string; hash: string} | null = null
  /**
   * The last `Orchestration failed for TASK-X: <error>`: its traceback (the record's exception info,
   * printed after it) ends in the same error and is that task's, though its loop is over.
   */
  let lastFailure: {taskId: string; error: string} | null = null
  /** Signals wait beside the window, each behind the event pushed before it (`after`: its seq). */
  const signals: {signal: SignalText; line: number; attempt: number; after: number}[] = []
  let pushed = 0
  let released: Pending | null = null
  /** Tasks whose loop is running (started, not ended). */
  let running = 0
  /** The signal being attributed (signalContext.paired reads it). */
  let current: {signal: SignalText; attempt: number} | null = null
  const signalContext: SignalContext = {
    known: (id) => contexts.has(id),
    turnOf: (id) => contexts.get(id)?.turn ?? null,
    invoker: () => invokerTask(),
    coach: () => latest((c) => c.coachOpen),
    latest: () => latest(() => true),
    concurrent: () => running > 1,
    paired: () => current === null ? null : pairedSignal(current.signal, current.attempt),
    coachOf: () => current === null ? null : coachTask(0, current.attempt),
  }

  function begin(c: TaskCtx): void {
    if (!c.started) {
      c.started = true
      if (!c.ended) running++
    }
  }

  function end(c: TaskCtx): void {
    if (!c.ended) {
      c.ended = true
      if (c.started) running--
    }
  }

  /** The one running task passing `filter`; null when none or several do. */
  function sole(filter: (c: TaskCtx) => boolean): string | null {
    let found: string | null = null
    for (let i = 0; i < recent.length; i++) {
      const c = recent[i]!
      if (!c.started || c.ended || !filter(c)) continue
      if (found !== null) return null
      found = c.id
    }
    return found
  }

  /**
   * The task of a Coach record that names none, while tasks run at once: the one running task in Coach
   * validation; of several, the one the next Coach record naming one of them names (`Requirements not
   * met for TASK-X` follows the 0/N dump, `Saved Coach decision to …/TASK-X/…` ends every validation),
   * looked for from the window's place `from` on (1 for an event: it is at 0; 0 for a signal).
   */
  function coachTask(from: number, attempt: number): string | null {
    let open = 0
    for (let i = 0; i < recent.length; i++) {
      const c = recent[i]!
      if (c.started && !c.ended && c.coachOpen) open++
    }
    if (open === 0) return null
    if (open === 1) return sole((c) => c.coachOpen)
    let records = 0
    for (let i = from; i < size; i++) {
      const p = at(i)
      if (p.attempt !== attempt) return null
      const e = p.event
      if (e.kind === 'cv-start' || e.kind === 'ab-use-coach') {
        // a Coach that opens later owns nothing before it
      } else if (e.taskId !== undefined && p.logger === COACH_LOGGER) {
        const c = contexts.get(e.taskId)
        if (c !== undefined && c.started && !c.ended && c.coachOpen) return e.taskId
      }
      // the 0/N dump's lines are one block: they do not use up the look-ahead
      if (p.logger !== null && e.kind !== 'cv-dump-line' && ++records >= PAIR_LOOKAHEAD_RECORDS) return null
    }
    return null
  }

  /** The task of a recovery already read whose reason is the error (the latest; each is taken once). */
  function recoveredBefore(error: string): string | null {
    if (error === '') return null
    for (let i = recoveries.length - 1; i >= 0; i--) {
      const r = recoveries[i]!
      if (sameError(error, r.reason) && live(r.taskId) !== null) {
        recoveries.splice(i, 1)
        return r.taskId
      }
    }
    return null
  }

  /**
   * The task the Player invoker logged for last, unless its loop is over while another's runs: its
   * `[TASK-X] … in progress` heartbeats are notes, so a task whose loop ended can still be the last
   * the invoker named when the one task left running logs its `SDK completed`.
   */
  function invokerTask(): string | null {
    return running > 0 && live(lastInvokerTask ?? undefined) === null ? null : lastInvokerTask
  }

  /** A running task's id, or null (the record naming it is read; the task must still be running). */
  function live(id: string | undefined): string | null {
    if (id === undefined) return null
    const c = contexts.get(id)
    return c !== undefined && c.started && !c.ended ? id : null
  }

  /**
   * A signal with no event of its own, while tasks run at once: the task of the record GuardKit writes
   * right after it for the same task, in the events held after it (the window starts at the first
   * event pushed after the signal). A console `⚠ Player report missing` or `Player failed` is followed
   * by `Attempting state recovery for TASK-X turn N`.
   */
  function pairedSignal(signal: SignalText, attempt: number): string | null {
    if (!/^(?:Player failed|Player report missing)/.test(signal.text)) return null
    let records = 0
    for (let i = 0; i < size; i++) {
      const p = at(i)
      if (p.attempt !== attempt) return null
      if ((p.claimed & CLAIM_SIGNAL) === 0 && p.event.kind === 'ab-recovery-attempt' && live(p.event.taskId) !== null) {
        p.claimed |= CLAIM_SIGNAL
        return p.event.taskId!
      }
      if (p.logger !== null && ++records >= PAIR_LOOKAHEAD_RECORDS) return null
    }
    return null
  }

  /** Attributes and hands out the signals pushed before the event `upTo` (all of them for Infinity). */
  function releaseSignals(upTo: number): void {
    let n = 0
    while (n < signals.length && signals[n]!.after <= upTo) {
      const q = signals[n++]!
      const same = released !== null && released.line === q.line && released.attempt === q.attempt ? released : null
      current = q
      const to = signalAfterEnd(q, attributeSignal(q.signal, same, signalContext))
      current = null
      // one literal of a fixed shape: spreading the result into a new object took V8's slow path (6% of the ingest)
      if (to.taskId !== null && duringRecovery(q.signal, to.taskId)) emitSignal({signal: q.signal, line: q.line, attempt: q.attempt, taskId: to.taskId, turn: to.turn, during: 'state-recovery'})
      else emitSignal({signal: q.signal, line: q.line, attempt: q.attempt, taskId: to.taskId, turn: to.turn})
    }
    if (n > 0) signals.splice(0, n)
  }

  /** The task's loop is over in this attempt (its `Orchestration complete`/`failed` was read). */
  function ended(taskId: string): boolean {
    return contexts.get(taskId)?.ended === true
  }

  /**
   * An unnamed record the context rules gave to a task whose loop is over: nothing of that loop is
   * logged after its end, so the record is another task's. It goes to the task of its pairing record
   * (`✗ Player failed` → `Attempting state recovery for TASK-X turn N`) or the one running task the
   * pairing rules leave, as while tasks run at once; else to none (it stays with the run).
   */
  function afterEnd(e: LogEvent): string | null {
    if (e.kind === 'c-traceback' && lastFailure !== null && e.lines.some((l) => failureOf(l, lastFailure!))) return lastFailure.taskId
    const to = inferConcurrent(e)
    return typeof to === 'string' ? live(to) : null
  }

  /**
   * A record naming no task, read while the task it was given to was in state recovery: the recovery's
   * own (its git and test detection run the Coach's test code, `coach_verification: Test execution timed
   * out` in the middle of it), not a Coach validation's. Console text is not: a capture can print a
   * Player failure after the recovery record.
   */
  function duringRecovery(signal: SignalText, taskId: string): boolean {
    return signal.source === 'record' && contexts.get(taskId)?.recovering === true && !namesTask(signal, taskId)
  }

  /** A signal the context rules gave to a task whose loop is over, the text not naming it: as `afterEnd`. */
  function signalAfterEnd(q: {signal: SignalText; attempt: number}, to: {taskId: string | null; turn: number | null}): {taskId: string | null; turn: number | null} {
    if (to.taskId === null || !ended(to.taskId) || namesTask(q.signal, to.taskId)) return to
    if (lastFailure !== null && lastFailure.taskId === to.taskId && failureOf(q.signal.text, lastFailure)) return to
    const paired = live(pairedSignal(q.signal, q.attempt) ?? undefined)
    const turn = turnIn(q.signal.text)
    return paired === null ? {taskId: null, turn} : {taskId: paired, turn: turn ?? positiveTurn(contexts.get(paired)!.turn)}
  }

  function ctxOf(taskId: string): TaskCtx {
    let c = contexts.get(taskId)
    if (c === undefined) {
      c = {id: taskId, turn: 0, coachOpen: false, completed: false, started: false, ended: false, lastSeen: 0, cpTurns: new Set(), decidedTurns: new Set(), checkpointTurns: new Set(), hashTurns: new Set(), checkpointPending: null, recovering: false}
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
    return lookaheadPending(match, maxRecords, 0)?.event ?? null
  }

  /** The first event not claimed for `claim` within the next `maxRecords` records of the attempt matching `match`. */
  function lookaheadPending(match: (e: LogEvent) => boolean, maxRecords: number, claim: number): Pending | null {
    let records = 0
    const first = at(0).attempt
    for (let i = 1; i < size; i++) {
      const p = at(i)
      if (p.attempt !== first) return null
      if ((p.claimed & claim) === 0 && match(p.event)) return p
      if (p.logger !== null && ++records >= maxRecords) return null
    }
    return null
  }

  /** The task of the first event matching `match` ahead, claimed for `claim` (null: none within the pair look-ahead). */
  function pairAhead(match: (e: LogEvent) => boolean, claim: number): string | null {
    const p = lookaheadPending((x) => match(x) && live(x.taskId) !== null, PAIR_LOOKAHEAD_RECORDS, claim)
    if (p === null) return null
    p.claimed |= claim
    return p.event.taskId!
  }

  /**
   * An unnamed record while more than one task's loop is running (see the header): the task of its
   * pairing record ahead, else the one running task the context leaves, else none. Undefined: this
   * kind keeps the rules of `infer`.
   */
  function inferConcurrent(e: LogEvent): string | null | undefined {
    const turn = e.turn
    switch (e.kind) {
      case 'ai-sdk-turns':
        // `SDK completed: turns=N` → `[TASK-X] Message summary` (1–2 records on), else its `Created Player report … turn N`
        return pairAhead((x) => x.kind === 'ai-summary', CLAIM_SDK) ??
          pairAhead((x) => x.kind === 'ai-player-report' && x.turn !== undefined && x.turn === contexts.get(x.taskId!)?.turn, CLAIM_SDK)
      case 'ai-player-report':
      case 'ai-error':
      case 'ai-specialist':
      case 'ai-sdk-timeout':
        return null
      case 'pr-completed': {
        if (e.status !== 'error') return undefined
        if (e.summary.startsWith('Coach')) return sole((c) => c.turn === turn && c.coachOpen) ?? sole((c) => c.turn === turn)
        // `Completed turn N: error - Player failed: …` → `Attempting state recovery for TASK-X turn N after Player failure: …`
        const error = playerError(e.summary)
        return pairAhead((x) => x.kind === 'ab-recovery-attempt' && x.turn === turn && sameError(error, x.reason), CLAIM_PROGRESS) ?? sole((c) => c.turn === turn)
      }
      case 'c-player': {
        if (e.status !== 'error') return undefined
        // `✗ Player failed: …` → the same recovery record; a capture that interleaves stdout and stderr can print it after the record
        const error = playerError(e.text)
        return pairAhead((x) => x.kind === 'ab-recovery-attempt' && sameError(error, x.reason), CLAIM_CONSOLE) ?? recoveredBefore(error)
      }
      case 'c-coach':
        return e.decision === 'error' ? coachTask(1, at(0).attempt) : undefined
      case 'ab-critical-error':
        // `Critical error on turn N` → the task's summary → `Orchestration complete: TASK-X, decision=error`
        return pairAhead((x) => x.kind === 'ab-complete' && x.decision === 'error', CLAIM_CRITICAL) ?? sole((c) => c.turn === turn)
      case 'ab-synthetic':
        return pairAhead((x) => x.kind === 'ab-synthetic' && x.turn === turn && x.step === 'pass', 0) ?? sole((c) => c.turn === turn)
      case 'c-traceback':
        return null
      default:
        if (!COACH_RECORDS.has(e.kind)) return undefined
        // a 0/N dump's lines follow their header with nothing between
        return e.kind === 'cv-dump-line' ? lastDumpTask : coachTask(1, at(0).attempt)
    }
  }

  function infer(e: LogEvent): string | null {
    if (running > 1) {
      const to = inferConcurrent(e)
      if (to !== undefined) return to
    }
    const turn = e.turn
    switch (e.kind) {
      case 'ab-criteria-progress': {
        const ck = lookaheadPending((x) => x.kind === 'wc-creating' && x.turn === turn, CP_LOOKAHEAD_RECORDS, CLAIM_CHECKPOINT)
        if (ck !== null) {
          ck.claimed |= CLAIM_CHECKPOINT
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
        const start = lookaheadPending((x) => x.kind === 'ab-start', 10, CLAIM_START)
        if (start !== null) {
          start.claimed |= CLAIM_START
          return start.event.taskId ?? null
        }
        return null
      }
      case 'ab-recovery-ok':
        return lastRecoveryTask ?? latest(() => true)
      case 'ai-sdk-turns':
      case 'ai-player-report':
      case 'ai-error':
      case 'ai-specialist':
      case 'ai-sdk-timeout':
        return invokerTask() ?? latest(() => true)
      case 'c-coach':
        return lastSavedTask ?? latest(() => true)
      case 'c-player':
        return lastReportTask ?? latest(() => true)
      case 'c-traceback':
      case 'graphiti-error':
      case 'ab-synthetic':
        return latest(() => true)
      default:
        return COACH_RECORDS.has(e.kind) ? latest((c) => c.coachOpen) ?? latest(() => true) : null
    }
  }

  function update(e: LogEvent, logger: string | null, taskId: string, turn: number | null): void {
    const c = ctxOf(taskId)
    c.lastSeen = ++seq
    if (recent[0] !== c) toFront(c)
    if (ENDS_LOOP.has(e.kind)) end(c)
    else if (LOOP_RECORD.has(e.kind)) begin(c)
    if (turn !== null && TURN_BEARING.has(e.kind) && turn > c.turn) c.turn = turn
    if (e.kind === 'ab-recovery-attempt') c.recovering = true
    else if (ENDS_RECOVERY.has(e.kind)) c.recovering = false
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
        recoveries.push({taskId, reason: e.reason})
        if (recoveries.length > 4) recoveries.shift()
        break
      case 'ai-player-report':
        lastReportTask = taskId
        lastInvokerTask = taskId
        break
      case 'ab-complete':
        c.completed = true
        break
      case 'ab-orchestration-failed':
        {
          // its first line: the traceback may be read into the record itself
          const error = e.message.split('\n', 1)[0]!.trim().slice(0, 80)
          lastFailure = error === '' ? null : {taskId, error}
        }
        break
      case 'ab-start':
        // a loop (re)started in the same run
        if (c.ended) {
          c.ended = false
          running++
        }
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
      if (taskId !== null && ended(taskId)) taskId = afterEnd(e)
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
    if (e.kind === 'cv-dump-header') lastDumpTask = taskId
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
      lastCheckpointTask = lastRecoveryTask = lastInvokerTask = lastSavedTask = lastReportTask = lastDumpTask = null
      running = 0
      recoveries = []
      lastFailure = null
    },
    push(event, line, logger, level, attempt) {
      if (size === CAP) release()
      ring[(head + size) % CAP] = {event, line, logger, level, attempt: attempt || currentAttempt, taskId: null, turn: null, how: 'none', claimed: 0, seq: pushed++}
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

/** What a Player failure line says failed: after its `Error:` line, else after `Player failed:` ('' when it says nothing). */
function playerError(text: string): string {
  const err = text.lastIndexOf('Error: ')
  if (err !== -1) return text.slice(err + 7)
  const failed = text.indexOf('Player failed: ')
  return failed === -1 ? '' : text.slice(failed + 15)
}

/** The failure a Player line says and a recovery record's reason are the same, either possibly cut (an unknown one matches any). */
function sameError(error: string, reason: string): boolean {
  if (error === '') return true
  const a = error.replace(/\s*(?:…|\.\.\.)\s*$/, '').replace(/\s+/g, ' ').trim()
  const b = reason.replace(/\s*(?:…|\.\.\.)\s*$/, '').replace(/\s+/g, ' ').trim()
  const n = Math.min(a.length, b.length)
  return n > 0 && a.slice(0, n) === b.slice(0, n)
}

function positiveTurn(n: number): number | null {
  return n >= 1 ? n : null
}

/** A traceback or exception line ending in a task's failure error (compared on its first 80 characters). */
function failureOf(text: string, failure: {error: string}): boolean {
  return text.replace(/\s+/g, ' ').includes(failure.error.replace(/\s+/g, ' '))
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
