import type {FeaturePicture} from '../../explain/analysis.js'
import type {RunSoFar} from '../../ingest/index.js'
import type {EraMarker, RunAttempt, RunRecord} from '../../model/run-record.js'
import {createEraTally, type DerivedEra} from '../../replay/era-markers.js'
import {inferEra} from '../../replay/era.js'
import {placeRun} from '../../replay/era-timeline.js'
import {spanOf} from '../../explain/diagnosis/guardkit-changes.js'
import {createAttemptBytes, DRAWN_MEMORY_BYTES, type AttemptBytes} from '../attempt-bytes.js'
import type {AttemptSink} from '../load-run.js'
import {createTaskSpill, type TaskSpill} from '../task-spill.js'
import type {AnalyserSettings, FromAnalyser, ToAnalyser} from './attempt-analyser.js'
import {agrees, contextOf, contextSoFar, USUAL_READS, withReads, type ContextReads, type RunContext} from './context.js'

/**
 * `analyze --json` of a streamed run with the analysis ahead of the read (docs/architecture.md
 * "Streaming", docs/performance.md): every replay depends on the era of the whole log, yet the era
 * read so far rarely changes what an attempt's analysis reads of it. So once the log is long enough
 * to pay for a second thread, each attempt's task runs go, as the attempt ends, to an analyser on
 * that thread (analysis-worker.ts) under the run context read so far. Each result says what of the
 * context it read (context.ts). When a newer context would read differently, the analysis starts
 * over under it; when the final context reads the same as every result did, the drawn results are
 * the report's task runs; otherwise — a context that kept changing, an analysis that read more of
 * the run than one attempt's view holds, a failure, a thread that would not start — they are
 * dropped and the task runs are analysed from the spill after the read, as without the analyser.
 */
export interface Speculation {
  /** The sink of the streamed read: spill, era tally, and the analysis ahead. */
  readonly sink: AttemptSink
  readonly spill: TaskSpill
  /** The era's reading of every task run (once the read is done). */
  derived(run: RunRecord): DerivedEra
  /** Once the log is read: the analysis drawn ahead when it holds for the run as read, else null. */
  finish(run: RunRecord, derived: DerivedEra): Promise<DrawnAhead | null>
}

export interface DrawnAhead {
  /** Each attempt's task runs drawn (json-chunks.ts drawItems), in UTF-8, in the run's order; each read once. */
  drawn(): Iterable<string | Uint8Array>
  /** The feature attempts' pictures, in the run's order. */
  readonly pictures: readonly FeaturePicture[]
}

/** The other end of the analyser: a worker thread, or (tests) this one. */
export interface AnalyserPort {
  post(message: ToAnalyser): void
  close(): void
}

export type StartAnalyser = (settings: AnalyserSettings, receive: (message: FromAnalyser) => void, failed: (error: Error) => void) => AnalyserPort

export interface SpeculationOptions {
  readonly settings: AnalyserSettings
  readonly start: StartAnalyser
  /** The analyser starts once this many bytes of task runs are set aside (a thread costs ~0.1 s to start). */
  readonly startAfterBytes: number
  /** Drawn task runs held in memory before they go to a file. */
  readonly drawnMemoryBytes?: number
  /** What the analysis ahead did, and why it was dropped (GUARDKIT_REPLAY_DEBUG, docs/cli.md). */
  readonly note?: (message: string) => void
}

/** A context that changes this often in a log is not followed further: the analysis waits for the end of the read. */
const MAX_GENERATIONS = 6
/**
 * Bytes of task runs sent ahead of the analyser's results. This thread reads the log without a
 * pause and takes results only between reads: the analyser must have that much work queued, or it
 * waits. A bound all the same, as each sent attempt is a copy.
 */
const IN_FLIGHT_BYTES = 4 * 2 ** 20

