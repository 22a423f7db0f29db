import type {Evidence, Fact} from './evidence.js'
import type {IngestIssue} from './ingest-issue.js'
import type {CoachDecision, ImplementationMode, Outcome} from './outcome.js'
import type {Signal} from './signal.js'

/**
 * Everything ingest recovered from RUN: the single input of replay and explain. Version-free:
 * raw shapes of every era are mapped onto it at the edge (src/ingest); the raw artifact JSON is
 * kept alongside for the model, which needs GuardKit's own dicts.
 */
export interface RunRecord {
  /** RUN as the user gave it. */
  readonly path: string
  /** Logs found, relative to RUN. */
  readonly logs: readonly string[]
  /** Worktrees (or copies) found, relative to RUN. */
  readonly worktrees: readonly string[]
  /** One entry per AutoBuild run captured (a shell prompt followed by an orchestration start). */
  readonly attempts: readonly RunAttempt[]
  /** One entry per task and attempt. */
  readonly tasks: readonly TaskRun[]
  readonly feature: FeatureRecord | null
  /** Documented version markers seen in the records, for era inference. */
  readonly eraMarkers: readonly EraMarker[]
  readonly ingestIssues: readonly IngestIssue[]
  /** Per logger: records parsed into typed events vs only counted (grammar gaps stay visible). */
  readonly loggerStats: readonly LoggerStat[]
  /** `.guardkit/config.yaml` of the (first) worktree, raw, when found. */
  readonly guardkitConfig?: {readonly file: string; readonly yaml: Readonly<Record<string, unknown>>} | null
  /** The manifest of a recording written by `record`/`live` (docs/recording-format.md), when RUN is one. */
  readonly fixture?: FixtureInfo | null
  /** GuardKit's event logs (`feature-events.jsonl`, `events.jsonl`; June 2026), rows as written. */
  readonly eventLogs?: readonly EventLogRecord[]
}

export interface EventLogRecord {
  readonly file: string
  readonly entries: readonly EventLogEntry[]
}

/** One row of an event log: a Player run of a task (`agent_role: player`) or a wave (`router`). */
export interface EventLogEntry {
  /** 1-based line in the file. */
  readonly line: number
  readonly runId: string | null
  readonly featureId: string | null
  readonly taskId: string | null
  /** `agent_role`: `player`, `router`, … */
  readonly role: string | null
  readonly attempt: number | null
  readonly timestamp: string | null
  readonly failureCategory: string | null
  /** The row as written (unknown fields kept). */
  readonly raw: Readonly<Record<string, unknown>>
}

export interface FixtureInfo {
  readonly file: string
  readonly toolName: string
  readonly toolVersion: string
  readonly createdBy: string | null
  readonly redacted: boolean | null
  /** Files listed in the manifest. */
  readonly files: number
}

export interface RunAttempt {
  /** From 1, in file order. */
  readonly attempt: number
  readonly file: string
  readonly startLine: number
  readonly endLine: number
  /** The shell command that started it, when captured. */
  readonly command: string | null
  readonly kind: 'feature' | 'task'
  readonly featureId: string | null
  readonly taskIds: readonly string[]
  readonly waves: readonly Wave[]
  /** `FEATURE RESULT: SUCCESS|FAILED`, `Feature orchestration complete: …, status=…`. */
  readonly featureResult: Fact<string> | null
  /** The log ends inside this attempt (no summary, a turn cut off). */
  readonly truncated: boolean
  readonly settings: RunSettings
  /** Signals of this run that no task run could be named for (set-up errors, shared services), in log order. */
  readonly signals?: readonly Signal[]
  readonly signalsDropped?: number
}

export interface RunSettings {
  readonly maxTurns: Fact<number> | null
  readonly sdkTimeoutSeconds: Fact<number> | null
  /** FeatureOrchestrator's per-task timeout (2400 s by default). */
  readonly taskTimeoutSeconds: Fact<number> | null
  readonly resetTurns: Fact<readonly number[]> | null
  readonly enablePerspectiveReset: Fact<boolean> | null
  readonly rollbackOnPollution: Fact<boolean> | null
  /** `fresh=True` of the run's start record: the worktree and its state were made anew. */
  readonly fresh?: Fact<boolean> | null
  /**
   * `coach_test_execution=…` of the Coach's `Test execution environment` records (the repository's
   * `autobuild.coach.test_execution`), with every such record (up to 500); `mixed` when they disagree.
   */
  readonly coachTestExecution?: Fact<string> | null
  /**
   * The services GuardKit started in a Docker container for the Coach's tests (`Starting Docker container for
   * service: …`), in first-seen order, with every such record (up to 500). A record of the run, not of a task:
   * the line names no task.
   */
  readonly serviceContainers?: Fact<readonly string[]> | null
  /** `max_parallel=N` of the run's start record: how many tasks of a wave it ran at once. */
  readonly maxParallel?: Fact<number> | null
}

