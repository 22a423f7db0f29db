import {clonePyJson} from '../python/json-numbers.js'
import type {LogicFlags} from '../changes.js'
import {NULL_SINK, type LogSink} from '../log-sink.js'
import {isPyDict, pyTypeName} from '../python/builtins.js'
import {pyStrGet} from '../python/repr.js'
import {pathName} from '../python/pathlib.js'
import {pyLower, pyTruthy} from '../python/strings.js'
import type {WorktreeView} from '../worktree.js'
import {recoverAgentReport} from './agent-report-recovery.js'
import {isValidFilePath, isValidPathSeed, sortedSet, stringList} from './file-paths.js'
import {dictGet, jsonDict, readJsonFile, type JsonFileInput} from './json-input.js'
import {writeBackResults} from './results-write-back.js'
import {fileExistenceFallback} from './task-file-promises.js'
import {PipelineTrace, type PipelineEvent} from './trace.js'
import type {GitChanges, JsonRecord} from './types.js'

export interface PlayerReportFromTaskWorkInput {
  readonly taskId: string
  readonly turn: number
  /** task_work_results.json as `_write_task_work_results` left it; null when the file is absent. */
  readonly taskWorkResults: JsonFileInput
  /** `TaskWorkResult.output`, i.e. the stream parser's `to_result()`. */
  readonly taskWorkOutput: JsonRecord | null
  /** null when git detection failed (GuardKit then skips the enrichment). */
  readonly gitChanges: GitChanges | null
  /** player_turn_{turn}.json as the agent wrote it, before the invoker rewrote it; null when absent. */
  readonly agentReport: JsonFileInput
  /** Task files, existing files (Fix 5 reads the task file and checks paths on disk). */
  readonly worktree: WorktreeView
}

export type PlayerReportFromTaskWorkResult =
  | {
      readonly ok: true
      /** The player_turn_{turn}.json the invoker writes (the Coach reads its promises). */
      readonly playerReport: JsonRecord
      /** task_work_results.json after the step (input unchanged unless written back); null when absent. */
      readonly taskWorkResultsAfter: unknown
      readonly taskWorkResultsUpdated: boolean
      readonly events: readonly PipelineEvent[]
    }
  /**
   * GuardKit raised out of the method (Fix 2 catches only JSON and I/O errors, so an agent report
   * that parses to a list raises AttributeError); nothing was written and the Player turn fails.
   */
  | {readonly ok: false; readonly exception: string; readonly events: readonly PipelineEvent[]}

const STEP = '_create_player_report_from_task_work'
const FILE_FIELDS = ['files_modified', 'files_created'] as const

/**
 * `AgentInvoker._create_player_report_from_task_work(task_id, turn, task_work_result)` (docs/guardkit-logic.md §4.4):
 * builds the player report from task_work_results.json, git and the parser output, then (fixed)
 * recovers the agent's own promises, falls back to file-existence promises and writes back.
 */