export function createSpeculation(runPath: string, options: SpeculationOptions): Speculation {
  const spill = createTaskSpill()
  const tally = createEraTally()
  /** The attempts handed over, in the run's order. */
  const handed: RunAttempt[] = []
  let port: AnalyserPort | null = null
  let over = false
  let generation = 0
  let context: RunContext | null = null
  let reads: ContextReads = {era: [], run: [], marker: []}
  let drawn: AttemptBytes | null = null
  const pictures = new Map<number, FeaturePicture>()
  let posted = 0
  let inFlight = 0
  let inFlightBytes = 0
  /** The bytes sent of each attempt in flight. */
  const sentBytes = new Map<number, number>()
  let done = 0
  let settled: (() => void) | null = null
  const note = options.note ?? (() => {})

  /**
   * `placed`: with the run's place on the timeline worked out. It is read only by a rule's `guardkit` condition on an
   * unmodelled run, and placing a run costs more than inferring its era (0.5 s per 100 MB when done at every
   * attempt): it is worked out for a context that starts a generation, and for one compared once it has been read.
   */
  function contextNow(sofar: RunSoFar, placed: boolean): RunContext {
    const eraMarkers = sofar.eraMarkers()
    const logs = sofar.logs()
    const derived = tally.finish({eraMarkers, logs})
    const run = skeleton(runPath, logs, eraMarkers)
    return contextSoFar(runPath, inferEra(run, derived), eraMarkers, placed ? spanOf(placeRun(run, derived)) : (context?.placement ?? null))
  }

  function begin(next: RunContext): void {
    if (generation >= MAX_GENERATIONS) return stop(`the era read so far changed ${MAX_GENERATIONS} times`)
    generation++
    note(generation === 1 ? `analysing ahead of the read on a second thread, from attempt ${handed.length}` : `the era read so far changed at attempt ${handed.length}: analysing ahead again from the first attempt`)
    context = next
    reads = {era: [], run: [], marker: []}
    drawn?.close()
    drawn = createAttemptBytes(options.drawnMemoryBytes ?? DRAWN_MEMORY_BYTES, 'analysis-tasks.json')
    pictures.clear()
    posted = 0
    inFlight = 0
    inFlightBytes = 0
    sentBytes.clear()
    done = 0
    port!.post({type: 'generation', generation, context: next})
    pump()
  }

  function stop(why: string | null): void {
    if (why !== null && !over) note(`the analysis ahead is dropped (${why}); the task runs are analysed after the read`)
    over = true
    port?.close()
    port = null
    drawn?.close()
    drawn = null
    settle()
  }

  function settle(): void {
    const s = settled
    settled = null
    s?.()
  }

  function pump(): void {
    while (!over && port !== null && (inFlight === 0 || inFlightBytes < IN_FLIGHT_BYTES) && posted < handed.length) {
      const attempt = handed[posted++]!
      const tasks = spill.bytes(attempt.attempt) ?? new Uint8Array()
      // counted before it is sent: a port that answered at once would otherwise be counted down first
      inFlight++
      inFlightBytes += tasks.length
      sentBytes.set(attempt.attempt, tasks.length)
      port.post({type: 'attempt', generation, attempt, tasks})
    }
  }

  function receive(message: FromAnalyser): void {
    if (over || message.generation !== generation) return
    if (message.type === 'missed') return stop(`attempt ${message.attempt}'s analysis read ${message.key} of the run`)
    if (message.type === 'failed') return stop(`attempt ${message.attempt}'s analysis failed: ${message.message}`)
    inFlight--
    inFlightBytes -= sentBytes.get(message.attempt) ?? 0
    sentBytes.delete(message.attempt)
    done++
    if (message.bytes.length > 0) drawn!.add(message.attempt, message.bytes)
    if (message.picture !== null) pictures.set(message.attempt, message.picture)
    reads = message.reads
    pump()
    if (done === handed.length) settle()
  }

  const sink: AttemptSink = {
    add(attempt, tasks, sofar) {
      spill.add(attempt.attempt, tasks)
      for (const t of tasks) tally.add(t)
      handed.push(attempt)
      if (over) return
      if (port === null) {
        if (spill.addedBytes < options.startAfterBytes) return
        port = options.start(options.settings, receive, (error) => stop(`the second thread failed: ${error.message}`))
        return begin(contextNow(sofar, true))
      }
      const placed = reads.run.includes('placement')
      const now = contextNow(sofar, placed)
      if (!agrees(withReads(USUAL_READS, reads), context!, now)) return begin(placed ? now : contextNow(sofar, true))
      pump()
    },
    close() {
      stop(null)
      spill.close()
    },
  }

  return {
    sink,
    spill,
    derived: (run) => tally.finish(run),
    async finish(run, derived) {
      if (port === null || over) {
        stop(null)
        return null
      }
      const final = contextOf(run, inferEra(run, derived), spanOf(placeRun(run, derived)))
      const sameAttempts = handed.length === run.attempts.length && handed.every((a, i) => a === run.attempts[i])
      if (!sameAttempts || !agrees(withReads(USUAL_READS, reads), context!, final)) {
        stop(sameAttempts ? 'the era of the whole log differs from the era read so far' : 'the attempts handed over are not the run\'s')
        return null
      }
      if (done < handed.length) await new Promise<void>((resolve) => (settled = resolve))
      // the last results may have read more of the context
      if (over || !agrees(withReads(USUAL_READS, reads), context!, final)) {
        stop('the era of the whole log differs from the era read so far')
        return null
      }
      port.close()
      port = null
      const store = drawn!
      const inOrder = run.attempts.filter((a) => a.kind === 'feature').map((a) => pictures.get(a.attempt))
      if (inOrder.some((p) => p === undefined)) {
        stop('a feature attempt has no picture')
        return null
      }
      note(`the ${handed.length} attempts analysed ahead of the read are the report's`)
      return {
        pictures: inOrder as FeaturePicture[],
        drawn: () => store.drain(run.attempts.map((a) => a.attempt)),
      }
    },
  }
}

/** The run as far as the era's inference reads it (its markers; `logs` for the date's evidence). */
function skeleton(path: string, logs: readonly string[], eraMarkers: readonly EraMarker[]): RunRecord {
  return {path, logs, worktrees: [], attempts: [], tasks: [], feature: null, eraMarkers, ingestIssues: [], loggerStats: []}
}
