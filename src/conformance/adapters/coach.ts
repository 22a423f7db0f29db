import type {LogicFlags} from '../../logic/changes.js'
import {classifyTestFailure} from '../../logic/coach/classify-test-failure.js'
import {detectTestCommand} from '../../logic/coach/detect-test-command.js'
import {qualityGatesAllFields, verifyQualityGates} from '../../logic/coach/quality-gates.js'
import {extractContentText, sdkIsErrorNoneHeuristic} from '../../logic/coach/sdk-test-run.js'
import {summarizeTestOutput} from '../../logic/coach/summarize-test-output.js'
import {profileFields, resolveTaskProfile} from '../../logic/coach/task-profile.js'
import {describeDispatch, dispatchIndependentTests, isCustomApiBase} from '../../logic/coach/test-dispatch.js'
import {detectTestsFromResults, normalizeToRelative} from '../../logic/coach/test-paths.js'
import {validate} from '../../logic/coach/validate.js'
import {autobuildPath} from '../../logic/coach/worktree-fs.js'
import {collectingSink, NULL_SINK} from '../../logic/log-sink.js'
import {isPyDict, PyException} from '../../logic/python/builtins.js'
import {relativeTo} from '../../logic/python/pathlib.js'
import {createVirtualWorktree, type WorktreeView} from '../../logic/worktree.js'
import {UnsupportedInput, type AdapterTable, type JsonObject} from './types.js'
import {pyJsonDumps} from '../../logic/python/json-dumps.js'

/** The oracle harness's worktree and the ids its validator was built with (docs/guardkit-logic.md §12, §6.1 examples). */
const ROOT = '/worktree/root'
const HARNESS_TASK_ID = 'TASK-X'
const HARNESS_TURN = 1

/** Python exceptions come back as the oracle writes them: `{"exception": "Type: message"}`. */
function raising<T>(run: () => T): T | {exception: string} {
  try {
    return run()
  } catch (error) {
    if (error instanceof PyException) return {exception: error.text}
    throw error
  }
}

/** Absent in this version: the vector cannot be evaluated against it. */
function requireFlag(flags: LogicFlags, on: boolean, what: string): void {
  if (!on) throw new UnsupportedInput(`${what} does not exist in this version`)
}

function optionalString(input: JsonObject, key: string): string | null {
  const value = input[key]
  if (value === null || value === undefined) return null
  if (typeof value !== 'string') throw new UnsupportedInput(`${key} is not a string`)
  return value
}

function optionalTurn(input: JsonObject): number | null {
  const turn = input['turn']
  if (turn === null || turn === undefined) return null
  if (typeof turn !== 'number' || !Number.isInteger(turn)) throw new UnsupportedInput('turn is not an integer')
  return turn
}

/**
 * The harness worktree, rebuilt per vector: `existing_files` (a trailing `/` is a directory),
 * `player_reports` ({turn: JSON or raw text}) under `.guardkit/autobuild/{reportTaskId}/`, and
 * optionally `task_work_results.json`. It lists every file, so anything else is absent.
 */
function harnessWorktree(input: JsonObject, reportTaskId: string | null, twr?: {taskId: string; value: unknown}): WorktreeView {
  const files: Record<string, string | null> = {}
  const existing = input['existing_files'] ?? []
  if (!Array.isArray(existing) || !existing.every((f) => typeof f === 'string')) throw new UnsupportedInput('existing_files is not a list of strings')
  for (const f of existing as string[]) files[f] = null
  const reports = input['player_reports'] ?? {}
  if (!isPyDict(reports)) throw new UnsupportedInput('player_reports is not an object')
  const shell = createVirtualWorktree({root: ROOT, files: {}})
  for (const [turn, report] of Object.entries(reports)) {
    if (!reportTaskId) throw new UnsupportedInput('player_reports without a task id to file them under')
    files[relative(autobuildPath(shell, reportTaskId, `player_turn_${turn}.json`))] = typeof report === 'string' ? report : pyJsonDumps(report)
  }
  if (twr && twr.value !== null && twr.value !== undefined) {
    // A string is the file's raw text (the harness's convention for player reports too): invalid JSON stays invalid.
    files[relative(autobuildPath(shell, twr.taskId, 'task_work_results.json'))] = typeof twr.value === 'string' ? twr.value : pyJsonDumps(twr.value)
  }
  return createVirtualWorktree({root: ROOT, files, missing: 'absent'})
}

function relative(absolute: string): string {
  const rel = relativeTo(absolute, ROOT)
  if (rel === null) throw new UnsupportedInput(`${absolute} leaves the worktree`)
  return rel
}

function profileOf(input: JsonObject) {
  const resolution = resolveTaskProfile(input['task_type'] ?? null)
  if (!resolution.ok) throw new UnsupportedInput(resolution.error)
  return resolution.profile
}

