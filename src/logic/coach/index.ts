/**
 * The Coach (`CoachValidator`, docs/guardkit-logic.md §6): `validate()` is the entry point the replay calls once per
 * turn; the rest is exported for the explainer, the conformance adapters and tests. Requirements
 * verification (docs/guardkit-logic.md §7) lives in `./requirements/`.
 */
export {validate, type CoachValidateInput, type CoachValidateOutcome} from './validate.js'
export {coachResultToDict, type CoachIssue, type CoachValidationResult, type RequirementsVerdict} from './coach-result.js'
export {approvalRationale} from './approval.js'
export {TASK_TYPES, TASK_TYPE_ALIASES, getProfile, profileFields, resolveTaskProfile, type QualityGateProfile, type TaskType, type TaskTypeResolution} from './task-profile.js'
export {verifyQualityGates, qualityGatesToDict, qualityGateStatusRepr, type QualityGateStatus} from './quality-gates.js'
export {feedbackFromGates} from './quality-gate-feedback.js'
export {readTaskWorkResults, type TaskWorkResultsRead} from './read-task-work-results.js'
export {runIndependentTests, type IndependentTestsInput, type IndependentTestsRun, type SubprocessOutcome, type TestOutcome} from './run-independent-tests.js'
export {SKIPPED_COMMAND, independentTestResultFrom, type IndependentTestResult} from './independent-test-result.js'
export {detectTestCommand, type CumulativeDiffFacts, type DetectTestCommandInput} from './detect-test-command.js'
export {detectTestsFromResults, isTestFileName, normalizeToRelative, pytestCommand} from './test-paths.js'
export {summarizeTestOutput, defaultSummaryLength} from './summarize-test-output.js'
export {classifyTestFailure, missingModule, type FailureClass, type FailureClassification, type FailureConfidence} from './classify-test-failure.js'
export {judgeTestFailure, type TestFailureVerdict} from './test-failure-feedback.js'
export {checkZeroTestAnomaly, ZERO_TEST_RATIONALE} from './zero-test-anomaly.js'
export {checkConsumerContext, checkSeamTestRecommendation} from './soft-gates.js'
export {
  describeDispatch,
  dispatchIndependentTests,
  isCustomApiBase,
  sdkTestOptions,
  sdkTestPrompt,
  subprocessInvocation,
  type SdkTestOptions,
  type SubprocessInvocation,
  type TestDispatch,
  type TestEnvironment,
} from './test-dispatch.js'
export {extractContentText, interpretSdkRun, sdkIsErrorNoneHeuristic, type SdkRunInterpretation, type SdkToolResult} from './sdk-test-run.js'
