import {compareCodePoints} from '../../shared/code-point-order.js'
import {
  autobuildFileExistencePromises,
  buildStateRecoveryReport,
  createPlayerReportFromTaskWork,
  createSyntheticDirectModeReport,
  extractCodePatterns,
  extractCriterionKeywords,
  generateFileExistencePromises,
  generateGitAnalysisPromises,
  invokerFileExistencePromises,
  isValidFilePath,
  parseStreamSteps,
  writeDirectModeResults,
  writePlayerReportForDirectMode,
  writeTaskWorkResults,
  type GitChanges,
} from '../../logic/pipeline/index.js'
import {isPyDict} from '../../logic/python/builtins.js'
import {createVirtualWorktree, type WorktreeView} from '../../logic/worktree.js'
import {describeDirectModeMissingReport} from './pipeline-direct-flow.js'
import {UnsupportedInput, type AdapterTable, type JsonObject} from './types.js'

/** The oracle harness's worktree (docs/guardkit-logic.md §12). */
export const HARNESS_ROOT = '/worktree/root'
/** The harness replaces every written timestamp with this (docs/guardkit-logic.md §12). */
export const HARNESS_TIMESTAMP = '<ts>'

function strings(input: JsonObject, key: string): string[] {
  const v = input[key] ?? []
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw new UnsupportedInput(`input.${key} is not a list of strings`)
  return v as string[]
}

function str(input: JsonObject, key: string, fallback?: string): string {
  const v = input[key] ?? fallback
  if (typeof v !== 'string') throw new UnsupportedInput(`input.${key} is not a string`)
  return v
}

function int(input: JsonObject, key: string, fallback: number): number {
  const v = input[key] ?? fallback
  if (typeof v !== 'number' || !Number.isInteger(v)) throw new UnsupportedInput(`input.${key} is not an integer`)
  return v
}

function record(input: JsonObject, key: string): Record<string, unknown> {
  const v = input[key] ?? {}
  if (!isPyDict(v)) throw new UnsupportedInput(`input.${key} is not an object`)
  return v
}

function optionalString(input: JsonObject, key: string): string | null {
  const v = input[key]
  if (v === undefined || v === null) return null
  if (typeof v !== 'string') throw new UnsupportedInput(`input.${key} is not a string or null`)
  return v
}

/** `git_changes` as the harness's `_detect_git_changes` stub returned it (absent: nothing changed). */
function gitChanges(input: JsonObject): GitChanges {
  const git = record(input, 'git_changes')
  return {modified: strings(git, 'modified'), created: strings(git, 'created')}
}

/** The harness's worktree: `existing_files` (a trailing `/` is a directory) and the task file. */
function worktreeOf(input: JsonObject, extra: Record<string, string> = {}): WorktreeView {
  const files: Record<string, string | null> = {}
  for (const f of strings(input, 'existing_files')) files[f] = null
  const taskFile = input['task_file']
  if (isPyDict(taskFile) && typeof taskFile['path'] === 'string' && typeof taskFile['content'] === 'string') files[taskFile['path']] = taskFile['content']
  return createVirtualWorktree({root: HARNESS_ROOT, files: {...files, ...extra}, missing: 'absent'})
}

/** The agent's own player_turn_{turn}.json: `agent_written_player_report`, else `player_reports[turn]`. */
function agentReport(input: JsonObject, turn: number): unknown {
  if ('agent_written_player_report' in input) return input['agent_written_player_report']
  const reports = input['player_reports']
  return isPyDict(reports) ? (reports[String(turn)] ?? null) : null
}

/** A function that the vector's version does not have (docs/guardkit-logic.md §12: "function or parameter absent there"). */
function requireFlag(on: boolean, fn: string): void {
  if (!on) throw new UnsupportedInput(`${fn} does not exist in this version`)
}

