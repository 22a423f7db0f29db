import {describe, expect, it} from 'vitest'
import {detectTestFindings} from '../../../../src/explain/families/tests.js'
import {absRelPairs, spellingPairs, testArgs} from '../../../../src/explain/families/test-paths.js'
import type {RunAttempt} from '../../../../src/model/run-record.js'
import {eraOf, ev, fact, familyInput, feedbackTurn, handInput, loadFixture, runRecord, taskOf, taskRun} from '../helpers.js'

const failedTests = (seconds: number) => ({independentTests: fact({passed: false, durationSeconds: seconds})})
const gatesPassed = {gates: fact({testsPassed: true, coverageMet: true, archReviewPassed: true, planAuditPassed: true, allPassed: true, testsRequired: true, coverageRequired: true, archReviewRequired: false})}

describe('INFRA_TEST_FAILURE', () => {
  it('is certain when the recorded test output names an infrastructure error (db-003-timeout: OperationalError)', async () => {
    const run = await loadFixture('db-003-timeout')
    const f = detectTestFindings(familyInput(run, taskOf(run, 'TASK-DB-003'))).find((x) => x.code === 'INFRA_TEST_FAILURE')
    expect(f!.confidence).toBe('certain')
    expect(f!.turns).toEqual([1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17])
    expect(f!.remediation).toMatch(/conftest\.py/)
    expect(f!.remediation).toMatch(/test_execution: sdk/)
  })

  it('is inferred from a failure faster than a test run when the output is not recorded', () => {
    const task = taskRun({turns: [feedbackTurn(1, '- Independent test verification failed:\n  FAILED tests/a.py::T', 0, 3, {coach: {...failedTests(1.7), ...gatesPassed}})]})
    const truncated = {...task, turns: [{...task.turns[0]!, coach: {...task.turns[0]!.coach, feedback: {...task.turns[0]!.coach.feedback!, completeness: 'truncated' as const}}}]}
    const f = detectTestFindings(handInput(truncated, {era: eraOf('as-run:8a697b80')})).find((x) => x.code === 'INFRA_TEST_FAILURE')
    expect(f!.confidence).toBe('inferred')
    expect(f!.deduction).toMatch(/1\.7 s/)
  })

  // a conftest ImportError is raised as well by a dependency missing where the Coach ran pytest as by the Player's own code
  it('is inferred, and says the records cannot tell the environment from the code, when the feedback holds only an import error and no classification is logged', () => {
    const text = "- Independent test verification failed:\n  ImportError while loading conftest '/U"
    const task = taskRun({turns: [feedbackTurn(1, text, 0, 7, {coach: {...failedTests(0.4), ...gatesPassed}})]})
    const f = detectTestFindings(handInput(task, {era: eraOf('as-run:8a697b80')})).find((x) => x.code === 'INFRA_TEST_FAILURE')
    expect(f!.confidence).toBe('inferred')
    expect(f!.message).toMatch(/records do not say which/)
    expect(f!.message).not.toMatch(/no code change|not the code/)
    expect(f!.deduction).toMatch(/no classification/)
    expect(f!.remediation).not.toMatch(/Mock the database|SQLite/)
    expect(f!.remediation).toMatch(/the Player wrote\), that code is what to fix/)
  })

  it("follows GuardKit's own classification record: ambiguous confidence is inferred, high is certain", () => {
    const withClass = (confidence: string) =>
      taskRun({turns: [feedbackTurn(1, '- Tests failed due to infrastructure/environment issues (not code defects). Reme', 0, 12, {coach: {...failedTests(12.7), ...gatesPassed, testFailureClass: fact({classification: 'infrastructure', confidence}, 1343)}})]})
    const ambiguous = detectTestFindings(handInput(withClass('ambiguous'), {era: eraOf('fixed')})).find((x) => x.code === 'INFRA_TEST_FAILURE')
    expect(ambiguous!.confidence).toBe('inferred')
    expect(ambiguous!.message).toMatch(/ambiguous confidence/)
    expect(ambiguous!.message).not.toMatch(/no code change/)
    expect(ambiguous!.remediation).not.toMatch(/ModuleNotFoundError/)
    const high = detectTestFindings(handInput(withClass('high'), {era: eraOf('fixed')})).find((x) => x.code === 'INFRA_TEST_FAILURE')
    expect(high!.confidence).toBe('certain')
    expect(high!.message).toMatch(/high confidence/)
  })

  // a reading from the failure's time alone names no service: mocking a database is not advice the records support
  it('does not advise mocking a database when the environment reading rests on the failure\'s time alone', () => {
    const task = taskRun({turns: [feedbackTurn(1, '- Independent test verification failed:\n  ERROR tests/users/test_users.py', 0, 3, {coach: {...failedTests(0.9), ...gatesPassed}})]})
    const truncated = {...task, turns: [{...task.turns[0]!, coach: {...task.turns[0]!.coach, feedback: {...task.turns[0]!.coach.feedback!, completeness: 'truncated' as const}}}]}
    const f = detectTestFindings(handInput(truncated, {era: eraOf('as-run:8a697b80')})).find((x) => x.code === 'INFRA_TEST_FAILURE')
    expect(f!.confidence).toBe('inferred')
    expect(f!.remediation).not.toMatch(/Mock the database|SQLite/)
    expect(f!.remediation).toMatch(/inferred from its time alone/)
    expect(f!.remediation).toMatch(/run the Coach's test command yourself/)
  })

  it('says GuardKit started a service container for the tests, and does not advise mocking a database no record names', () => {
    const task = taskRun({turns: [feedbackTurn(1, '- Tests failed due to infrastructure/environment issues (not code defects). Reme', 0, 6, {coach: {...failedTests(6.6), ...gatesPassed, testFailureClass: fact({classification: 'infrastructure', confidence: 'high'}, 320)}})]})
    const attempt: RunAttempt = {attempt: 1, file: 'run.log', startLine: 1, endLine: 900, command: null, kind: 'feature', featureId: 'FEAT-A1', taskIds: [task.taskId], waves: [], featureResult: null, truncated: false,
      settings: {maxTurns: null, sdkTimeoutSeconds: null, taskTimeoutSeconds: null, resetTurns: null, enablePerspectiveReset: null, rollbackOnPollution: null, serviceContainers: {value: ['postgresql'], evidence: [ev(313), ev(454)]}}}
    const run = runRecord([task], {attempts: [attempt]})
    const f = detectTestFindings(handInput(task, {era: eraOf('fixed'), run})).find((x) => x.code === 'INFRA_TEST_FAILURE')
    expect(f!.confidence).toBe('certain')
    expect(f!.remediation).toMatch(/GuardKit started a Docker container for postgresql for the Coach's tests in this run \(run\.log:313\)/)
    expect(f!.remediation).not.toMatch(/Mock the database|SQLite/)
    // with a record of a refused connection, the container is still named and mocking is only the alternative
    const refused = taskRun({turns: [feedbackTurn(1, '- Independent test verification failed:\n  E   ConnectionRefusedError: [Errno 61]', 0, 6, {coach: {...failedTests(2.1), ...gatesPassed}})]})
    const g = detectTestFindings(handInput(refused, {era: eraOf('fixed'), run: runRecord([refused], {attempts: [attempt]})})).find((x) => x.code === 'INFRA_TEST_FAILURE')
    expect(g!.remediation).toMatch(/^GuardKit started a Docker container for postgresql/)
    expect(g!.remediation).toMatch(/whether the tests reached that container/)
  })

  it('is not reported for a code failure, however fast (ok-approved-after-feedback: KeyError)', async () => {
    const run = await loadFixture('ok-approved-after-feedback')
    const codes = detectTestFindings(familyInput(run, taskOf(run, 'TASK-HC-002'))).map((f) => f.code)
    expect(codes).not.toContain('INFRA_TEST_FAILURE')
    expect(codes).not.toContain('FEEDBACK_NOT_ACTIONABLE')
  })
})

describe('ENV_PARITY_GAP', () => {
  it('is inferred when the Player\'s gate said tests passed and the Coach\'s subprocess run failed on infrastructure', () => {
    const text = '- Independent test verification failed:\n  FAILED tests/a.py::T::t - OperationalError\n  1 failed in 1.1s'
    const task = taskRun({turns: [feedbackTurn(1, text, 0, 3, {coach: {...failedTests(1.2), ...gatesPassed}})]})
    const f = detectTestFindings(handInput(task, {era: eraOf('as-run:8a697b80')})).find((x) => x.code === 'ENV_PARITY_GAP')
    expect(f!.confidence).toBe('inferred')
    expect(f!.fixedIn!.flags).toEqual(['sdkTests'])
  })

  it('is not reported when the Coach already ran its tests through the SDK (GuardKit 5c2b5d82+)', () => {
    const text = '- Independent test verification failed:\n  FAILED tests/a.py::T::t - OperationalError'
    const task = taskRun({turns: [feedbackTurn(1, text, 0, 3, {coach: {...failedTests(1.2), ...gatesPassed}})]})
    expect(detectTestFindings(handInput(task, {era: eraOf('fixed')})).map((f) => f.code)).not.toContain('ENV_PARITY_GAP')
  })
})

describe('FEEDBACK_NOT_ACTIONABLE', () => {
  it('is certain when the full feedback holds only pytest summary lines', () => {
    const text = '- Independent test verification failed:\n  FAILED tests/users/test_users.py::TestUser::test_create_user - OperationalError\n  ==== 1 failed in 1.73s ===='
    const f = detectTestFindings(handInput(taskRun({turns: [feedbackTurn(1, text, 0, 6, {coach: failedTests(1.7)})]}))).find((x) => x.code === 'FEEDBACK_NOT_ACTIONABLE')
    expect(f!.confidence).toBe('certain')
    expect(f!.fixedIn!.flags).toEqual(['summaryErrorContext'])
  })

  it('is not reported when the feedback carries the error (fixed "Error detail:" block, or an E line)', () => {
    const withDetail = '- Independent test verification failed:\n  Error detail:\n>       assert x\nE       KeyError: \'version\''
    const withE = '- Independent test verification failed:\n  E   sqlalchemy.exc.OperationalError: could not connect to server'
    for (const text of [withDetail, withE]) {
      expect(detectTestFindings(handInput(taskRun({turns: [feedbackTurn(1, text, 0, 6, {coach: failedTests(8)})]}))).map((f) => f.code)).not.toContain('FEEDBACK_NOT_ACTIONABLE')
    }
  })
})

describe('FEEDBACK_NOT_ACTIONABLE from the log\'s header line alone', () => {
  it('claims nothing when the only record is the progress line holding the feedback\'s header', () => {
    // `Completed turn N: feedback - Feedback: - Independent test verification failed:`: GuardKit appends the test summary after the header
    const turns = [1, 2, 3].map((n) => feedbackTurn(n, '- Independent test verification failed:', 0, 6, {coach: failedTests(0.5)}))
    expect(detectTestFindings(handInput(taskRun({turns}))).map((f) => f.code)).not.toContain('FEEDBACK_NOT_ACTIONABLE')
  })

  it('is still certain when the header-only text comes from the Coach\'s report (the whole text)', () => {
    const t = feedbackTurn(1, '- Independent test verification failed:', 0, 6, {coach: failedTests(0.5)})
    const fromReport = {...t, coach: {...t.coach, feedback: {...t.coach.feedback!, evidence: [{file: 'coach_turn_1.json', pointer: '/feedback'}]}}}
    const f = detectTestFindings(handInput(taskRun({turns: [fromReport]}))).find((x) => x.code === 'FEEDBACK_NOT_ACTIONABLE')
    expect(f?.confidence).toBe('certain')
  })
})

describe('test paths', () => {
  it('splits a pytest command into its file arguments', () => {
    expect(testArgs('pytest /wt/tests/a/test_x.py tests/a/test_x.py::T::t -v --tb=short')).toEqual(['/wt/tests/a/test_x.py', 'tests/a/test_x.py'])
  })

  it('pairs an absolute path with the relative path of the same file, and spellings of one relative path', () => {
    expect(absRelPairs(['/Users/dev/wt/tests/users/test_users.py', 'tests/users/test_users.py'])).toEqual([['/Users/dev/wt/tests/users/test_users.py', 'tests/users/test_users.py']])
    expect(absRelPairs(['/Users/dev/wt/tests/test_a.py', 'tests/test_b.py'])).toEqual([])
    expect(spellingPairs(['./tests/x.py', 'tests/x.py', 'tests//x.py'])).toEqual([['./tests/x.py', 'tests/x.py'], ['./tests/x.py', 'tests//x.py']])
  })

  it('reports ABSOLUTE_RELATIVE_DUPLICATES from the recorded pytest commands of turns 1 and 7 (db-003-timeout)', async () => {
    const run = await loadFixture('db-003-timeout')
    const f = detectTestFindings(familyInput(run, taskOf(run, 'TASK-DB-003'))).find((x) => x.code === 'ABSOLUTE_RELATIVE_DUPLICATES')
    expect(f!.turns).toEqual([1, 7])
    expect(f!.fixedIn!.flags).toEqual(['relPathDedup'])
  })

  it('reports DUPLICATE_TEST_PATHS_UNNORMALISED for ./tests/x.py + tests/x.py, which no version normalises', () => {
    const task = taskRun({turns: [feedbackTurn(1, '- Independent test verification failed:\n  x', 0, 2, {coach: {testCommand: fact('pytest ./tests/test_x.py tests/test_x.py -v --tb=short')}})]})
    const f = detectTestFindings(handInput(task)).find((x) => x.code === 'DUPLICATE_TEST_PATHS_UNNORMALISED')
    expect(f!.fixedIn).toBeNull()
    expect(f!.message).toContain('./tests/test_x.py')
  })
})

describe('gates and zero-test anomaly', () => {
  it('reports GATES_SHORT_CIRCUIT on the coverage turn (db-003-timeout, turn 2)', async () => {
    const run = await loadFixture('db-003-timeout')
    const f = detectTestFindings(familyInput(run, taskOf(run, 'TASK-DB-003'))).find((x) => x.code === 'GATES_SHORT_CIRCUIT')
    expect(f!.turns).toEqual([2])
    expect(f!.message).toContain('coverage')
  })

  it('reports ZERO_TEST_ANOMALY on the turns the Coach rejected for a zero-test anomaly, and only those', () => {
    const turns = [1, 2, 3].map((n) => feedbackTurn(n, '- Zero-test anomaly: no task-specific tests created', 6, 6, {coach: {zeroTestAnomaly: fact(n !== 2, n * 10 + 5)}}))
    const f = detectTestFindings(handInput(taskRun({turns}))).find((x) => x.code === 'ZERO_TEST_ANOMALY')
    expect(f!.turns).toEqual([1, 3])
    expect(f!.confidence).toBe('certain')
    expect(f!.evidence).toEqual([{file: 'run.log', line: 15}, {file: 'run.log', line: 35}])
    expect(detectTestFindings(handInput(taskRun({turns: turns.slice(1, 2)}))).map((x) => x.code)).not.toContain('ZERO_TEST_ANOMALY')
  })
})

describe('ZERO_TEST_ANOMALY', () => {
  // the check has two conditions (docs/guardkit-logic.md §6.8); the finding names the one its record names
  it('words a rejection for tests_passed=0 and coverage=null by that record, not as missing task-specific tests', () => {
    const anomaly = {value: true, evidence: [{file: 'run.log', line: 204, text: 'Zero-test anomaly: all_passed=true but tests_passed=0 and coverage=null. Player may have reported quality gates as passed without running tests.'}]}
    const turns = [1, 2].map((n) => feedbackTurn(n, '- Quality gates reported as passed but no tests were executed (tests_passed=0, coverage=null).', 0, 6, {coach: {...gatesPassed, independentTests: fact({passed: true, durationSeconds: 0.6}), zeroTestAnomaly: anomaly}}))
    const f = detectTestFindings(handInput(taskRun({turns}))).find((x) => x.code === 'ZERO_TEST_ANOMALY')
    expect(f!.message).toMatch(/tests_passed=0 and coverage=null/)
    expect(f!.message).not.toMatch(/zero task-specific tests/)
    expect(f!.category).toBe('pipeline-data-loss')
    expect(f!.confidence).toBe('inferred')
  })

  it('keeps the no-task-specific-tests wording for the other condition', () => {
    const anomaly = {value: true, evidence: [{file: 'run.log', line: 9, text: 'Zero-test anomaly: no task-specific tests created (tests_written=[]) and independent verification skipped (no task-specific test files found).'}]}
    const task = taskRun({turns: [feedbackTurn(1, '- No task-specific tests created', 0, 6, {coach: {...gatesPassed, zeroTestAnomaly: anomaly}})]})
    const f = detectTestFindings(handInput(task)).find((x) => x.code === 'ZERO_TEST_ANOMALY')
    expect(f!.message).toMatch(/zero task-specific tests/)
    expect(f!.confidence).toBe('certain')
  })
})

describe('GATES_SHORT_CIRCUIT', () => {
  it("names on each turn the gates that turn records, the feedback's included (a gate recorded as None)", () => {
    const gates = (coverageMet: boolean | null) => ({gates: fact({testsPassed: true, coverageMet, archReviewPassed: false, planAuditPassed: true, allPassed: false, testsRequired: null, coverageRequired: null, archReviewRequired: null})})
    const turns = [
      feedbackTurn(1, '- Architectural review score below 60:', 0, 5, {coach: gates(true)}),
      feedbackTurn(2, '- Coverage threshold not met:\n- Architectural review score below 60:', 0, 5, {coach: gates(null)}),
    ]
    const f = detectTestFindings(handInput(taskRun({turns}))).find((x) => x.code === 'GATES_SHORT_CIRCUIT')
    expect(f!.message).toContain('(architecture review on t1; coverage and architecture review on t2)')
  })
})