export interface Wave {
  readonly wave: number
  readonly taskIds: readonly string[]
  readonly evidence: readonly Evidence[]
  /** Per task, the wave table's status (SUCCESS, FAILED, TIMEOUT, …) when printed. */
  readonly statuses: Readonly<Record<string, string>>
}

export interface FeatureRecord {
  readonly featureId: string
  /** Raw feature YAML (unknown fields kept). */
  readonly yaml: unknown
  readonly file: string
  /** Era of the YAML's shape (`feature_yaml.v1`, `feature_yaml.v2`), when read from a file. */
  readonly schema?: string
}

export interface EraMarker {
  /** Stable id of the marker (docs/era-markers.md lists them): stall-error-v1, stall-error-v2, synthetic-direct-log, … */
  readonly id: string
  readonly evidence: readonly Evidence[]
  readonly count: number
}

export interface LoggerStat {
  readonly logger: string
  readonly parsed: number
  readonly counted: number
}

export interface TaskRun {
  readonly taskId: string
  /** n-th AutoBuild run in the log, from 1 (docs/json-schema.md). */
  readonly attempt: number
  readonly featureId: string | null
  readonly mode: Fact<ImplementationMode> | null
  readonly taskType: Fact<string> | null
  readonly complexity: Fact<number> | null
  readonly maxTurns: Fact<number> | null
  /** The task's own `Orchestration complete: …, decision=D, turns=N`. */
  readonly outcome: Fact<Outcome> | null
  readonly turnCount: Fact<number> | null
  readonly turns: readonly TurnRecord[]
  /** The stall detector firing, as logged. */
  readonly stall: StallRecord | null
  readonly events: readonly TaskEvent[]
  /** Acceptance criteria texts, best source first (task file, coach report, 0/N dump, missing list). */
  readonly criteria: CriteriaRecord | null
  readonly taskFile: TaskFileRecord | null
  /** Artifact folder `.guardkit/autobuild/TASK-X/`, when found and paired with this attempt. */
  readonly artifactDir: string | null
  /** The per-task `AutoBuild Summary` table rows. */
  readonly summary: readonly SummaryRow[] | null
  /** Which records this task run was rebuilt from (docs/ingest.md has the precedence rules). */
  readonly sources?: {readonly log: boolean; readonly artifacts: boolean}
  /** Single-file artifacts of the task folder that belong to no one turn. */
  readonly taskArtifacts?: TaskLevelArtifacts | null
  /**
   * The exception that ended the run when GuardKit's orchestrator raised (`Orchestration failed for
   * TASK-X: …`): the outcome is then `error`, its turn count the turns started (0 before turn 1).
   */
  readonly error?: Fact<string> | null
  /** WARNING/ERROR records, failure lines and interrupts attributed to this task run (docs/ingest.md, "Signals"), in log order. */
  readonly signals?: readonly Signal[]
  /** Signals counted but not kept (per-task and per-logger caps). */
  readonly signalsDropped?: number
}

/** Files of `.guardkit/autobuild/TASK-X/` kept once per task (GuardKit overwrites them each turn). */
export interface TaskLevelArtifacts {
  readonly checkpoints: ArtifactVersion | null
  /** turn_context.json: the budget passed to the Player on its last turn (its `turn` says which). */
  readonly turnContext: ArtifactVersion | null
  readonly specialistResults: ArtifactVersion | null
  readonly stateTransitions: ArtifactVersion | null
  readonly phase4Summary: ArtifactVersion | null
  /** Files of kinds not interpreted (phase_4_checkpoint.json, unknown kinds), raw. */
  readonly others: readonly ArtifactVersion[]
}

export interface TurnRecord {
  readonly turn: number
  readonly player: PlayerTurn
  readonly coach: CoachTurn
  readonly stateRecovery: Fact<StateRecovery> | null
  readonly checkpoint: Fact<Checkpoint> | null
  readonly perspectiveReset: Fact<boolean> | null
  /** Progress-line timestamps, when the console printed them (ISO strings, opaque). */
  readonly startedAt: string | null
  readonly endedAt: string | null
  /** Raw artifacts of this turn (JSON as written; every version seen when a recording kept them). */
  readonly artifacts: TurnArtifacts
}

