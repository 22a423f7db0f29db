import {adviceForRun} from './advice-for-run.js'
import {linkCauses} from './causes.js'
import {builtinCatalogue} from './diagnosis/catalogue/builtin.js'
import {causeNotRecorded} from './diagnosis/cause-not-recorded.js'
import {guardkitOf} from './diagnosis/guardkit-changes.js'
import {capApprovedSeverity} from './diagnosis/approved.js'
import {promoteConvergingTimeout} from './diagnosis/converging-timeout.js'
import {taskSignals, type TaskSignals} from './diagnosis/task-signals.js'
import type {FamilyInput, FindingDraft} from './draft.js'
import {detectApprovalOverridden} from './families/approval-overridden.js'
import {detectBoundaryFindings} from './families/boundaries.js'
import {detectCriteriaFindings} from './families/criteria.js'
import {detectInfrastructureFindings} from './families/infrastructure.js'
import {detectPipelineFindings} from './families/pipeline.js'
import {detectPlayerErrorsNotInLog} from './families/player-error-not-in-log.js'
import {detectReplayFindings} from './families/replay.js'
import {detectSignalFindings} from './families/signals.js'
import {detectStallFindings} from './families/stall.js'
import {detectTestFindings} from './families/tests.js'

/**
 * Every finding for one task run, linked cause → effect. The record-only families come first: they
 * work on runs of any era, also outside the modelled window; the replay family adds what only a
 * replay can say (a divergence from the record, what `fixed` still gets wrong); the signal family
 * adds what the catalogue recognises in the log (docs/signals.md) and lends its quoted lines to the
 * findings that explain them. A Player failure whose error line is not in the log is then given the
 * error of a turn that failed the same way, inferred, or said to be missing (PLAYER_ERROR_NOT_IN_LOG).
 * A task that did not end approved and has no finding that can be its cause gets CAUSE_NOT_RECORDED,
 * unless a wall-clock limit ended a loop that was still converging (that limit is then the cause,
 * inferred); on an approved task nothing is critical or high unless the approval itself was wrong. Advice that
 * names an option the run already had says so instead (advice-for-run.ts).
 */
export function detectTaskFindings(given: FamilyInput, signals?: TaskSignals): FindingDraft[] {
  const input = {
    ...given,
    catalogue: given.catalogue ?? builtinCatalogue(),
    guardkit: guardkitOf(given),
  }
  const drafts = [
    ...detectPipelineFindings(input),
    ...detectCriteriaFindings(input),
    ...detectTestFindings(input),
    ...detectStallFindings(input),
    ...detectBoundaryFindings(input),
    ...detectInfrastructureFindings(input),
    ...detectReplayFindings(input),
    ...detectApprovalOverridden(input),
  ]
  const classified = signals ?? taskSignals(input.run, input.task, input.catalogue, input.guardkit)
  const withSignals = detectSignalFindings(input, drafts, classified)
  // after the signals: a Player failure whose error line is missing takes a recorded twin's error, or says what is known
  const withErrors = detectPlayerErrorsNotInLog(input, [...withSignals.fired, ...withSignals.drafts], classified)
  const all = promoteConvergingTimeout(input.task, withErrors, input.catalogue?.rules ?? [])
  const complete = [...all, ...causeNotRecorded(input, all, classified)]
  // what the run already did is never advised again, whichever family or catalogue rule wrote the advice
  const advised = complete.map((d) => {
    const remediation = adviceForRun(input.run, input.task, d.turns, d.remediation, guardkitOf(input))
    return remediation === d.remediation ? d : {...d, remediation}
  })
  return linkCauses(capApprovedSeverity(input.task, advised))
}