/** Oracle adapters for the Player-side functions (docs/guardkit-logic.md §4, §5, §12). */
export const PIPELINE_ADAPTERS: AdapterTable = {
  parser: (input, {flags}) => {
    const steps = input['steps']
    if (!Array.isArray(steps) || !steps.every((s) => Array.isArray(s))) throw new UnsupportedInput('steps is not a list of steps')
    return parseStreamSteps(steps as unknown[][], flags).toResult()
  },
  is_valid_file_path: (input, {flags}) => {
    // validFilePath (D4): TASK-FIX-PV01 added the method.
    requireFlag(flags.validFilePath, '_is_valid_file_path')
    return isValidFilePath(str(input, 'path'))
  },
  write_task_work_results: (input, {flags}) => {
    const design = input['design_results']
    return writeTaskWorkResults(str(input, 'task_id'), record(input, 'result_data'), flags, {
      timestamp: HARNESS_TIMESTAMP,
      documentationLevel: str(input, 'documentation_level', 'standard'),
      designResults: isPyDict(design) ? design : null,
    }).results
  },
  write_direct_mode_results: (input, {flags}) =>
    writeDirectModeResults(str(input, 'task_id'), record(input, 'player_report'), outcomeOf(input), flags, HARNESS_TIMESTAMP),
  write_player_report_for_direct_mode: (input, {flags}) =>
    writePlayerReportForDirectMode(str(input, 'task_id'), int(input, 'turn', 1), record(input, 'player_report'), outcomeOf(input), flags),
  create_player_report_from_task_work: (input, {flags}) => {
    const turn = int(input, 'turn', 1)
    const output = input['task_work_output']
    const result = createPlayerReportFromTaskWork({
      taskId: str(input, 'task_id'),
      turn,
      taskWorkResults: input['task_work_results'] ?? null,
      taskWorkOutput: isPyDict(output) ? output : null,
      gitChanges: gitChanges(input),
      agentReport: agentReport(input, turn),
      worktree: worktreeOf(input),
    }, flags)
    if (!result.ok) return {exception: result.exception}
    return {player_report: result.playerReport, task_work_results_after: result.taskWorkResultsAfter}
  },
  create_synthetic_direct_mode_report: (input, {flags}) => {
    // directSyntheticReport (D13): the method arrived with c4d01fcf.
    requireFlag(flags.directSyntheticReport, '_create_synthetic_direct_mode_report')
    return createSyntheticDirectModeReport({
      taskId: str(input, 'task_id'), turn: int(input, 'turn', 1), gitChanges: gitChanges(input),
      acceptanceCriteria: input['acceptance_criteria'] ?? null, taskType: optionalString(input, 'task_type'),
    }, flags)
  },
  sr_generate_file_existence_promises: (input, {flags}) => {
    // sharedFileExistence (D16): synthetic_report.py was created by 71a5fb57.
    requireFlag(flags.sharedFileExistence, 'synthetic_report.generate_file_existence_promises')
    return generateFileExistencePromises(strings(input, 'files_created'), strings(input, 'files_modified'), input['acceptance_criteria'] ?? [],
      input['use_worktree'] === true ? worktreeOf(input) : null)
  },
  invoker_generate_file_existence_promises: (input, {flags}) => {
    // fileExistencePromises (D10): the invoker's helper came with Fix 5.
    requireFlag(flags.fileExistencePromises, 'AgentInvoker._generate_file_existence_promises')
    return invokerFileExistencePromises(strings(input, 'files_created'), strings(input, 'files_modified'), input['acceptance_criteria'] ?? [], worktreeOf(input), flags)
  },
  autobuild_generate_file_existence_promises: (input, {flags}) =>
    autobuildFileExistencePromises(strings(input, 'files_created'), strings(input, 'files_modified'), input['acceptance_criteria'] ?? [], flags),
  generate_git_analysis_promises: (input) =>
    generateGitAnalysisPromises(strings(input, 'files_created'), strings(input, 'files_modified'), input['acceptance_criteria'] ?? []),
  extract_code_patterns: (input) => extractCodePatterns(str(input, 'text')),
  // The oracle sorted the returned set.
  extract_criterion_keywords: (input) => extractCriterionKeywords(str(input, 'text')).sort(compareCodePoints),
  build_synthetic_report: (input, {flags}) =>
    buildStateRecoveryReport({
      turn: int(input, 'turn', 1),
      filesModified: strings(input, 'files_modified'),
      filesCreated: strings(input, 'files_created'),
      testsWritten: strings(input, 'tests_written'),
      testCount: int(input, 'test_count', 0),
      testsPassed: input['tests_passed'] === true,
      testOutputSummary: optionalString(input, 'test_output_summary') ?? optionalString(input, 'output_summary'),
      detectionMethod: str(input, 'detection_method', 'git_test_detection'),
      gitInsertions: int(input, 'git_insertions', 0),
      gitDeletions: int(input, 'git_deletions', 0),
    }, optionalString(input, 'original_error'), input['acceptance_criteria'] ?? [], optionalString(input, 'task_type'), flags, {timestamp: HARNESS_TIMESTAMP}).report,
  direct_mode_missing_report_flow: (input, {flags}) => describeDirectModeMissingReport({
    taskId: str(input, 'task_id', 'TASK-X'),
    turn: int(input, 'turn', 1),
    taskType: optionalString(input, 'task_type'),
    acceptanceCriteria: input['acceptance_criteria'] ?? [],
    git: {created: strings(input, 'git_created'), modified: strings(input, 'git_modified')},
  }, flags, {root: HARNESS_ROOT, timestamp: HARNESS_TIMESTAMP}),
}

function outcomeOf(input: JsonObject): {success: boolean; error: string | null} {
  const success = input['success'] ?? true
  if (typeof success !== 'boolean') throw new UnsupportedInput('input.success is not a boolean')
  return {success, error: optionalString(input, 'error')}
}
