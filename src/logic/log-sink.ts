/**
 * GuardKit's log records as values. Logic functions that log take a sink and push to it; the
 * replay compares these with the records in the captured log, and the conformance runner with
 * the oracle's expected log lines.
 */
export type LogLevel = 'DEBUG' | 'INFO' | 'WARNING' | 'ERROR'

export interface LogRecord {
  readonly level: LogLevel
  readonly logger: string
  readonly message: string
}

export interface LogSink {
  emit(level: LogLevel, logger: string, message: string): void
}

export const LOGGERS = {
  autobuild: 'guardkit.orchestrator.autobuild',
  coach: 'guardkit.orchestrator.quality_gates.coach_validator',
  invoker: 'guardkit.orchestrator.agent_invoker',
  syntheticReport: 'guardkit.orchestrator.synthetic_report',
  progress: 'guardkit.orchestrator.progress',
  taskLoader: 'guardkit.tasks.task_loader',
  schemas: 'guardkit.orchestrator.schemas',
  featureOrchestrator: 'guardkit.orchestrator.feature_orchestrator',
  worktreeCheckpoints: 'guardkit.orchestrator.worktree_checkpoints',
} as const

/** A sink that keeps what it is given. */
export function collectingSink(): LogSink & {readonly records: LogRecord[]} {
  const records: LogRecord[] = []
  return {
    records,
    emit(level, logger, message) {
      records.push({level, logger, message})
    },
  }
}

/** A sink that drops everything, for callers that do not need the records. */
export const NULL_SINK: LogSink = {emit() {}}