export interface PlayerTurn {
  /** The summary table's Player row: `feedback` when the report was missing and state recovery ran (db_max_turns_1). */
  readonly status: Fact<'success' | 'error' | 'feedback'> | null
  readonly error: Fact<string> | null
  readonly filesCreated: Fact<number> | null
  readonly filesModified: Fact<number> | null
  /** `[TASK] ToolUseBlock Write input keys: [...]` records (D2), one list per tool call. */
  readonly toolInputKeys: Fact<readonly (readonly string[])[]> | null
  /** How the report the Coach saw was produced. */
  readonly reportSource: Fact<'agent' | 'task-work-delegation' | 'direct-synthetic' | 'state-recovery' | 'direct-agent'> | null
  readonly promisesRecovered: Fact<number> | null
  readonly sdkTurns: Fact<{used: number; max: number | null; ceilingHit: boolean | null}> | null
  /** `… 2 tests (passing)` of the Player's summary: how many tests its results reported, and whether they passed. */
  readonly testsReported?: Fact<{count: number; passing: boolean}> | null
}

export interface CoachTurn {
  readonly decision: Fact<CoachDecision> | null
  readonly criteriaMet: Fact<number> | null
  readonly criteriaTotal: Fact<number> | null
  readonly verified: Fact<number> | null
  readonly rejected: Fact<number> | null
  readonly pending: Fact<number> | null
  readonly feedback: FeedbackRecord | null
  readonly gates: Fact<QualityGates> | null
  readonly testCommand: Fact<string> | null
  /** How the Coach ran its own tests, as `Running independent tests via …` says: `sdk`, `subprocess`, `shell` (no `via`), `isolated`. */
  readonly testVia?: Fact<string> | null
  readonly independentTests: Fact<{passed: boolean; durationSeconds: number | null; skipped?: boolean}> | null
  /** `Independent test verification failed for TASK-X (classification=…, confidence=…)` (D23). */
  readonly testFailureClass?: Fact<{classification: string; confidence: string | null}> | null
  readonly diagnosticDump: Fact<DiagnosticDump> | null
  /** Full criterion texts of `Requirements not met for TASK-X: missing [...]`. */
  readonly missingCriteria: Fact<readonly string[]> | null
  /** Issue categories of the Coach's report, when known (test_verification, coverage, …). */
  readonly issueCategories: Fact<readonly string[]> | null
  readonly zeroTestAnomaly: Fact<boolean> | null
  /**
   * The Coach itself failed this turn (its evidence gathering, its own test run, its verdict):
   * `verdict: …`, `gather: …`, `tests: …` with the logged reason (June 2026, the LLM Coach).
   */
  readonly error?: Fact<string> | null
}

export interface FeedbackRecord {
  readonly text: string
  /** full: the whole text; truncated: cut (at `truncatedAt` code points) by the progress line. */
  readonly completeness: 'full' | 'truncated'
  readonly truncatedAt: number | null
  readonly evidence: readonly Evidence[]
}

export interface QualityGates {
  readonly testsPassed: boolean | null
  readonly coverageMet: boolean | null
  readonly archReviewPassed: boolean | null
  readonly planAuditPassed: boolean | null
  readonly allPassed: boolean | null
  readonly testsRequired: boolean | null
  readonly coverageRequired: boolean | null
  readonly archReviewRequired: boolean | null
}

/** The `Criteria verification 0/N - diagnostic dump` WARNING block (docs/guardkit-logic.md §7.2), as logged. */
export interface DiagnosticDump {
  readonly met: number
  readonly total: number
  /** `AC text:` lines (cut at 100 code points by GuardKit). */
  readonly criteria: readonly string[]
  /** Everything after `requirements_met: ` (a Python repr). */
  readonly requirementsMet: string
  /** That repr read as a list of str, when it is one (not cut, not `(not used …)`). */
  readonly requirementsMetList?: readonly string[] | null
  /** Everything after `completion_promises: ` (`(not used)` or a repr). */
  readonly completionPromises: string
  readonly matchingStrategy: string
  readonly synthetic: boolean | null
  /** The block's lines verbatim. */
  readonly lines: readonly string[]
}

export interface StateRecovery {
  readonly reason: string | null
  readonly method: string | null
  readonly files: number | null
  readonly tests: number | null
  readonly testsPassing: boolean | null
}

export interface Checkpoint {
  readonly hash: string | null
  readonly testsPassed: boolean | null
  readonly testCount: number | null
}

