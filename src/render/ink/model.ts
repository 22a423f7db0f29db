import {neutraliseInline} from '../../shared/neutralise.js'

/**
 * What the live dashboard shows: a plain snapshot the live store computes (src/live/live-store.ts)
 * and the ink view only draws (Shopify's pattern: state separate from view). Everything is
 * already worded and counted here, so the components hold no logic beyond layout.
 */
export interface DashboardModel {
  /** The command being run, or the log being followed. */
  readonly title: string
  readonly mode: 'spawn' | 'attach'
  readonly status: 'starting' | 'running' | 'stopping' | 'finished'
  readonly elapsedSeconds: number
  readonly recordDir: string
  /** null while it is still being looked for in the command's output. */
  readonly worktree: string | null
  readonly tasks: readonly TaskRowView[]
  /** Keyed by TaskRowView.key. */
  readonly stall: Readonly<Record<string, StallView>>
  readonly explain: Readonly<Record<string, ExplainView>>
  readonly warnings: readonly WarningView[]
  /** The last lines the command printed (escape codes removed). */
  readonly logTail: readonly string[]
  /** Things the user should know that are not warnings about the build (invalid artifacts, polling, …). */
  readonly notices: readonly string[]
  readonly exit: {readonly code: number; readonly detail: string} | null
  /** The profile the running logic is replayed under (the run's era, else legacy). */
  readonly runningProfile: string
}

export interface TaskRowView {
  /** `TASK-X#attempt`. */
  readonly key: string
  readonly taskId: string
  readonly attempt: number
  /** `player`, `coach`, `waiting`, or the outcome once there is one. */
  readonly phase: string
  readonly done: boolean
  readonly ok: boolean | null
  readonly turn: number | null
  readonly maxTurns: number | null
  readonly criteriaMet: number | null
  readonly criteriaTotal: number | null
  readonly elapsedSeconds: number | null
  readonly timeoutSeconds: number | null
  readonly warnings: number
}

export interface StallView {
  readonly threshold: number
  readonly rows: readonly StallRowView[]
  /** Identical turns still needed before the detector fires (null: cannot tell yet); 0 once fired. */
  readonly remainingRunning: number | null
  readonly remainingFixed: number | null
  readonly firedRunning: number | null
  readonly firedFixed: number | null
  /** The fixed replay ended otherwise (e.g. `approved at turn 2`): no stall to wait for. */
  readonly endedFixed: string | null
  /**
   * The fixed replay is undetermined (docs/counterfactuals.md): each branch's ending with its condition, as the
   * verdict line words it ("a stall at turn 5 if …; otherwise cancelled (recorded) at turn 18"). No single
   * turn to count down to, so the window says this instead.
   */
  readonly fixedBranches: string | null
}

export interface StallRowView {
  readonly turn: number
  /** The recorded feedback's first line, shortened. */
  readonly feedback: string | null
  readonly raw: string | null
  readonly normalised: string | null
  /** Signature and count the running logic's detector used, and under `fixed`. */
  readonly running: {readonly signature: string | null; readonly count: number | null} | null
  readonly fixed: {readonly signature: string | null; readonly count: number | null} | null
}

export interface ExplainView {
  readonly happened: string
  readonly why: string
  readonly findings: readonly {readonly code: string; readonly severity: string; readonly turns: readonly number[]; readonly message: string}[]
  readonly doNow: readonly string[]
}

export interface WarningView {
  readonly id: string
  readonly key: string
  readonly taskId: string
  readonly attempt: number
  readonly code: string
  readonly severity: string
  /** The turn whose evidence raised it. */
  readonly turn: number | null
  readonly message: string
  /** ISO time it was raised. */
  readonly raisedAt: string
}

/** Where the view gets its snapshots (useSyncExternalStore's contract). */
export interface DashboardSource {
  getSnapshot(): DashboardModel
  subscribe(listener: () => void): () => void
}

/** What the user can ask for from the dashboard. */
export interface DashboardActions {
  /** `q`: stop the build (spawned) or stop following (attach); the caller has already confirmed. */
  quit(): void
  /** Ctrl-C in the dashboard (raw mode swallows the signal): as if the terminal sent SIGINT. */
  interrupt(): void
  /** A key was pressed: heavy work may wait a moment so the answer is drawn first. */
  activity?(): void
}

/**
 * The model with every text neutralised (src/shared/neutralise.ts): task ids, the command, paths,
 * feedback, warnings and the command's own output lines come from the build, and the dashboard
 * writes straight to the terminal. Every cell is one line, so each string is an inline value.
 */
export function neutraliseDashboard(model: DashboardModel): DashboardModel {
  return mapText(model) as DashboardModel
}

function mapText(value: unknown): unknown {
  if (typeof value === 'string') return neutraliseInline(value)
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map(mapText)
  // the stall and explain tables are keyed by task key, which must match the neutralised TaskRowView.key
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [neutraliseInline(k), mapText(v)]))
}
