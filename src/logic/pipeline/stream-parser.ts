import {clonePyJson} from '../python/json-numbers.js'
import type {LogicFlags} from '../changes.js'
import {LOGGERS, NULL_SINK, type LogSink} from '../log-sink.js'
import {isPyDict, pyInt} from '../python/builtins.js'
import {pyRepr} from '../python/repr.js'
import {pyHead, pyStrip, pyTruthy} from '../python/strings.js'
import {isTestFile, isValidFilePath, sortedSet} from './file-paths.js'
import {STREAM_PATTERNS as P} from './stream-patterns.js'
import {PipelineTrace} from './trace.js'

/** A phase the parser saw (`phases["phase_3"]`), keys in GuardKit's insertion order. */
export interface ParsedPhase {
  detected: true
  text?: string
  completed: boolean
}

/** `TaskWorkStreamParser.to_result()`: only the keys the parser found, in this order. */
export interface StreamParseResult {
  phases?: Record<string, ParsedPhase>
  tests_passed?: number
  tests_failed?: number
  coverage?: number
  quality_gates_passed?: boolean
  files_modified?: string[]
  files_created?: string[]
  test_files_created?: string[]
  architectural_review?: {score: number; solid?: number; dry?: number; yagni?: number}
}

const STEP = 'TaskWorkStreamParser'
/** Keys tried in order by the fixed `_track_tool_call` (S000 Fix 1). */
const PATH_KEYS = ['file_path', 'path', 'file', 'filePath'] as const

/**
 * `TaskWorkStreamParser` (docs/guardkit-logic.md §4.1): tracks Write/Edit tool calls and parses the agent's text.
 * Stateful like GuardKit's: call `trackToolCall` / `parseMessage` in stream order, then `toResult`.
 */
export class TaskWorkStreamParser {
  readonly trace = new PipelineTrace()
  private readonly phases: Record<string, ParsedPhase> = {}
  private testsPassed: number | null = null
  private testsFailed: number | null = null
  private coverage: number | null = null
  private qualityGatesPassed: boolean | null = null
  private readonly filesModified = new Set<string>()
  private readonly filesCreated = new Set<string>()
  private readonly testFilesCreated = new Set<string>()
  private archScore: number | null = null
  private subscores: {solid: number; dry: number; yagni: number} | null = null

  constructor(
    private readonly flags: LogicFlags,
    private readonly sink: LogSink = NULL_SINK,
  ) {}

  /** `_track_tool_call(tool_name, tool_args)`: Write → created, Edit → modified, by tool name only. */
  trackToolCall(toolName: string, toolArgs: Readonly<Record<string, unknown>>): void {
    const field = toolName === 'Write' ? 'files_created' : toolName === 'Edit' ? 'files_modified' : null
    let fp: unknown
    if (this.flags.trackToolKeys) {
      // trackToolKeys (D1): Python's `a or b or …` yields the first truthy value, whatever its type.
      fp = PATH_KEYS.map((k) => toolArgs[k]).find((v) => pyTruthy(v)) ?? PATH_KEYS.map((k) => toolArgs[k]).at(-1)
      if (!pyTruthy(fp) || typeof fp !== 'string') {
        this.sink.emit('DEBUG', LOGGERS.invoker, `Tool ${toolName} call has no recognizable file path key. Available keys: ${pyRepr(Object.keys(toolArgs))}`)
        return
      }
    } else {
      // trackToolKeys (D1): legacy reads file_path only.
      fp = toolArgs.file_path
      if (!pyTruthy(fp) || typeof fp !== 'string') {
        const other = PATH_KEYS.slice(1).find((k) => typeof toolArgs[k] === 'string' && toolArgs[k] !== '')
        if (field && other) {
          this.trace.push({step: `${STEP}._track_tool_call`, kind: 'dropped', field, values: [toolArgs[other]], flag: 'trackToolKeys',
            message: `${toolName} named the path under "${other}"; the parser read "file_path" only, so the file was not tracked`})
        }
        return
      }
    }
    if (toolName === 'Write') {
      this.filesCreated.add(fp)
      if (isTestFile(fp)) this.testFilesCreated.add(fp)
    } else if (toolName === 'Edit') {
      this.filesModified.add(fp)
    }
  }

