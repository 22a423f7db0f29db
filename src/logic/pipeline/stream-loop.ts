import type {LogicFlags} from '../changes.js'
import {LOGGERS, NULL_SINK, type LogSink} from '../log-sink.js'
import {isPyDict, pyStr, pyTypeName} from '../python/builtins.js'
import {pyRepr} from '../python/repr.js'
import {pyHead} from '../python/strings.js'
import {TaskWorkStreamParser, type StreamParseResult} from './stream-parser.js'
import type {PipelineEvent} from './trace.js'

/** One content block of a recorded SDK `AssistantMessage`. */
export type SdkBlock =
  | {readonly type: 'text'; readonly text: string}
  | {readonly type: 'tool_use'; readonly name: string; readonly input: unknown}
  | {readonly type: 'tool_result'; readonly content: unknown}

/** A recorded SDK message; only assistant messages feed the parser (tool results in user messages are ignored). */
export type SdkMessage =
  | {readonly type: 'assistant'; readonly blocks: readonly SdkBlock[]}
  | {readonly type: 'user' | 'system' | 'result'}

export interface StreamLoopResult {
  /** `parser.to_result()`: what `_write_task_work_results` receives. */
  readonly output: StreamParseResult
  readonly toolCount: number
  readonly events: readonly PipelineEvent[]
}

/**
 * The SDK stream loop of `_invoke_task_work_implement` (docs/guardkit-logic.md §4.2, [read]): text blocks and
 * assistant-side tool results are collected and parsed once, joined by `\n`, after the stream;
 * Write/Edit tool inputs are tracked as they arrive.
 */
export function runTaskWorkStream(taskId: string, messages: readonly SdkMessage[], flags: LogicFlags, sink: LogSink = NULL_SINK): StreamLoopResult {
  const parser = new TaskWorkStreamParser(flags, sink)
  const texts: string[] = []
  let toolCount = 0
  for (const message of messages) {
    if (message.type !== 'assistant') continue
    for (const block of message.blocks) {
      if (block.type === 'text') texts.push(block.text)
      else if (block.type === 'tool_result') texts.push(pyStr(block.content))
      else {
        toolCount++
        if (block.name !== 'Write' && block.name !== 'Edit') continue
        if (isPyDict(block.input)) {
          // toolInputKeysLog (D2): the diagnostic that exposed seed 000's key mismatch.
          if (flags.toolInputKeysLog) sink.emit('INFO', LOGGERS.invoker, `[${taskId}] ToolUseBlock ${block.name} input keys: ${pyRepr(Object.keys(block.input))}`)
          parser.trackToolCall(block.name, block.input)
        } else if (flags.toolInputKeysLog) {
          // toolInputKeysLog (D2)
          sink.emit('WARNING', LOGGERS.invoker, `[${taskId}] ToolUseBlock ${block.name} input is ${pyTypeName(block.input)}, not dict: ${pyHead(pyStr(block.input), 200)}`)
        } else {
          parser.trace.push({step: '_invoke_task_work_implement', kind: 'dropped', field: block.name === 'Write' ? 'files_created' : 'files_modified', values: [block.input], flag: 'toolInputKeysLog',
            message: `${block.name} input was a ${pyTypeName(block.input)}, not a dict, and nothing was logged about it`})
        }
      }
    }
  }
  parser.parseMessage(texts.join('\n'))
  return {output: parser.toResult(), toolCount, events: parser.trace.events}
}
