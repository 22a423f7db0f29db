import type {LogicFlags} from '../changes.js'
import {LOGGERS, type LogSink} from '../log-sink.js'
import {pyTruthy} from '../python/strings.js'
import type {WorktreeView} from '../worktree.js'
import {invokerFileExistencePromises, type PromiseRecord} from './file-existence-promises.js'
import {stringList} from './file-paths.js'
import {dictGet} from './json-input.js'
import {findTaskFile, loadTaskMetadata} from './task-file.js'
import type {PipelineTrace} from './trace.js'

const STEP = '_create_player_report_from_task_work:fix5'

/**
 * TASK-FIX-PIPELINE-DATA-LOSS Fix 5 (D10) as it landed: with no promises left, find the task file
 * in the worktree and read criteria from its YAML frontmatter only. Criteria written in the
 * `## Acceptance Criteria` body give no promises (docs/guardkit-logic.md §2 S000 Fix 5 (a)).
 */
export function fileExistenceFallback(
  taskId: string,
  report: Readonly<Record<string, unknown>>,
  worktree: WorktreeView,
  flags: LogicFlags,
  sink: LogSink,
  trace: PipelineTrace,
): PromiseRecord[] | null {
  const lookup = findTaskFile(worktree, taskId)
  if (lookup.candidates.length > 1) {
    trace.push({step: STEP, kind: 'approximate', field: 'completion_promises', values: lookup.candidates,
      message: `several task files match ${taskId}*.md; GuardKit takes the first rglob yields, which depends on directory order`})
  }
  if (lookup.path === null) {
    // taskFileNotFoundWarning (D10): c39fb68a logs a WARNING here; its full text is not in docs/guardkit-logic.md, so it is not emitted.
    trace.push({step: STEP, kind: 'skipped', field: 'completion_promises', flag: flags.taskFileNotFoundWarning ? 'taskFileNotFoundWarning' : 'fileExistencePromises',
      message: `no task file ${taskId}*.md under tasks/ in the worktree, so no file-existence promises were generated${flags.taskFileNotFoundWarning ? ' (GuardKit warned about it)' : ' (silently)'}`})
    return null
  }
  const content = worktree.readText(lookup.path)
  if (content === null) {
    trace.push({step: STEP, kind: 'approximate', field: 'completion_promises', values: [lookup.path], message: `the content of ${lookup.path} was not recorded`})
    return null
  }
  const ac = dictGet(loadTaskMetadata(content), 'acceptance_criteria', [])
  if (!pyTruthy(ac)) {
    trace.push({step: STEP, kind: 'skipped', field: 'completion_promises', values: [lookup.path], flag: 'fileExistencePromises',
      message: `${lookup.path} has no acceptance_criteria in its frontmatter (Fix 5 does not read the body), so no file-existence promises were generated`})
    return null
  }
  const promises = invokerFileExistencePromises(stringList(report.files_created), stringList(report.files_modified), ac, worktree, flags)
  if (promises.length === 0) return null
  sink.emit('INFO', LOGGERS.invoker, `Generated ${promises.length} file-existence promises for ${taskId} (agent did not produce promises)`)
  trace.push({step: STEP, kind: 'generated', field: 'completion_promises', values: promises, flag: flags.sharedFileExistence ? 'sharedFileExistence' : 'fileExistencePromises',
    message: `${promises.length} file-existence promises generated from the frontmatter criteria of ${lookup.path}`})
  return promises
}