/** Oracle adapters for the coach functions (docs/guardkit-logic.md §6, §12). */
export const COACH_ADAPTERS: AdapterTable = {
  resolve_profile: (input, {flags}) =>
    raising(() => {
      const resolution = resolveTaskProfile(input['task_type'] ?? null)
      if (!resolution.ok) return {error: resolution.error}
      return {resolved: resolution.taskType, ...profileFields(resolution.profile, flags)}
    }),

  verify_quality_gates: (input) =>
    raising(() => qualityGatesAllFields(verifyQualityGates(input['task_work_results'] ?? {}, profileOf(input), input['skip_arch_review'] === true, NULL_SINK))),

  coach_validate: (input, {flags}) => {
    const taskId = optionalString(input, 'task_id') ?? HARNESS_TASK_ID
    const validatorTaskId = 'validator_task_id' in input ? optionalString(input, 'validator_task_id') : taskId
    const stub = input['independent_tests_stub']
    if (!isPyDict(stub)) throw new UnsupportedInput('independent_tests_stub is not an object')
    const view = harnessWorktree(input, validatorTaskId ?? taskId, {taskId, value: input['task_work_results']})
    const outcome = validate({
      taskId,
      validatorTaskId,
      turn: optionalTurn(input) ?? HARNESS_TURN,
      task: input['task'] ?? {},
      skipArchReview: input['skip_arch_review'] === true,
      context: optionalString(input, 'context'),
      view,
      independentTests: {kind: 'stub', result: stub},
      flags,
      sink: collectingSink(),
    })
    if (outcome.kind === 'raised') return {exception: outcome.exception}
    if (outcome.kind === 'insufficient') throw new UnsupportedInput(`not replayable: ${outcome.missing.join('; ')}`)
    return outcome.report
  },

  summarize_test_output: (input, {flags}) => {
    const output = input['output']
    if (typeof output !== 'string') throw new UnsupportedInput('output is not a string')
    const maxLength = input['max_length']
    if (maxLength === undefined || maxLength === null) return summarizeTestOutput(output, flags)
    if (typeof maxLength !== 'number' || !Number.isInteger(maxLength)) throw new UnsupportedInput('max_length is not an integer')
    return summarizeTestOutput(output, flags, maxLength)
  },

  classify_test_failure: (input, {flags}) => {
    // classifyFailure (D23): `_classify_test_failure` does not exist before 5c2b5d82.
    requireFlag(flags, flags.classifyFailure, '_classify_test_failure')
    const raw = input['test_output'] ?? null
    if (raw !== null && typeof raw !== 'string') throw new UnsupportedInput('test_output is not a string')
    const c = classifyTestFailure(raw, input['requires_infrastructure'] ?? null, flags)
    return c.confidence === null ? c.failureClass : [c.failureClass, c.confidence]
  },

  normalize_to_relative: (input, {flags}) => {
    // relPathDedup (D20): `_normalize_to_relative` does not exist before 5c2b5d82.
    requireFlag(flags, flags.relPathDedup, '_normalize_to_relative')
    const filepath = optionalString(input, 'filepath')
    if (filepath === null) throw new UnsupportedInput('filepath is not a string')
    return normalizeToRelative(filepath, optionalString(input, 'worktree') ?? ROOT)
  },

  detect_tests_from_results: (input, {flags}) =>
    raising(() => detectTestsFromResults(input['task_work_results'] ?? {}, harnessWorktree(input, null), flags, NULL_SINK)),

  detect_test_command: (input, {flags}) => {
    const taskId = optionalString(input, 'task_id')
    const validatorTaskId = 'validator_task_id' in input ? optionalString(input, 'validator_task_id') : taskId
    const view = harnessWorktree(input, validatorTaskId ?? taskId)
    return raising(() =>
      detectTestCommand({taskId, validatorTaskId, twr: input['task_work_results'] ?? null, turn: optionalTurn(input), view, flags, sink: NULL_SINK}),
    )
  },

  sdk_is_error_none_heuristic: (input, {flags}) => {
    // sdkTests (D19): the SDK test path does not exist before 5c2b5d82.
    requireFlag(flags, flags.sdkTests, 'the SDK test path')
    const text = optionalString(input, 'output_text')
    if (text === null) throw new UnsupportedInput('output_text is not a string')
    return {tests_passed: sdkIsErrorNoneHeuristic(text)}
  },

  run_independent_tests_dispatch: (input, {flags}) => {
    const env = {
      coachTestExecution: 'coach_test_execution' in input ? input['coach_test_execution'] : undefined,
      anthropicBaseUrl: optionalString(input, 'ANTHROPIC_BASE_URL'),
    }
    return describeDispatch(dispatchIndependentTests(input['requires_infrastructure'] ?? null, env, flags))
  },

  is_custom_api_base: (input, {flags}) => {
    // customBaseUrlSubprocess (D19): `_is_custom_api_base` does not exist before c3feae49.
    requireFlag(flags, flags.customBaseUrlSubprocess, '_is_custom_api_base')
    return isCustomApiBase(optionalString(input, 'ANTHROPIC_BASE_URL'))
  },

  extract_content_text: (input, {flags}) => {
    // sdkTests (D19): `_extract_content_text` belongs to the SDK test path.
    requireFlag(flags, flags.sdkTests, '_extract_content_text')
    return extractContentText(input['content'] ?? null)
  },
}
