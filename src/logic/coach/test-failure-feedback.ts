import type {LogicFlags} from '../changes.js'
import {LOGGERS, type LogSink} from '../log-sink.js'
import {pyRepr} from '../python/repr.js'
import {pyTruthy} from '../python/strings.js'
import {classifyTestFailure, missingModule, type FailureClassification} from './classify-test-failure.js'
import type {CoachIssue} from './coach-result.js'
import type {IndependentTestResult} from './independent-test-result.js'
import {isDict, pyGet, pyStr} from './py-values.js'

const GENERIC = {
  description: 'Independent test verification failed',
  rationale: 'Tests passed according to task-work but failed on independent verification',
}
const INFRASTRUCTURE = {
  description:
    'Tests failed due to infrastructure/environment issues (not code defects). Remediation options: ' +
    '(1) Add mock fixtures for external services, (2) Use SQLite for test database, ' +
    "(3) Mark integration tests with @pytest.mark.integration and exclude via -m 'not integration'",
  rationale: 'Tests failed due to infrastructure/environment issues, not code defects',
}
const PSYCOPG2_IN_ASYNCPG = {
  description:
    "ModuleNotFoundError for 'psycopg2' \u2014 this project uses asyncpg. Remove `import psycopg2` from your code " +
    'and use asyncpg-compatible database patterns instead.',
  rationale: 'Tests failed because psycopg2 was imported in an asyncpg project',
}
const ASYNC_DRIVERS = ['asyncpg', 'sqlalchemy[asyncio]']

/** Step 3 after a failed run: either feedback, or (fixed) a conditional approval that goes on to requirements. */
export type TestFailureVerdict =
  | {readonly kind: 'feedback'; readonly issue: CoachIssue; readonly rationale: string; readonly classification: FailureClassification | null}
  | {readonly kind: 'conditional-approval'; readonly classification: FailureClassification}

/**
 * What `validate()` makes of a failed independent test run (docs/guardkit-logic.md §6.7). Legacy: one generic
 * issue. Fixed: the failure is classified from the raw output; a high-confidence infrastructure
 * failure of a task that declares infrastructure, with Docker unavailable and all gates passed, is
 * approved conditionally; otherwise the description is the psycopg2/asyncpg one, the
 * infrastructure one, or the generic one, in that order.
 */
export function judgeTestFailure(
  taskId: string,
  result: IndependentTestResult,
  task: unknown,
  allGatesPassed: boolean,
  flags: LogicFlags,
  sink: LogSink,
): TestFailureVerdict {
  // classifyFailure (D23): legacy has one generic issue for every failure.
  if (!flags.classifyFailure) {
    sink.emit('WARNING', LOGGERS.coach, `Independent test verification failed for ${taskId}`)
    return {kind: 'feedback', issue: issueWith(GENERIC.description, result, null), rationale: GENERIC.rationale, classification: null}
  }
  const requiresInfrastructure = pyGet(task, 'requires_infrastructure', null)
  const classification = classifyTestFailure(result.raw_output, requiresInfrastructure, flags)
  const {failureClass, confidence} = classification
  const classText = confidence === null ? `classification=${failureClass}` : `classification=${failureClass}, confidence=${confidence}`
  sink.emit('WARNING', LOGGERS.coach, `Independent test verification failed for ${taskId} (${classText})`)
  // conditionalApproval (D23): declared infrastructure that could not be started is not the Player's fault.
  if (flags.conditionalApproval) {
    const dockerAvailable = pyGet(task, '_docker_available', true)
    sink.emit(
      'INFO',
      LOGGERS.coach,
      `conditional_approval check: failure_class=${failureClass}, confidence=${pyStr(confidence)}, ` +
        `requires_infra=${pyRepr(requiresInfrastructure)}, docker_available=${pyStr(dockerAvailable)}, all_gates_passed=${pyStr(allGatesPassed)}`,
    )
    if (failureClass === 'infrastructure' && confidence === 'high' && pyTruthy(requiresInfrastructure) && !pyTruthy(dockerAvailable) && allGatesPassed) {
      return {kind: 'conditional-approval', classification}
    }
  }
  const texts = isPsycopg2InAsyncProject(result.raw_output, requiresInfrastructure, task, flags)
    ? PSYCOPG2_IN_ASYNCPG
    : failureClass === 'infrastructure'
      ? INFRASTRUCTURE
      : GENERIC
  return {kind: 'feedback', issue: issueWith(texts.description, result, classification), rationale: texts.rationale, classification}
}

function issueWith(description: string, result: IndependentTestResult, classification: FailureClassification | null): CoachIssue {
  const issue: Record<string, unknown> = {severity: 'must_fix', category: 'test_verification', description, test_output: result.test_output_summary}
  if (classification) {
    issue.failure_classification = classification.failureClass
    if (classification.confidence !== null) issue.failure_confidence = classification.confidence
  }
  return issue
}

/**
 * A missing psycopg2 in a project whose declared infrastructure (or bootstrap packages, which the
 * orchestrator never sets) names an async driver: the Player imported the wrong driver.
 */
function isPsycopg2InAsyncProject(rawOutput: string | null, requiresInfrastructure: unknown, task: unknown, flags: LogicFlags): boolean {
  // psycopgAsyncpgFeedback (D23): its own description since TASK-FIX-4415.
  if (!flags.psycopgAsyncpgFeedback || !rawOutput || missingModule(rawOutput) !== 'psycopg2') return false
  const bootstrap = isDict(task) ? task.bootstrap_packages : null
  const declared = [...listItems(requiresInfrastructure), ...listItems(bootstrap)]
  return ASYNC_DRIVERS.some((d) => declared.includes(d))
}

function listItems(value: unknown): unknown[] {
  return Array.isArray(value) ? value : []
}
