import {
  buildAllUnmet,
  extractKeywords,
  hybridFallback,
  loadCompletionPromises,
  matchByPromises,
  matchByText,
  playerReportPath,
  stripCriterionPrefix,
  validateRequirements,
  type CoachContext,
} from '../../logic/coach/requirements/index.js'
import type {LogicFlags} from '../../logic/changes.js'
import {collectingSink, type LogRecord} from '../../logic/log-sink.js'
import {PyException, isPyDict, requirePyStr} from '../../logic/python/builtins.js'
import {relativeTo} from '../../logic/python/pathlib.js'
import {createVirtualWorktree} from '../../logic/worktree.js'
import {UnsupportedInput, type AdapterTable, type JsonObject} from './types.js'
import {pyJsonDumps} from '../../logic/python/json-dumps.js'

/** The oracle harness's worktree (docs/guardkit-logic.md §12). */
const ROOT = '/worktree/root'

/** Python exceptions come back as the oracle writes them: `{"exception": "Type: message"}`. */
function raising<T>(run: () => T): T | {exception: string} {
  try {
    return run()
  } catch (error) {
    if (error instanceof PyException) return {exception: error.text}
    throw error
  }
}

function dict(input: JsonObject, key: string): Record<string, unknown> {
  const value = input[key] ?? {}
  if (!isPyDict(value)) throw new UnsupportedInput(`${key} is not an object`)
  return value
}

function turnOf(input: JsonObject): number | null {
  const turn = input['turn']
  if (turn === null || turn === undefined) return null
  if (typeof turn !== 'number' || !Number.isInteger(turn)) throw new UnsupportedInput('turn is not an integer')
  return turn
}

/**
 * The harness wrote `player_reports` ({turn: JSON object or raw text}) under the task id the
 * vector names (`report_task_id`, else the validator's, else the results' own).
 */
function coachContext(input: JsonObject, flags: LogicFlags): CoachContext & {records: LogRecord[]} {
  const twr = dict(input, 'task_work_results')
  const validatorTaskId = input['validator_task_id']
  if (validatorTaskId !== undefined && validatorTaskId !== null && typeof validatorTaskId !== 'string') {
    throw new UnsupportedInput('validator_task_id is not a string')
  }
  const dirId = [input['report_task_id'], validatorTaskId, twr['task_id']].find((v) => typeof v === 'string' && v !== '') as string | undefined
  const files: Record<string, string> = {}
  for (const [turn, report] of Object.entries(dict(input, 'player_reports'))) {
    // With no task id anywhere GuardKit cannot locate reports, wherever the harness put them.
    if (dirId === undefined) break
    const rel = relativeTo(playerReportPath(ROOT, dirId, Number(turn)), ROOT)
    if (rel === null) throw new UnsupportedInput(`report path for ${dirId} leaves the worktree`)
    files[rel] = typeof report === 'string' ? report : pyJsonDumps(report)
  }
  const sink = collectingSink()
  return {taskId: (validatorTaskId as string | null | undefined) ?? null, worktree: createVirtualWorktree({root: ROOT, files}), flags, log: sink, records: sink.records}
}

const lines = (records: readonly LogRecord[], level: LogRecord['level']) =>
  records.filter((r) => r.level === level).map((r) => `${r.level}: ${r.message}`)

/** Oracle adapters for the requirements functions (docs/guardkit-logic.md §7, §12). */
export const REQUIREMENTS_ADAPTERS: AdapterTable = {
  strip_criterion_prefix: (input) => raising(() => stripCriterionPrefix(input['text'])),
  extract_keywords: (input) => raising(() => extractKeywords(requirePyStr(input['text'], 'lower'))),
  match_by_text: (input, {flags}) => raising(() => matchByText(input['acceptance_criteria'], input['requirements_met'], flags)),
  match_by_promises: (input, {flags}) => raising(() => matchByPromises(input['acceptance_criteria'], input['completion_promises'], flags)),
  hybrid_fallback: (input, {flags}) => {
    // hybridFallback (D24): the method does not exist before 723e5f4e.
    if (!flags.hybridFallback) throw new UnsupportedInput('_hybrid_fallback does not exist in this version')
    const ac = input['acceptance_criteria']
    return raising(() => hybridFallback(matchByPromises(ac, input['completion_promises'], flags), ac, input['requirements_addressed'], flags, collectingSink()).validation)
  },
  build_all_unmet: (input) => raising(() => buildAllUnmet(input['acceptance_criteria'])),
  load_completion_promises: (input, {flags}) => {
    const self = coachContext(input, flags)
    return raising(() => {
      const {promises} = loadCompletionPromises(dict(input, 'task_work_results'), turnOf(input), self)
      return {promises, info_logs: lines(self.records, 'INFO')}
    })
  },
  validate_requirements: (input, {flags}) => {
    const self = coachContext(input, flags)
    const task = 'acceptance_criteria' in input ? {acceptance_criteria: input['acceptance_criteria']} : {}
    const result = validateRequirements(task, dict(input, 'task_work_results'), turnOf(input), self)
    if (!result.ok) return {exception: result.exception}
    return {validation: result.validation, warnings: lines(self.records, 'WARNING')}
  },
}