export interface TurnArtifacts {
  /** player_turn_N.json: each version seen (a recording may hold the agent's and the invoker's). */
  readonly playerReport: readonly ArtifactVersion[]
  readonly coachReport: ArtifactVersion | null
  /** task_work_results.json as it stood after this turn, when known (single-turn file). */
  readonly taskWorkResults: readonly ArtifactVersion[]
  readonly feedbackFile: ArtifactVersion | null
  readonly workState: ArtifactVersion | null
  readonly coachEvidence: ArtifactVersion | null
  readonly turnState: ArtifactVersion | null
}

export interface ArtifactVersion {
  readonly file: string
  /** Parsed JSON, unknown fields kept. */
  readonly json: unknown
  /** Schema era recognised, e.g. `coach_turn.v2`. */
  readonly schema: string
  /** When a recording timed it (ISO), else null. */
  readonly seenAt: string | null
}

export interface StallRecord {
  readonly kind: 'feedback' | 'context-pollution' | 'player-invocation'
  readonly turn: number | null
  readonly signature: string | null
  /** Turns in the window, and criteria passing, as logged. */
  readonly windowTurns: number | null
  readonly criteriaPassing: number | null
  readonly extended: boolean
  /** The ERROR wording (stall-error-v1 / v2), an era marker. */
  readonly errorText: string | null
  readonly evidence: readonly Evidence[]
  /**
   * What the task's summary status box says stopped the loop, when it names it (docs/record-formats.md §5.5):
   * `reason` is its sentence (`Coach's agent-invocations gate rejected … for 3 consecutive turns (…)`), `coFired`
   * the stall sub-types it lists as having fired with it (`Co-fired stall sub-types: …`).
   */
  readonly recordedStop?: {readonly reason: string | null; readonly coFired: readonly string[]; readonly evidence: readonly Evidence[]}
}

/** Recorded boundaries and incidents of a task's loop; replay takes them as inputs. */
export type TaskEvent =
  | {readonly kind: 'feature-timeout'; readonly turn: number | null; readonly seconds: number | null; readonly evidence: readonly Evidence[]}
  | {readonly kind: 'cancelled'; readonly turn: number | null; readonly where: 'between-player-and-coach' | 'after-turn' | 'other'; readonly evidence: readonly Evidence[]}
  | {readonly kind: 'max-turns-exceeded'; readonly maxTurns: number; readonly evidence: readonly Evidence[]}
  | {readonly kind: 'timeout-budget-exhausted'; readonly turn: number | null; readonly evidence: readonly Evidence[]}
  | {readonly kind: 'critical-error'; readonly turn: number | null; readonly message: string | null; readonly evidence: readonly Evidence[]}
  | {readonly kind: 'orchestration-crash'; readonly turn: number | null; readonly message: string; readonly evidence: readonly Evidence[]}
  | {readonly kind: 'player-timeout'; readonly turn: number | null; readonly seconds: number | null; readonly evidence: readonly Evidence[]}
  | {readonly kind: 'context-pollution'; readonly turn: number | null; readonly failures: number | null; readonly turns: readonly number[]; readonly evidence: readonly Evidence[]}
  | {readonly kind: 'rollback'; readonly turn: number | null; readonly toCheckpoint: string | null; readonly evidence: readonly Evidence[]}
  | {readonly kind: 'partial-progress-warning'; readonly turn: number | null; readonly evidence: readonly Evidence[]}
  | {readonly kind: 'graphiti-error'; readonly turn: number | null; readonly errorKind: 'connection' | 'event-loop' | 'no-running-loop' | 'other'; readonly timestamp: string | null; readonly evidence: readonly Evidence[]}
  | {readonly kind: 'other'; readonly name: string; readonly turn: number | null; readonly detail: string; readonly evidence: readonly Evidence[]}

export interface CriteriaRecord {
  readonly texts: readonly string[]
  /** Where they came from; texts from a dump are cut at 100 code points. */
  readonly source: 'task-file' | 'coach-report' | 'missing-list' | 'diagnostic-dump' | 'player-promises'
  readonly complete: boolean
  readonly evidence: readonly Evidence[]
}

export interface TaskFileRecord {
  readonly file: string
  /** Parsed YAML frontmatter (unknown fields kept). */
  readonly frontmatter: Readonly<Record<string, unknown>>
  /** The markdown body after the frontmatter. */
  readonly body: string
  /** The raw file text (GuardKit's own parsers run on it). */
  readonly text: string
}

export interface SummaryRow {
  readonly turn: number
  readonly phase: string
  readonly status: string
  readonly summary: string
  readonly evidence: readonly Evidence[]
}
