import {EventEmitter} from 'node:events'
import type {AnalysisReport} from '../explain/analysis.js'
import {createLogIngest, createNodeFilePort, DEFAULT_LIMITS, readRecording, type FsPort, type IngestLimits, type LogIngest} from '../ingest/index.js'
import type {RunRecord} from '../model/run-record.js'
import type {DashboardModel, DashboardSource} from '../render/ink/model.js'
import {buildDashboardModel} from './dashboard-model.js'
import {createLineWatch, type LineWatch} from './log-lines.js'
import {RUN_LOG} from './recorder.js'
import {detectWarnings, taskKey, type LiveWarning} from './warnings.js'

export interface LiveStoreOptions {
  readonly title: string
  readonly mode: 'spawn' | 'attach'
  readonly recordDir: string
  /** The recording as the user names it (the report's `run.path`). */
  readonly runPath: string
  readonly analyze: (run: RunRecord) => AnalysisReport
  /** Session clock in ms (monotonic) and the wall clock for ISO times. */
  readonly clock?: () => number
  readonly wallClock?: () => Date
  /** Seconds of the build per second of the clock (simulations run faster than real time). */
  readonly timeScale?: number
  readonly limits?: IngestLimits
  /** The log is quiet after this long without new bytes: the view's look-ahead is flushed (ms). */
  readonly quietMs?: number
  /** Least time between two re-analyses; it grows with the time one takes (ms). */
  readonly minRecomputeMs?: number
  /** Most snapshots handed to subscribers per second (redraws). */
  readonly maxUpdatesPerSecond?: number
  readonly onWorktree?: (path: string) => void
}

/** How long a key press holds back the next re-analysis (ms). */
const USER_DEFER_MS = 300

/** What the live store tells the session (plain and JSON output, --stop-on). */
export interface StoreEvents {
  warning: [LiveWarning]
  turn: [{taskId: string; attempt: number; turn: number; decision: string; criteriaMet: number | null; criteriaTotal: number | null}]
  outcome: [{taskId: string; attempt: number; outcome: string; turns: number | null}]
  change: []
}

/**
 * The live session's state, apart from its view (Shopify's status manager): log bytes go to two
 * log ingests — `main`, read exactly as `analyze` reads a file (the final report), and `view`,
 * flushed whenever the log goes quiet so the dashboard does not wait for the attribution look-ahead
 * — and the recording's artifacts are read back as `analyze` reads them. Each re-analysis runs the
 * spine, `analyzeRun`, as `analyze` does, over the records so far (throttled, adaptively: never more than half
 * the time spent analysing); the snapshot (DashboardModel) and the warnings are derived from it.
 * Subscribers get at most `maxUpdatesPerSecond` snapshots a second.
 */
export class LiveStore extends EventEmitter<StoreEvents> implements DashboardSource {
  private readonly main: LogIngest
  private readonly view: LogIngest
  private readonly lines: LineWatch
  private readonly clock: () => number
  private readonly wallClock: () => Date
  private readonly limits: IngestLimits
  /** The recording is read back through the same read-only port as `analyze` reads a RUN. */
  private readonly port: FsPort = createNodeFilePort()
  private readonly timeScale: number
  private readonly startedAt: number
  private logBytes = 0
  private report: AnalysisReport | null = null
  private readonly warnings: LiveWarning[] = []
  private readonly raised = new Set<string>()
  private readonly announced = new Set<string>()
  private snapshot: DashboardModel
  private base: Pick<DashboardModel, 'title' | 'mode' | 'status' | 'recordDir' | 'worktree' | 'logTail' | 'notices' | 'exit'>
  private quietTimer: NodeJS.Timeout | null = null
  private recomputeTimer: NodeJS.Timeout | null = null
  private emitTimer: NodeJS.Timeout | null = null
  private readonly ticker: NodeJS.Timeout
  private dirty = false
  private computing: Promise<void> | null = null
  private lastComputeAt = -Infinity
  private lastComputeMs = 0
  private lastEmitAt = -Infinity
  private lastFlushAt: number
  /** No re-analysis before this time: the user is pressing keys. */
  private deferUntil = -Infinity
  private bytesSinceFlush = false
  /** The view ingest had everything that arrived before this time when the last analysis read it. */
  private viewAsOf = -Infinity
  private final = false
  /** Re-analyses run and their total time, for the benchmark. */
  readonly stats = {recomputes: 0, recomputeMs: 0, updates: 0}

