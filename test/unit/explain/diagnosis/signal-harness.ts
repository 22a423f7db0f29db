import {classifyAll, taskSignals, type TaskSignals} from '../../../../src/explain/diagnosis/task-signals.js'
import type {Catalogue, GuardkitChanges} from '../../../../src/explain/diagnosis/catalogue/rule.js'
import {createLogIngest} from '../../../../src/ingest/log/ingest.js'
import {mergeArtifacts} from '../../../../src/ingest/merge-artifacts.js'
import type {RunRecord} from '../../../../src/model/run-record.js'

/** An authored log around the lines under test: one task, in its first turn, Player then Coach. */
export const TASK = 'TASK-ABC-001'
const RUN = [
  'dev@box proj % guardkit autobuild task TASK-ABC-001',
  `INFO:guardkit.cli.autobuild:Starting orchestration for ${TASK} (resume=False)`,
  `INFO:guardkit.orchestrator.autobuild:Starting orchestration for ${TASK} (resume=False)`,
]
const BEFORE = [
  ...RUN,
  'INFO:guardkit.orchestrator.autobuild:Executing turn 1/5',
  'INFO:guardkit.orchestrator.progress:Started turn 1: Player Implementation',
  `INFO:guardkit.orchestrator.agent_invoker:Invoking Player via task-work delegation for ${TASK} (turn 1)`,
]
const COACH = `INFO:guardkit.orchestrator.quality_gates.coach_validator:Starting Coach validation for ${TASK} turn 1`

/** The lines after the run's start (and, unless `turns` says the lines start their own, turn 1's Player). */
export function runOf(lines: readonly string[], o: {ownTurns?: boolean} = {}): RunRecord {
  const ingest = createLogIngest()
  ingest.startFile('run.log')
  for (const line of [...(o.ownTurns === true ? RUN : BEFORE), ...lines]) ingest.push(line)
  const fromLogs = ingest.finish()
  return mergeArtifacts({runPath: 'run.log', fromLogs, worktrees: [], fixture: null, issues: []})
}

/**
 * The lines through ingest, then the task's signals classified: Player-side lines in the Player's
 * part of turn 1, feedback lines (`⚠ Feedback: …`) after the Coach has started.
 */
export function signalsOf(lines: readonly string[], catalogue: Catalogue, guardkit?: GuardkitChanges): TaskSignals {
  // an example may be several physical lines (a traceback), joined by \n
  const placed = lines.flatMap((l) => l.split('\n')).flatMap((l) => (/^\s*⚠ (?:\[[^\]]+\] )?Feedback:/.test(l) ? [COACH, l] : [l]))
  const run = runOf(placed)
  const task = run.tasks.find((t) => t.taskId === TASK)
  if (task === undefined) {
    // a line that ends the run before the task's loop (an interrupt, a set-up error): the run's signals
    const signals = run.attempts.flatMap((a) => a.signals ?? [])
    const rules = classifyAll(signals, catalogue, guardkit)
    const classified = signals.flatMap((signal, i) => (rules[i] == null ? [] : [{signal, rule: rules[i]!}]))
    return {classified, unclassified: signals.filter((_, i) => rules[i] == null), dropped: 0}
  }
  const own = taskSignals(run, task, catalogue, guardkit)
  // the run's own signals (another task's, the set-up's), with the same conditions among themselves
  const signals = run.attempts.flatMap((a) => a.signals ?? [])
  const rules = classifyAll(signals, catalogue, guardkit)
  const runLevel = signals.flatMap((signal, i) => (rules[i] == null ? [] : [{signal, rule: rules[i]!}]))
  return {...own, classified: [...own.classified, ...runLevel]}
}