  /** `parse_message(message)`: one call per text, in GuardKit's step order. */
  parseMessage(message: string): void {
    if (!message) return
    this.parseToolInvocations(message)
    const phase = P.phaseMarker.exec(message)
    if (phase) this.phases[`phase_${phase[1]!}`] = {detected: true, text: pyHead(phase[2]!, 100), completed: false}
    const done = P.phaseComplete.exec(message)
    if (done) {
      const key = `phase_${done[1]!}`
      if (this.phases[key]) this.phases[key].completed = true
      else this.phases[key] = {detected: true, completed: true}
    }
    const passed = P.testsPassed.exec(message)
    if (passed) this.testsPassed = pyInt(passed[1]!)
    const failed = P.testsFailed.exec(message)
    if (failed) this.testsFailed = pyInt(failed[1]!)
    const summary = P.pytestSummary.exec(message)
    if (summary) {
      if (summary[1]) {
        const n = pyInt(summary[1])
        if (this.testsPassed === null || n > this.testsPassed) this.testsPassed = n
      }
      if (summary[2]) {
        const n = pyInt(summary[2])
        if (this.testsFailed === null || n > this.testsFailed) this.testsFailed = n
      }
    }
    if (this.testsPassed === null) {
      const simple = P.pytestSimple.exec(message)
      if (simple) this.testsPassed = pyInt(simple[1]!)
    }
    const coverage = P.coverage.exec(message)
    if (coverage) this.coverage = pyDecimalFloat(coverage[1]!)
    if (P.qualityGatesPassed.test(message)) this.qualityGatesPassed = true
    else if (P.qualityGatesFailed.test(message)) this.qualityGatesPassed = false
    // filesPatternStrict (D3): the legacy patterns capture `**` and bare words.
    const strict = this.flags.filesPatternStrict
    for (const m of message.matchAll(strict ? P.filesModifiedStrict : P.filesModifiedLegacy)) this.addTextPath('files_modified', m[1]!, 'parse_message')
    for (const m of message.matchAll(strict ? P.filesCreatedStrict : P.filesCreatedLegacy)) this.addTextPath('files_created', m[1]!, 'parse_message')
    const arch = P.archScore.exec(message)
    if (arch) this.archScore = pyInt(arch[1]!)
    const sub = P.archSubscores.exec(message)
    if (sub) this.subscores = {solid: pyInt(sub[1]!), dry: pyInt(sub[2]!), yagni: pyInt(sub[3]!)}
  }

  /** `to_result()`: present keys only; file lists sorted. */
  toResult(): StreamParseResult {
    const out: StreamParseResult = {}
    if (Object.keys(this.phases).length > 0) out.phases = clonePyJson(this.phases)
    if (this.testsPassed !== null) out.tests_passed = this.testsPassed
    if (this.testsFailed !== null) out.tests_failed = this.testsFailed
    if (this.coverage !== null) out.coverage = this.coverage
    if (this.qualityGatesPassed !== null) out.quality_gates_passed = this.qualityGatesPassed
    if (this.filesModified.size > 0) out.files_modified = sortedSet(this.filesModified)
    if (this.filesCreated.size > 0) out.files_created = sortedSet(this.filesCreated)
    if (this.testFilesCreated.size > 0) out.test_files_created = sortedSet(this.testFilesCreated)
    if (this.archScore !== null) out.architectural_review = {score: this.archScore, ...(this.subscores ?? {})}
    return out
  }

  /** `_parse_tool_invocations`: an inline `<invoke>` call, then "File created/modified …" tool results. */
  private parseToolInvocations(message: string): void {
    const invoke = P.toolInvoke.exec(message)
    const path = P.toolFilePath.exec(message)
    if (invoke && path) this.trackToolCall(invoke[1]!, {file_path: pyStrip(path[1]!)})
    // Tool-result paths never update test_files_created.
    for (const m of message.matchAll(P.toolResultCreated)) this.addTextPath('files_created', pyStrip(m[1]!), '_parse_tool_invocations')
    for (const m of message.matchAll(P.toolResultModified)) this.addTextPath('files_modified', pyStrip(m[1]!), '_parse_tool_invocations')
  }

  private addTextPath(field: 'files_created' | 'files_modified', path: string, stage: string): void {
    const valid = isValidFilePath(path)
    // validFilePath (D4): text-derived and tool-result paths must pass _is_valid_file_path.
    if (this.flags.validFilePath && !valid) {
      this.trace.push({step: `${STEP}.${stage}`, kind: 'filtered', field, values: [path], flag: 'validFilePath',
        message: `"${path}" is not a file path (_is_valid_file_path), so the parser ignored it`})
      return
    }
    if (!valid) {
      // filesPatternStrict (D3) is what keeps `**` out of "**Files Created:**"; tool results only have D4.
      const flag = stage === 'parse_message' && !this.flags.filesPatternStrict ? 'filesPatternStrict' : 'validFilePath'
      this.trace.push({step: `${STEP}.${stage}`, kind: 'spurious', field, values: [path], flag,
        message: `the parser took "${path}" from the agent's text as a file path`})
    }
    ;(field === 'files_created' ? this.filesCreated : this.filesModified).add(path)
  }
}

/** `float(s)` of a `\d+(?:\.\d+)?` match: Python accepts any Unicode decimal digits. */
function pyDecimalFloat(s: string): number {
  return Number(Array.from(s, (ch) => (ch === '.' ? '.' : String(pyInt(ch)))).join(''))
}

/** Run the parser over oracle-style steps: `["tool", name, args]` and `["msg", text]`. */
export function parseStreamSteps(steps: readonly (readonly unknown[])[], flags: LogicFlags, sink: LogSink = NULL_SINK): TaskWorkStreamParser {
  const parser = new TaskWorkStreamParser(flags, sink)
  for (const step of steps) {
    if (step[0] === 'tool' && typeof step[1] === 'string' && isPyDict(step[2])) parser.trackToolCall(step[1], step[2])
    else if (step[0] === 'msg' && typeof step[1] === 'string') parser.parseMessage(step[1])
  }
  return parser
}
