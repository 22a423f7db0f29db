/**
 * Typed events read from a captured log: one per recognised logging record (docs/record-formats.md §5.4) or
 * console construct (docs/record-formats.md §5.5). Attribution (docs/record-formats.md §5.2) finds the task and turn of events that do not
 * name them.
 */
import type {CoachDecision, ImplementationMode} from '../../model/outcome.js'
import type {QualityGates} from '../../model/run-record.js'

export type PlayerPhase = 'player' | 'coach'

/** The payloads, keyed by kind. */
export interface EventPayloads {
  // run and wave framing
  'cli-start': {mode: 'feature' | 'task'; featureId: string | null; params: Readonly<Record<string, string>>}
  'cli-error': {message: string}
  'feature-init': {params: Readonly<Record<string, string>>}
  'waves-start': {waves: number; taskTimeout: number | null}
  'wave-start': {wave: number; taskIds: readonly string[]}
  'wave-done': {wave: number; passed: number; failed: number}
  'feature-task-timeout': {seconds: number}
  'feature-complete': {featureId: string; status: string; completed: string}
  'feature-failed': {message: string}
  // the per-task loop
  'ab-init': {params: Readonly<Record<string, string>>}
  'ab-start': {resume: boolean}
  'ab-loop': {fromTurn: number}
  'ab-exec-turn': {maxTurns: number}
  'ab-perspective-reset': Record<never, never>
  'ab-use-coach': {coach: 'validator' | 'llm'}
  'ab-recovery-attempt': {reason: string}
  'ab-recovery-ok': {method: string; files: number | null; tests: number | null; passing: boolean | null}
  'ab-synthetic': {step: 'build' | 'pass'; text: string}
  'ab-criteria-progress': {met: number; total: number; percent: number}
  'ab-criteria-counts': {verified: number; rejected: number; pending: number}
  'ab-ac': {id: string; text: string}
  'ab-checkpoint': {hash: string}
  'ab-coach-turn': {decision: 'approve' | 'feedback'}
  'ab-verdict-failed': {message: string}
  'ab-stall-warning': {signature: string; turns: number; passing: number; extended: boolean}
  'ab-stall-error': {wording: 'stall-error-v1' | 'stall-error-v2'; text: string; passing: number | null}
  'ab-partial-stall': {passing: number; turns: number; threshold: number}
  'ab-pollution-stall': {text: string}
  'ab-invocation-stall': {text: string; fatal: boolean}
  'ab-max-turns': {maxTurns: number}
  'ab-timeout-budget': {remaining: number | null; min: number | null}
  'ab-cancel': {where: 'between-player-and-coach' | 'after-turn' | 'other'}
  'ab-critical-error': Record<never, never>
  'ab-orchestration-failed': {message: string}
  'ab-complete': {decision: string; turns: number}
  'ab-rollback': {toTurn: number}
  // progress display
  'pr-started': {phase: PlayerPhase}
  'pr-completed': {status: 'success' | 'feedback' | 'error'; summary: string}
  'pr-summary': {decision: string; turns: number}
  // Player invocation
  'ai-invoke': {mode: ImplementationMode}
  'ai-mode': {mode: ImplementationMode}
  'ai-tool-keys': {tool: string; keys: readonly string[]}
  'ai-sdk-timeout': {seconds: number; text: string}
  'ai-sdk-turns': {used: number | null; max: number | null}
  /** `[TASK-X] Message summary: total=…`: the task's SDK session has ended (it names the task of an unnamed `SDK completed` just before). */
  'ai-summary': Record<never, never>
  'ai-player-report': {how: 'task-work' | 'direct' | 'synthetic' | 'written'}
  'ai-recovered': {what: string; count: number}
  'ai-git-detect': {modified: number; created: number}
  'ai-error': {text: string}
  /** A specialist agent the Player's phase runs (`run_specialist(test-orchestrator)`): hung, failed, its timeout capped. */
  'ai-specialist': {role: string; what: 'failed' | 'hang' | 'capped'; text: string}
  // Coach
  'cv-start': Record<never, never>
  /** The Coach itself failed in one of its phases: gathering evidence (Phase-A), running the tests, emitting its verdict. */
  'cv-phase-error': {phase: 'gather' | 'tests' | 'verdict'; text: string}
  'cv-profile': {taskType: string}
  'cv-gates': {gates: QualityGates}
  'cv-gates-failed': {text: string}
  'cv-tests-skipped': {reason: string}
  'cv-test-run': {command: string; via: string}
  'cv-test-env': {execution: string}
  /** `Starting Docker container for service: postgresql`: GuardKit started a service for the Coach's tests. */
  'cv-service-start': {service: string}
  'cv-test-result': {passed: boolean; seconds: number | null}
  'cv-test-class': {classification: string; confidence: string | null}
  'cv-zero-test': {text: string}
  'cv-dump-header': {met: number; total: number}
  'cv-dump-line': {field: 'ac' | 'requirements_met' | 'completion_promises' | 'matching_strategy' | '_synthetic'; value: string}
  'cv-missing': {missing: readonly string[] | null; raw: string}
  'cv-approved': Record<never, never>
  'cv-saved': Record<never, never>
  // checkpoints and state
  'wc-creating': {testsPassed: boolean; count: number}
  'wc-created': {hash: string; total: number}
  'wc-pollution': {failures: number; turns: readonly number[]}
  'wc-no-passing': Record<never, never>
  'st-capturing': Record<never, never>
  'graphiti-error': {errorKind: 'connection' | 'event-loop' | 'no-running-loop' | 'other'; text: string}
  /** A recognised record with nothing for the RunRecord (kept so stats count it as parsed). */
  note: {name: string}
  // console
  'c-prompt': {command: string}
  'c-spinner': {phase: PlayerPhase; maxTurns: number}
  'c-player': {status: 'success' | 'error'; text: string}
  'c-coach': {decision: CoachDecision; text: string}
  /** `status` null: a table whose `AutoBuild Summary (STATUS)` title was cut from the capture (box-assembler.ts). */
  'c-summary-table': {status: string | null; rows: readonly TableRow[]; endLine: number}
  'c-status-box': {status: string; lines: readonly string[]}
  'c-task-result': {ok: boolean; decision: string; turns: number | null}
  'c-task-timeout': {text: string}
  'c-wave': {wave: number; total: number; taskIds: readonly string[]}
  'c-task-status': {status: string; decision: string | null}
  'c-feature-result': {result: string}
  'c-traceback': {lines: readonly string[]}
  'c-resume-prompt': {choice: string}
  'c-other': {name: string}
  /** A Claude Code transcript's tool call (`⏺ Bash(…)`, `⏺ Task Output <id>`) or, with no tool, its prose (docs/ingest.md "Transcripts"). */
  'c-transcript': {tool: string | null; input: string}
  /** The wave display's line for a task its orchestrator raised on: `✗ TASK-X: Error - Orchestration failed: …`. */
  'c-task-error': {message: string}
  /** The transcript shows the shell running this AutoBuild run killed (`⏺ Kill Shell(…)`). */
  'c-run-killed': {source: string}
  /** The capture leaves a stretch of the output out here (`... [28226 characters truncated] ...`, console-grammar.ts). */
  'c-capture-cut': {omitted: number; unit: 'characters' | 'lines'}
}

export interface TableRow {
  readonly turn: number
  readonly phase: string
  readonly status: string
  readonly summary: string
  readonly line: number
}

export type EventKind = keyof EventPayloads

/** Where an event was read: kept beside the event (not in it) so events need no copying. */
export interface EventMeta {
  /** 1-based physical line where the event starts. */
  readonly line: number
  /** Record logger (null for console text). */
  readonly logger: string | null
  readonly level: string | null
}

/**
 * A typed event. `taskId`/`turn` are set when the text itself names them; `ts` is the
 * `[ISO-8601 Z]` timestamp printed with the text (2026-03 on), opaque.
 */
export type LogEvent = {[K in EventKind]: {readonly kind: K; readonly taskId?: string; readonly turn?: number; readonly ts?: string} & Readonly<EventPayloads[K]>}[EventKind]

export type EventOf<K extends EventKind> = Extract<LogEvent, {kind: K}>

/** What grammars return (the same shape; the ingest keeps the meta apart). */
export type ParsedEvent = LogEvent