  constructor(private readonly options: LiveStoreOptions) {
    super()
    this.clock = options.clock ?? (() => performance.now())
    this.wallClock = options.wallClock ?? (() => new Date())
    this.limits = options.limits ?? DEFAULT_LIMITS
    this.timeScale = options.timeScale ?? 1
    this.startedAt = this.clock()
    this.lastFlushAt = this.startedAt
    this.main = createLogIngest({maxLineChars: this.limits.maxLineChars})
    this.view = createLogIngest({maxLineChars: this.limits.maxLineChars})
    this.main.startFile(RUN_LOG)
    this.view.startFile(RUN_LOG)
    this.lines = createLineWatch({clock: this.clock, onWorktree: options.onWorktree})
    this.base = {title: options.title, mode: options.mode, status: 'starting', recordDir: options.recordDir, worktree: null, logTail: [], notices: [], exit: null}
    this.snapshot = this.model()
    // elapsed times and the timeout rule move with the clock: often enough to be on time in a sped-up simulation
    this.ticker = setInterval(() => this.refresh(), Math.min(1000, Math.max(20, 1000 / this.timeScale)))
    this.ticker.unref()
  }

  getSnapshot = (): DashboardModel => this.snapshot

  subscribe = (listener: () => void): (() => void) => {
    this.on('change', listener)
    return () => this.off('change', listener)
  }

  get analysis(): AnalysisReport | null {
    return this.report
  }

  get raisedWarnings(): readonly LiveWarning[] {
    return this.warnings
  }

  get bytesRead(): number {
    return this.logBytes
  }

  /** Bytes the command printed, in order. */
  pushLog(chunk: Uint8Array): void {
    if (this.final) return
    const room = this.limits.maxLogBytes - this.logBytes
    this.logBytes += chunk.length
    const kept = room >= chunk.length ? chunk : chunk.subarray(0, Math.max(0, room))
    if (kept.length > 0) {
      this.main.pushBytes(kept)
      this.view.pushBytes(kept)
    }
    this.lines.push(chunk)
    this.bytesSinceFlush = true
    if (this.quietTimer) clearTimeout(this.quietTimer)
    this.quietTimer = setTimeout(() => this.onQuiet(), this.options.quietMs ?? 100)
    this.base = {...this.base, logTail: [...this.lines.tail]}
    this.requestRecompute()
  }

  /** A key was pressed in the dashboard: the next re-analysis waits a little, so the answer is drawn first. */
  userActivity(): void {
    this.deferUntil = this.clock() + USER_DEFER_MS
  }

  /** The recording's artifacts changed (a version was written). */
  artifactsChanged(): void {
    this.requestRecompute()
  }

  setStatus(status: DashboardModel['status']): void {
    this.base = {...this.base, status}
    this.refresh()
  }

  setWorktree(worktree: string): void {
    this.base = {...this.base, worktree}
    this.refresh()
  }

  addNotice(notice: string): void {
    this.base = {...this.base, notices: [...this.base.notices.slice(-4), notice]}
    this.refresh()
  }

  setExit(exit: DashboardModel['exit']): void {
    this.base = {...this.base, exit}
    this.refresh()
  }

  /**
   * The end: the main ingest finished, the recording read back, the final analysis (the one the
   * report prints) replaces the last live one and gives the last warnings.
   */
  async finalize(): Promise<{run: RunRecord; report: AnalysisReport}> {
    this.final = true
    this.stopTimers()
    await this.computing
    const run = await readRecording(this.port, {dir: this.options.recordDir, logName: RUN_LOG, runPath: this.options.runPath, logs: this.main.finish(), logBytes: this.logBytes, limits: this.limits, interim: false})
    const report = this.options.analyze(run)
    this.report = report
    this.lastFlushAt = this.clock()
    this.refresh(true)
    return {run, report}
  }

  close(): void {
    this.stopTimers()
    this.removeAllListeners()
  }

  private stopTimers(): void {
    clearInterval(this.ticker)
    for (const t of [this.quietTimer, this.recomputeTimer, this.emitTimer]) if (t) clearTimeout(t)
    this.quietTimer = this.recomputeTimer = this.emitTimer = null
  }

  private onQuiet(): void {
    this.quietTimer = null
    if (this.final) return
    this.view.flush()
    this.lastFlushAt = this.clock()
    this.bytesSinceFlush = false
    this.requestRecompute()
  }

