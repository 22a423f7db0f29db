import {pyLower} from '../python/strings.js'
import {isDict, pyStr} from './py-values.js'

/** A `ToolResultBlock` from a `UserMessage` of the SDK test run. */
export interface SdkToolResult {
  readonly content: unknown
  /** `True`, `False`, or `None` when the SDK did not set it. */
  readonly isError: boolean | null
}

/**
 * `_extract_content_text(content)`: a str as is, `None` as `""`, a list as each item's `text` (or
 * `str(item)`, which for a dict is its repr) joined by newlines, anything else `str()`.
 */
export function extractContentText(content: unknown): string {
  if (content === null || content === undefined) return ''
  if (typeof content === 'string') return content
  if (Array.isArray(content)) return content.map((item) => (isDict(item) && 'text' in item ? pyStr(item.text) : pyStr(item))).join('\n')
  return pyStr(content)
}

const PASS_WORDS = ['passed', 'ok', 'success']
const FAIL_WORDS = ['failed', 'error', 'errors', 'failure']

/**
 * When no tool result carried `is_error`, the SDK path guesses from the text: a pass word and no
 * fail word. Substrings again, so `errors: 0, 10 passed` is a failure and `token refreshed` a pass.
 */
export function sdkIsErrorNoneHeuristic(outputText: string): boolean {
  const lower = pyLower(outputText)
  return PASS_WORDS.some((w) => lower.includes(w)) && !FAIL_WORDS.some((w) => lower.includes(w))
}

export interface SdkRunInterpretation {
  readonly testsPassed: boolean
  /** The text summarised and kept as `raw_output`. */
  readonly outputText: string
  /** How pass/fail was decided: the last non-None `is_error`, or the text heuristic. */
  readonly decidedBy: 'is_error' | 'heuristic'
}

/**
 * `_run_tests_via_sdk` on a completed stream: the output is the last non-empty tool result, else
 * the assistant text, else `"No output"`; pass/fail is the last non-None `is_error`, else the
 * heuristic. Assistant text blocks are joined with newlines (the separator is not pinned by docs/guardkit-logic.md).
 */
export function interpretSdkRun(toolResults: readonly SdkToolResult[], assistantText: readonly string[]): SdkRunInterpretation {
  let toolText = ''
  let isError: boolean | null = null
  for (const block of toolResults) {
    const text = extractContentText(block.content)
    if (text) toolText = text
    if (block.isError !== null) isError = block.isError
  }
  const outputText = toolText || assistantText.join('\n') || 'No output'
  if (isError !== null) return {testsPassed: !isError, outputText, decidedBy: 'is_error'}
  return {testsPassed: sdkIsErrorNoneHeuristic(outputText), outputText, decidedBy: 'heuristic'}
}
