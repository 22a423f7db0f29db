import {NULL_SINK} from '../../logic/log-sink.js'
import {autoDetectDirectMode, extractAcceptanceCriteria, parseTaskString, taskFlagMode, tasksJsonMode} from '../../logic/mode/index.js'
import {PyException, isPyDict} from '../../logic/python/builtins.js'
import {UnsupportedInput, type AdapterTable, type JsonObject} from './types.js'

function raising<T>(run: () => T): T | {exception: string} {
  try {
    return run()
  } catch (error) {
    if (error instanceof PyException) return {exception: error.text}
    throw error
  }
}

function text(input: JsonObject, key: string): string {
  const value = input[key]
  if (typeof value !== 'string') throw new UnsupportedInput(`${key} is not a string`)
  return value
}

/** Oracle adapters for the mode functions (docs/guardkit-logic.md §9, §12). */
export const MODE_ADAPTERS: AdapterTable = {
  auto_detect_direct_mode: (input, {flags}) => {
    const taskData = input['task_data']
    if (!isPyDict(taskData)) throw new UnsupportedInput('task_data is not an object')
    const taskId = typeof input['task_id'] === 'string' ? input['task_id'] : 'TASK-X'
    return raising(() => autoDetectDirectMode(taskId, taskData, flags, NULL_SINK).mode)
  },
  parse_task_string: (input, {flags}) => {
    const count = input['acceptance_criteria_count']
    if (count === undefined) return raising(() => parseTaskString(text(input, 'task_str'), flags))
    // acCountGuard (D17): the parameter does not exist before 71a5fb57.
    if (!flags.acCountGuard) throw new UnsupportedInput('parse_task_string has no acceptance_criteria_count parameter in this version')
    if (typeof count !== 'number') throw new UnsupportedInput('acceptance_criteria_count is not a number')
    return raising(() => parseTaskString(text(input, 'task_str'), flags, count))
  },
  extract_acceptance_criteria: (input, {flags}) => {
    const metadata = input['metadata'] ?? {}
    if (!isPyDict(metadata)) throw new UnsupportedInput('metadata is not an object')
    return extractAcceptanceCriteria(text(input, 'content'), metadata, flags)
  },
  generate_feature_yaml_tasks_json_mode: (input, {flags}) => raising(() => tasksJsonMode(input['task'], flags)),
  generate_feature_yaml_task_flag_mode: (input, {flags}) => raising(() => taskFlagMode(text(input, 'argv_task'), flags)),
}