  private requestRecompute(): void {
    this.dirty = true
    if (this.final || this.computing || this.recomputeTimer) return
    const interval = Math.max(this.options.minRecomputeMs ?? 150, 3 * this.lastComputeMs)
    const wait = Math.max(0, this.lastComputeAt + interval - this.clock(), this.deferUntil - this.clock())
    this.recomputeTimer = setTimeout(() => {
      this.recomputeTimer = null
      if (this.deferUntil > this.clock()) return this.requestRecompute()
      this.computing = this.recompute().finally(() => {
        this.computing = null
        if (this.dirty && !this.final) this.requestRecompute()
      })
    }, wait)
  }

  private async recompute(): Promise<void> {
    if (!this.dirty) return
    this.dirty = false
    const started = this.clock()
    const asOf = this.bytesSinceFlush ? this.lastFlushAt : started
    try {
      const run = await readRecording(this.port, {dir: this.options.recordDir, logName: RUN_LOG, runPath: this.options.runPath, logs: this.view.snapshot(), logBytes: this.logBytes, limits: this.limits, interim: true})
      if (this.final) return
      this.report = this.options.analyze(run)
      this.viewAsOf = asOf
    } catch (error) {
      // the recording is being written under us: the next round reads it again
      this.addNotice(`live analysis skipped a round: ${(error as Error).message}`)
    } finally {
      this.lastComputeAt = this.clock()
      this.lastComputeMs = this.lastComputeAt - started
      this.stats.recomputes++
      this.stats.recomputeMs += this.lastComputeMs
    }
    this.refresh()
  }

  private refresh(immediate = false): void {
    if (this.report) {
      const fresh = detectWarnings({
        report: this.report,
        timing: (id) => this.lines.timing(id),
        now: this.clock(),
        timeScale: this.timeScale,
        viewAsOf: this.final ? Infinity : this.bytesSinceFlush ? this.viewAsOf : Math.max(this.viewAsOf, this.lastFlushAt),
        raisedAt: this.wallClock().toISOString(),
        live: !this.final,
      }, this.raised)
      for (const w of fresh) {
        this.raised.add(`${w.key}:${w.code}`)
        this.warnings.push(w)
        this.emit('warning', w)
      }
      this.announce(this.report)
    }
    this.snapshot = this.model()
    this.scheduleEmit(immediate)
  }

  /** Turn decisions and outcomes not told yet (plain and JSON output). */
  private announce(report: AnalysisReport): void {
    for (const {task} of report.tasks) {
      const key = taskKey(task)
      const last = task.turns.at(-1)
      for (const t of task.turns) {
        const decision = t.coach.decision?.value
        if (!decision || this.announced.has(`${key}:${t.turn}`)) continue
        // a decision's line can be read before the criteria count that follows it: the turn is told once it is
        // complete (its count read, a later turn begun, the task ended or the run over), never with a count missing
        // that the next snapshot holds
        const complete = t.coach.criteriaMet !== null || t !== last || task.outcome !== null || this.final
        if (!complete) continue
        this.announced.add(`${key}:${t.turn}`)
        this.emit('turn', {taskId: task.taskId, attempt: task.attempt, turn: t.turn, decision, criteriaMet: t.coach.criteriaMet?.value ?? null, criteriaTotal: t.coach.criteriaTotal?.value ?? null})
      }
      if (task.outcome && !this.announced.has(`${key}:outcome`)) {
        this.announced.add(`${key}:outcome`)
        this.emit('outcome', {taskId: task.taskId, attempt: task.attempt, outcome: task.outcome.value, turns: task.turnCount?.value ?? null})
      }
    }
  }

  private model(): DashboardModel {
    return buildDashboardModel({
      report: this.report,
      timing: (id) => this.lines.timing(id),
      now: this.clock(),
      timeScale: this.timeScale,
      startedAt: this.startedAt,
      base: this.base,
      warnings: this.warnings,
    })
  }

  private scheduleEmit(immediate: boolean): void {
    const gap = 1000 / (this.options.maxUpdatesPerSecond ?? 10)
    const wait = immediate ? 0 : Math.max(0, this.lastEmitAt + gap - this.clock())
    if (this.emitTimer && !immediate) return
    if (this.emitTimer) clearTimeout(this.emitTimer)
    const fire = () => {
      this.emitTimer = null
      this.lastEmitAt = this.clock()
      this.stats.updates++
      this.emit('change')
    }
    if (wait === 0) fire()
    else this.emitTimer = setTimeout(fire, wait)
  }
}