export function createPlayerReportFromTaskWork(input: PlayerReportFromTaskWorkInput, flags: LogicFlags, sink: LogSink = NULL_SINK): PlayerReportFromTaskWorkResult {
  const trace = new PipelineTrace()
  const report: JsonRecord = {
    task_id: input.taskId, turn: input.turn, files_modified: [], files_created: [], tests_written: [], tests_run: false,
    tests_passed: false, test_output_summary: '', implementation_notes: 'Implementation via task-work delegation',
    concerns: [], requirements_addressed: [], requirements_remaining: [],
  }
  const twrRead = readJsonFile(input.taskWorkResults)
  const twr = jsonDict(twrRead)
  if (twr) applyResults(report, twr, flags, trace)
  if (input.gitChanges) applyGit(report, input.gitChanges, twrRead.kind === 'absent', flags, trace)
  else trace.push({step: `${STEP}:git`, kind: 'skipped', field: 'files_created', message: 'git change detection failed, so the report has no git-detected files'})
  if (input.taskWorkOutput && pyTruthy(input.taskWorkOutput)) applyParserOutput(report, input.taskWorkOutput, flags, trace)
  const agentRead = readJsonFile(input.agentReport)
  // recoverAgentPromises (D9): `agent_written.get(...)` on a JSON list or scalar is not caught.
  if (flags.recoverAgentPromises && !pyTruthy(report.completion_promises) && agentRead.kind === 'value' && !isPyDict(agentRead.value)) {
    return {ok: false, exception: `AttributeError: '${pyTypeName(agentRead.value)}' object has no attribute 'get'`, events: trace.events}
  }
  recoverAgentReport(report, agentRead, input.taskId, flags, sink, trace)
  // fileExistencePromises (D10): Fix 5 runs only when nothing else produced promises.
  if (flags.fileExistencePromises && !pyTruthy(report.completion_promises)) {
    const promises = fileExistenceFallback(input.taskId, report, input.worktree, flags, sink, trace)
    if (promises) report.completion_promises = promises
  }
  const playerReport = clonePyJson(report)
  if (twrRead.kind === 'absent') return {ok: true, playerReport, taskWorkResultsAfter: null, taskWorkResultsUpdated: false, events: trace.events}
  if (!twr) {
    trace.push({step: `${STEP}:write-back`, kind: 'skipped', field: 'task_work_results.json', message: 'task_work_results.json is not a JSON object, so it was left as it was'})
    return {ok: true, playerReport, taskWorkResultsAfter: input.taskWorkResults, taskWorkResultsUpdated: false, events: trace.events}
  }
  const back = writeBackResults(input.taskId, playerReport, twr, flags, sink, trace)
  return {ok: true, playerReport, taskWorkResultsAfter: back.after, taskWorkResultsUpdated: back.updated, events: trace.events}
}

function applyResults(report: JsonRecord, twr: JsonRecord, flags: LogicFlags, trace: PipelineTrace): void {
  report.files_modified = clonePyJson(dictGet(twr, 'files_modified', []))
  report.files_created = clonePyJson(dictGet(twr, 'files_created', []))
  const created = stringList(report.files_created)
  const modified = stringList(report.files_modified)
  const info = twr.tests_info
  if (isPyDict(info) && pyTruthy(info)) {
    report.tests_run = dictGet(info, 'tests_run', false)
    report.tests_passed = dictGet(info, 'tests_passed', false)
    report.test_output_summary = dictGet(info, 'output_summary', '')
    // testsWrittenAlways (D8): legacy fills tests_written only here, from any "test" substring.
    if (!flags.testsWrittenAlways) report.tests_written = [...created, ...modified].filter((f) => pyLower(f).includes('test') || f.endsWith('_test.py'))
  }
  // testsWrittenAlways (D8): test_*/ *_test.py basenames of the pre-git lists, plus promise test_files.
  if (flags.testsWrittenAlways) report.tests_written = testsWritten(created, modified, twr.completion_promises)
  const audit = twr.plan_audit
  if (isPyDict(audit) && pyTruthy(audit)) {
    report.implementation_notes = `Implementation via task-work delegation. Files planned: ${pyStrGet(audit, 'files_planned', 0)}, Files actual: ${pyStrGet(audit, 'files_actual', 0)}`
  }
  // acrWriterPromises (docs/guardkit-logic.md §4.4): promises already in task_work_results.json go into the report.
  if (flags.acrWriterPromises && pyTruthy(twr.completion_promises)) {
    report.completion_promises = clonePyJson(twr.completion_promises)
    trace.push({step: `${STEP}:results`, kind: 'recovered', field: 'completion_promises', values: report.completion_promises as unknown[], flag: 'acrWriterPromises',
      message: 'completion_promises taken over from task_work_results.json'})
  }
}

function testsWritten(created: readonly string[], modified: readonly string[], promises: unknown): string[] {
  const fromLists = [...created, ...modified].filter((f) => {
    const name = pyLower(pathName(f))
    return name.includes('test_') || name.endsWith('_test.py')
  })
  const fromPromises = (Array.isArray(promises) ? promises : []).flatMap((p) => {
    const file = isPyDict(p) ? p.test_file : null
    if (typeof file !== 'string' || !file) return []
    const name = pathName(file)
    return (name.startsWith('test_') && name.endsWith('.py')) || name.endsWith('_test.py') ? [file] : []
  })
  return sortedSet([...fromLists, ...fromPromises])
}

