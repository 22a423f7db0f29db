import type {LogicFlags} from '../changes.js'
import {NULL_SINK, type LogSink} from '../log-sink.js'
import type {WorktreeView} from '../worktree.js'
import type {JsonFileInput} from './json-input.js'
import {createPlayerReportFromTaskWork} from './player-report-from-task-work.js'
import {runTaskWorkStream, type SdkMessage} from './stream-loop.js'
import {writeTaskWorkResults} from './task-work-results.js'
import type {PipelineEvent} from './trace.js'
import type {GitChanges, JsonRecord} from './types.js'

export interface TaskWorkTurnInput {
  readonly taskId: string
  readonly turn: number
  /** The SDK stream when it was recorded; otherwise the parser output as recorded (e.g. from a live capture). */
  readonly player: {readonly kind: 'stream'; readonly messages: readonly SdkMessage[]} | {readonly kind: 'parser-output'; readonly output: JsonRecord}
  readonly gitChanges: GitChanges | null
  /** player_turn_{turn}.json as the agent wrote it (null: it wrote none). */
  readonly agentReport: JsonFileInput
  readonly worktree: WorktreeView
  readonly documentationLevel?: string
  readonly designResults?: JsonRecord | null
  readonly timestamp: string
}

export interface TaskWorkTurn {
  /** `TaskWorkResult.output`. */
  readonly parserOutput: JsonRecord
  /** task_work_results.json as `_write_task_work_results` wrote it. */
  readonly resultsWritten: JsonRecord
  /** What the Coach reads: the player report and task_work_results.json after the invoker is done. */
  readonly coachInputs:
    | {readonly ok: true; readonly playerReport: JsonRecord; readonly taskWorkResults: JsonRecord}
    | {readonly ok: false; readonly exception: string}
  /** Every step's side-channel events, in order (parser, writer, report). */
  readonly events: readonly PipelineEvent[]
}

/**
 * One task-work Player turn as the invoker runs it (docs/guardkit-logic.md §4): stream → `TaskWorkStreamParser` →
 * `_write_task_work_results` → `_create_player_report_from_task_work`. This is what the replay calls
 * per turn and profile to rebuild the files the Coach read.
 */
export function runTaskWorkTurn(input: TaskWorkTurnInput, flags: LogicFlags, sink: LogSink = NULL_SINK): TaskWorkTurn {
  const events: PipelineEvent[] = []
  let parserOutput: JsonRecord
  if (input.player.kind === 'stream') {
    const stream = runTaskWorkStream(input.taskId, input.player.messages, flags, sink)
    parserOutput = stream.output as JsonRecord
    events.push(...stream.events)
  } else {
    parserOutput = input.player.output
  }
  const written = writeTaskWorkResults(input.taskId, parserOutput, flags, {
    timestamp: input.timestamp, documentationLevel: input.documentationLevel, designResults: input.designResults ?? null, sink,
  })
  events.push(...written.events)
  const report = createPlayerReportFromTaskWork({
    taskId: input.taskId, turn: input.turn, taskWorkResults: written.results, taskWorkOutput: parserOutput,
    gitChanges: input.gitChanges, agentReport: input.agentReport, worktree: input.worktree,
  }, flags, sink)
  events.push(...report.events)
  const coachInputs = report.ok
    ? {ok: true as const, playerReport: report.playerReport, taskWorkResults: report.taskWorkResultsAfter as JsonRecord}
    : {ok: false as const, exception: report.exception}
  return {parserOutput, resultsWritten: written.results, coachInputs, events}
}
