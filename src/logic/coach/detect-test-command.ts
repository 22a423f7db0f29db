import {compareCodePoints} from '../../shared/code-point-order.js'
import type {LogicFlags} from '../changes.js'
import {LOGGERS, type LogSink} from '../log-sink.js'
import {pyLower, pyStrip, pyTruthy} from '../python/strings.js'
import type {WorktreeView} from '../worktree.js'
import {isDict, pyGet, PyException} from './py-values.js'
import {fnmatchToRegExp, globRecursive} from './test-glob.js'
import {detectTestsFromResults, isTestFileName, pytestCommand} from './test-paths.js'
import {autobuildPath, existsInWorktree} from './worktree-fs.js'

/** Git facts the cumulative-diff fallback needs; GuardKit shells out for them, the replay records them. */
export interface CumulativeDiffFacts {
  /**
   * Lines of `git diff --name-only <first checkpoint>~1 HEAD`. `null`: git failed (the fallback finds
   * nothing); absent: not recorded (the question is noted in `unknowns`).
   */
  readonly cumulativeDiff?: readonly string[] | null
}

export interface DetectTestCommandInput {
  /** The `task_id` argument; falsy means the project-level detection (not used by the orchestrator). */
  readonly taskId: string | null
  /** The validator's own `task_id`, which locates checkpoints.json and prior player reports. */
  readonly validatorTaskId: string | null
  readonly twr: unknown
  readonly turn: number | null
  readonly view: WorktreeView
  readonly git?: CumulativeDiffFacts
  readonly flags: LogicFlags
  readonly sink: LogSink
  /** Questions that recorded facts could not answer (besides the view's own). */
  readonly unknowns?: string[]
}

/** The project-level pytest run: the whole `tests/` directory. */
const PROJECT_PYTEST = pytestCommand(['tests/'])

/**
 * `CoachValidator._detect_test_command(task_id, twr, turn)` (docs/guardkit-logic.md §6.5). With a task id: the
 * results' file lists, then the glob `tests/**\/test_{prefix}*.py`, then (fixed) the cumulative
 * git diff, promise `test_file`s and prior player reports; `null` means independent verification
 * is skipped. Without one: a project-level command from marker files.
 */
export function detectTestCommand(input: DetectTestCommandInput): string | null {
  const {taskId, twr, view, flags, sink} = input
  if (!taskId) return detectProjectCommand(view)
  if (pyTruthy(twr)) {
    const fromResults = detectTestsFromResults(twr, view, flags, sink)
    if (fromResults) return fromResults
  }
  const prefix = pyLower(taskId.replaceAll('-', '_'))
  const pattern = `tests/**/test_${prefix}*.py`
  const globbed = globRecursive(view, 'tests', `test_${prefix}*.py`)
  if (globbed.length > 0) return pytestCommand(globbed)
  sink.emit('INFO', LOGGERS.coach, `No task-specific tests found for ${taskId}, skipping independent verification. Glob pattern tried: ${pattern}`)
  // cumulativeDiffTests (D21): tests added anywhere since the first checkpoint.
  if (flags.cumulativeDiffTests) {
    const files = testsFromCumulativeDiff(input)
    if (files.length > 0) {
      sink.emit('INFO', LOGGERS.coach, `Found test files via cumulative diff for ${taskId}: ${files.length} file(s)`)
      return pytestCommand(files)
    }
  }
  // promiseTestFiles (D21): test files the Player named in its completion promises.
  if (flags.promiseTestFiles) {
    const files = testsFromPromises(twr, view)
    if (files.length > 0) {
      sink.emit('INFO', LOGGERS.coach, `Found test files via completion_promises for ${taskId}: ${files.length} file(s)`)
      return pytestCommand(files)
    }
  }
  // priorReportTests (D21): file lists of earlier turns' player reports, most recent first.
  if (flags.priorReportTests) {
    const fromReports = testsFromPriorReports(input)
    if (fromReports) return fromReports
  }
  return null
}

function detectProjectCommand(view: WorktreeView): string {
  if (['pytest.ini', 'pyproject.toml', 'requirements.txt'].some((f) => existsInWorktree(view, f))) return PROJECT_PYTEST
  if (existsInWorktree(view, 'package.json')) return 'npm test'
  const csproj = fnmatchToRegExp('*.csproj')
  if (view.listFiles('.').some((f) => !f.includes('/') && csproj.test(f))) return 'dotnet test'
  // GuardKit logs a WARNING here whose text docs/guardkit-logic.md does not give; the orchestrator never takes this branch.
  return PROJECT_PYTEST
}

function testsFromCumulativeDiff(input: DetectTestCommandInput): string[] {
  const {validatorTaskId, view, git, unknowns} = input
  if (!validatorTaskId) return []
  const text = view.readText(autobuildPath(view, validatorTaskId, 'checkpoints.json'))
  if (text === null) return []
  const hash = firstCheckpointHash(text)
  if (hash === null) return []
  const lines = git?.cumulativeDiff
  if (lines === undefined) {
    unknowns?.push(`git diff --name-only ${hash}~1 HEAD`)
    return []
  }
  if (lines === null) return []
  const files = lines.filter((f) => pyStrip(f) !== '' && isDiffTestFile(f) && existsInWorktree(view, f))
  return [...new Set(files)].sort(compareCodePoints)
}

/** A diff line counts when its basename starts `test_` and the line ends `.py`, or it ends `_test.py`. */
function isDiffTestFile(f: string): boolean {
  const base = f.slice(f.lastIndexOf('/') + 1)
  return (base.startsWith('test_') && f.endsWith('.py')) || f.endsWith('_test.py')
}

function firstCheckpointHash(text: string): string | null {
  try {
    const data: unknown = JSON.parse(text)
    const list = isDict(data) ? data.checkpoints : null
    const first = Array.isArray(list) ? list[0] : null
    const hash = isDict(first) ? first.commit_hash : null
    return typeof hash === 'string' && hash ? hash : null
  } catch {
    return null
  }
}

function testsFromPromises(twr: unknown, view: WorktreeView): string[] {
  if (!pyTruthy(twr)) return []
  const promises = pyGet(twr, 'completion_promises', [])
  if (!Array.isArray(promises)) return []
  const files = promises
    .map((p) => (isDict(p) ? p.test_file : null))
    .filter((tf): tf is string => typeof tf === 'string' && tf !== '' && isTestFileName(tf) && existsInWorktree(view, tf))
  return [...new Set(files)].sort(compareCodePoints)
}

function testsFromPriorReports(input: DetectTestCommandInput): string | null {
  const {turn, validatorTaskId, view, flags, sink} = input
  if (!turn || !validatorTaskId) return null
  for (let t = turn - 1; t >= 1; t--) {
    const path = autobuildPath(view, validatorTaskId, `player_turn_${t}.json`)
    if (!view.exists(path)) continue
    const text = view.readText(path)
    if (text === null) continue
    let report: unknown
    try {
      report = JSON.parse(text)
    } catch {
      continue
    }
    try {
      const cmd = detectTestsFromResults(report, view, flags, sink)
      if (cmd) return cmd
    } catch (error) {
      // A report of the wrong shape is skipped like unreadable JSON.
      if (!(error instanceof PyException)) throw error
    }
  }
  return null
}