function applyGit(report: JsonRecord, git: GitChanges, twrAbsent: boolean, flags: LogicFlags, trace: PipelineTrace): void {
  for (const field of FILE_FIELDS) {
    const current = stringList(report[field])
    const fromGit = field === 'files_created' ? git.created : git.modified
    const added = fromGit.filter((f) => !current.includes(f))
    if (added.length > 0) trace.push({step: `${STEP}:git`, kind: 'added', field, values: sortedSet(added), message: `git detection added ${added.length} entries to ${field}`})
    let merged = sortedSet([...current, ...fromGit])
    // gitWildcardFilter / gitFilterStrict (D7): Fix 4's filter, tightened to _is_valid_file_path by PV01.
    const filtering = flags.gitWildcardFilter || flags.gitFilterStrict
    const valid = flags.gitFilterStrict ? isValidFilePath : isValidPathSeed
    const bad = merged.filter((p) => !(filtering ? valid : isValidFilePath)(p))
    if (filtering) {
      merged = merged.filter((p) => valid(p))
      if (bad.length > 0) {
        trace.push({step: `${STEP}:git`, kind: 'filtered', field, values: bad, flag: flags.gitFilterStrict ? 'gitFilterStrict' : 'gitWildcardFilter',
          message: `${bad.length} entries that are not file paths were removed from ${field}`})
      }
    } else if (bad.length > 0) {
      trace.push({step: `${STEP}:git`, kind: 'spurious', field, values: bad, flag: 'gitWildcardFilter', message: `${field} keeps ${bad.length} entries that are not file paths`})
    }
    report[field] = merged
  }
  if (twrAbsent) report.implementation_notes = 'Implementation via task-work delegation (git-detected changes)'
}

function applyParserOutput(report: JsonRecord, output: JsonRecord, flags: LogicFlags, trace: PipelineTrace): void {
  for (const field of FILE_FIELDS) {
    const current = stringList(report[field])
    if (flags.parserOutputUnion) {
      // parserOutputUnion (D6): unioned, and not filtered again.
      const parsed = stringList(dictGet(output, field, []))
      const added = parsed.filter((f) => !current.includes(f))
      report[field] = sortedSet([...current, ...parsed])
      if (added.length > 0) {
        const bad = added.filter((p) => !isValidFilePath(p))
        trace.push({step: `${STEP}:parser-output`, kind: bad.length > 0 ? 'spurious' : 'added', field, values: added, flag: 'parserOutputUnion',
          message: `the parser's ${field} were merged into the git-detected ones${bad.length > 0 ? `, including ${bad.length} entries that are not file paths` : ''}`})
      }
    } else if (field in output) {
      // parserOutputUnion (D6): legacy replaces the git-enriched list with the parser's.
      const replacement = output[field]
      const kept = stringList(replacement)
      const lost = current.filter((f) => !kept.includes(f))
      report[field] = clonePyJson(replacement)
      if (lost.length > 0 || kept.some((p) => !isValidFilePath(p))) {
        trace.push({step: `${STEP}:parser-output`, kind: 'replaced', field, values: lost, flag: 'parserOutputUnion',
          message: `the parser's ${field} (${kept.length} entries) replaced the git-detected list, dropping ${lost.length} entries${kept.some((p) => !isValidFilePath(p)) ? ' and bringing in entries that are not file paths' : ''}`})
      }
    }
  }
  if ('tests_passed' in output) {
    const v = output.tests_passed
    if (typeof v === 'boolean') report.tests_passed = v
    else if (typeof v === 'number' && Number.isInteger(v)) {
      report.tests_passed = v > 0
      report.tests_passed_count = v
    } else report.tests_passed = pyTruthy(v)
    report.tests_run = true
  }
}
