import {clonePyJson} from '../python/json-numbers.js'
import type {LogicFlags} from '../changes.js'
import {LOGGERS, NULL_SINK, type LogSink} from '../log-sink.js'
import {isPyDict} from '../python/builtins.js'
import {pyFloatRepr} from '../python/format.js'
import {pyRepr} from '../python/repr.js'
import {pyTruthy} from '../python/strings.js'
import {isValidFilePath, sortedSet, stringList} from './file-paths.js'
import {dictGet as get} from './json-input.js'
import {PipelineTrace, type PipelineEvent} from './trace.js'
import type {JsonRecord} from './types.js'

export interface WriteTaskWorkResultsOptions {
  /** `datetime.now().isoformat()` as recorded, or a placeholder: the model has no clock. */
  readonly timestamp: string
  readonly documentationLevel?: string
  /** `.guardkit/autobuild/{task_id}/design_results.json`, when the worktree has one. */
  readonly designResults?: JsonRecord | null
  readonly sink?: LogSink
}

export interface WriteTaskWorkResultsResult {
  /** The `task_work_results.json` GuardKit writes (key order as written). */
  readonly results: JsonRecord
  readonly events: readonly PipelineEvent[]
}

const STEP = '_write_task_work_results'
const MAX_CREATED: Readonly<Record<string, number | null>> = {minimal: 2, standard: 2, comprehensive: null}

/**
 * `_write_task_work_results(task_id, result_data, documentation_level)` (docs/guardkit-logic.md §4.3): the file the
 * Coach reads first. `result_data` is the stream parser's `to_result()`, which never carries
 * promises, requirements or `tests_written`, so those stay empty unless a caller supplies them.
 */
export function writeTaskWorkResults(taskId: string, resultData: JsonRecord, flags: LogicFlags, options: WriteTaskWorkResultsOptions): WriteTaskWorkResultsResult {
  const sink = options.sink ?? NULL_SINK
  const trace = new PipelineTrace()
  const testsPassed = get(resultData, 'tests_passed', 0) as number | null
  const testsFailed = get(resultData, 'tests_failed', 0) as number | null
  const coverage = get(resultData, 'coverage', null) as number | null
  const qg = get(resultData, 'quality_gates_passed', null)
  const testsOk = testsPassed !== null && testsPassed > 0 && testsFailed === 0
  const completed = pyTruthy(qg) ? qg : testsOk
  let filesModified = sortedSet(stringList(get(resultData, 'files_modified', [])))
  let filesCreated = sortedSet(stringList(get(resultData, 'files_created', [])))
  const results: JsonRecord = {
    task_id: taskId,
    timestamp: options.timestamp,
    completed,
    phases: get(resultData, 'phases', {}),
    quality_gates: {
      tests_passing: testsFailed !== null ? testsFailed === 0 : null,
      tests_passed: testsPassed,
      tests_failed: testsFailed,
      coverage,
      // The threshold is hard-coded; the task type's coverage_threshold is never consulted.
      coverage_met: coverage !== null ? coverage >= 80 : null,
      all_passed: qg,
    },
    files_modified: filesModified,
    files_created: filesCreated,
    tests_written: sortedSet(stringList(get(resultData, 'tests_written', []))),
    summary: generateSummary(resultData),
  }
  const testFiles = stringList(resultData.test_files_created)
  if (testFiles.length > 0 && (results.tests_written as string[]).length === 0) {
    trace.push({step: STEP, kind: 'dropped', field: 'tests_written', values: testFiles,
      message: 'the parser saw test files being written, but the results writer fills tests_written only from result_data["tests_written"]'})
  }
  const review = resultData.architectural_review
  if (isPyDict(review) && pyTruthy(review)) {
    const codeReview: JsonRecord = {score: get(review, 'score', null)}
    for (const k of ['solid', 'dry', 'yagni']) if (k in review) codeReview[k] = review[k]
    results.code_review = codeReview
  }
  // acrWriterPromises (docs/guardkit-logic.md §2 S003): copied when present, but the parser output never has any.
  if (flags.acrWriterPromises && pyTruthy(resultData.completion_promises)) results.completion_promises = resultData.completion_promises
  const design = options.designResults
  if (design) {
    if ('architectural_review' in design) results.architectural_review = design.architectural_review
    if ('complexity_score' in design) results.complexity_score = design.complexity_score
  }
  for (const field of ['files_created', 'files_modified'] as const) {
    const list = field === 'files_created' ? filesCreated : filesModified
    const bad = list.filter((p) => !isValidFilePath(p))
    if (bad.length === 0) continue
    // writerPathFilter (D5): the written lists are filtered with _is_valid_file_path.
    if (flags.writerPathFilter) {
      const kept = list.filter((p) => isValidFilePath(p))
      if (field === 'files_created') filesCreated = kept
      else filesModified = kept
      results[field] = kept
      trace.push({step: STEP, kind: 'filtered', field, values: bad, flag: 'writerPathFilter', message: `${bad.length} entries that are not file paths were left out of ${field}`})
    } else {
      trace.push({step: STEP, kind: 'spurious', field, values: bad, flag: 'writerPathFilter', message: `task_work_results.json lists ${bad.length} entries in ${field} that are not file paths`})
    }
  }
  const level = options.documentationLevel ?? 'standard'
  const max = MAX_CREATED[level] ?? null
  if (max !== null && filesCreated.length > max) {
    const more = filesCreated.length > 5 ? '...' : ''
    sink.emit('WARNING', LOGGERS.invoker, `[${taskId}] Documentation level constraint violated: created ${filesCreated.length} files, max allowed ${max} for ${level} level. Files: ${pyRepr(filesCreated.slice(0, 5))}${more}`)
  }
  return {results: clonePyJson(results), events: trace.events}
}

/** `_generate_summary(result_data)`. Coverage comes from the parser as a float, hence `85.0%`. */
export function generateSummary(resultData: JsonRecord): string {
  const parts: string[] = []
  const passed = get(resultData, 'tests_passed', 0)
  const failed = get(resultData, 'tests_failed', 0)
  const coverage = get(resultData, 'coverage', null)
  const qg = get(resultData, 'quality_gates_passed', null)
  if (typeof passed === 'number' && passed > 0) parts.push(`${passed} tests passed`)
  if (typeof failed === 'number' && failed > 0) parts.push(`${failed} tests failed`)
  if (typeof coverage === 'number') parts.push(`${pyFloatRepr(coverage)}% coverage`)
  if (qg === true) parts.push('all quality gates passed')
  else if (qg === false) parts.push('quality gates failed')
  return parts.length > 0 ? parts.join(', ') : 'Implementation completed'
}
